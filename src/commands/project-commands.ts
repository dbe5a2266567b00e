/** Tagging a project and exporting its SBOM. */
import * as vscode from 'vscode';
import { projectFrom, type App } from '../app';
import { branchName, primaryRef, sameBranch } from '../core/model/refs';
import type { Project, SbomComponentType, SbomExportRequest, SbomOutputFormat } from '../core/model/types';
import { CYCLONEDX_VERSIONS, SBOM_COMPONENT_TYPES } from '../core/model/types';
import { parseTags } from '../core/services/projects-service';
import { refChoices } from '../core/workspace/ref-choices';
import type { SbomExportRecord } from '../core/services/sbom-service';
import { settings } from '../host/settings';
import { withAbortSignal } from '../host/cancellation';
import { safeLink } from '../diagnostics/finding-diagnostic';

/** Project commands act on projects, their shown ref and SBOM jobs. */
export type ProjectCommandsDeps = Pick<App, 'projects' | 'repos' | 'viewState' | 'sbom' | 'clipboard' | 'findings'>;

/** A project from the argument, else picked from the list (loading it if needed). */
async function resolveProject(app: ProjectCommandsDeps, arg: unknown): Promise<Project | undefined> {
  const given = projectFrom(app, arg);
  if (given) return given;
  const projects = await app.projects.load();
  const inWorkspace = app.repos.projectNames();
  const picked = await vscode.window.showQuickPick(
    [...projects].sort((a, b) => Number(inWorkspace.has(b.name)) - Number(inWorkspace.has(a.name)) || a.name.localeCompare(b.name))
      .map((p) => ({ label: p.name, description: [inWorkspace.has(p.name) ? 'in workspace' : '', p.tags.join(', ')].filter(Boolean).join(' · '), project: p })),
    { title: 'AppSec: choose a project', matchOnDescription: true },
  );
  return picked?.project;
}

/** `tagProject(project?, tags?)`: tags typed comma-separated; the project is updated from the answer. */
export async function tagProject(app: ProjectCommandsDeps, arg?: unknown, tagsArg?: unknown): Promise<Project | undefined> {
  const project = await resolveProject(app, arg);
  if (!project) return undefined;
  const input = typeof tagsArg === 'string' ? tagsArg : await vscode.window.showInputBox({
    title: `AppSec: add tags to ${project.name}`,
    prompt: `Comma-separated. Tags are added to the existing ones (${project.tags.join(', ') || 'none'}).`,
    placeHolder: 'team-payments, pci',
    validateInput: (value) => (value.trim() === '' ? undefined : (v => (typeof v === 'string' ? v : undefined))(parseTags(value))),
  });
  if (input === undefined) return undefined;
  const tags = parseTags(input);
  if (typeof tags === 'string') throw new Error(tags);
  const updated = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AppSec: tagging ${project.name}…`, cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, (signal) => app.projects.addTags(project.name, tags, signal)),
  );
  void vscode.window.showInformationMessage(`AppSec: ${project.name} is tagged ${updated.tags.join(', ')}.`);
  return updated;
}

/**
 * `chooseRef(project?, ref?)`: which branch the tree shows for a project (the primary branch
 * unless changed here). An empty answer goes back to the primary branch.
 */
export async function chooseRef(app: ProjectCommandsDeps, arg?: unknown, refArg?: unknown): Promise<string | undefined> {
  const project = await resolveProject(app, arg);
  if (!project) return undefined;
  const primary = primaryRef(project);
  const input = typeof refArg === 'string' ? refArg : await pickRef(app, project);
  if (input === undefined) return undefined;
  // `refs/heads/x` and `x` name one branch: kept and shown by its short name.
  const ref = branchName(input.trim());
  await app.viewState.setRefOverride(project.name, ref && !sameBranch(ref, primary) ? ref : undefined);
  return ref || primary;
}

const FORMATS: { label: string; detail: string; value: SbomOutputFormat }[] = [
  { label: 'CycloneDX JSON', detail: 'A JSON document (.json)', value: 'SBOM_OUTPUT_FORMAT_JSON' },
  { label: 'CycloneDX XML', detail: 'An XML document (.xml)', value: 'SBOM_OUTPUT_FORMAT_CYCLONEDX' },
];

interface SbomOptions { ref?: string; outputFormat?: SbomOutputFormat; cycloneDxVersion?: string; componentType?: SbomComponentType; follow?: boolean }

/**
 * The branches the user has, to pick from: the project's primary and default branches, the
 * workspace's local git branches, the refs of findings already loaded; free text last.
 */
async function pickRef(app: ProjectCommandsDeps, project: Project): Promise<string | undefined> {
  const primary = primaryRef(project);
  const current = app.viewState.refOverride(project.name) ?? primary;
  const local = await app.repos.localBranches(project.name);
  const loaded = app.findings.shownResults().flatMap((r) => r.findings).filter((f) => f.repositoryName === project.name).map((f) => f.ref);
  const items = refChoices({ primary, defaultBranch: project.defaultBranch, current, local, loaded });
  const other = { label: '$(edit) Other branch or ref…', ref: undefined };
  const picked = await vscode.window.showQuickPick([...items, { label: '', kind: vscode.QuickPickItemKind.Separator, ref: undefined }, other], {
    title: `AppSec: show the findings of ${project.name} on…`,
    placeHolder: `A branch (the primary branch${primary ? `, ${primary},` : ''} is what the platform scans by default)`,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.ref !== undefined) return picked.ref;
  return vscode.window.showInputBox({
    title: `AppSec: branch or ref of ${project.name} to show`,
    value: current,
    prompt: `Findings of this ref are listed under the project. Leave empty for the primary branch${primary ? ` (${primary})` : ''}.`,
    validateInput: (v) => (/\s/.test(v.trim()) ? 'A ref has no spaces.' : undefined),
  });
}

/** Asks for what the options object does not give; undefined when the user dismissed a picker. */
async function sbomRequest(project: Project, options: SbomOptions): Promise<SbomExportRequest | undefined> {
  const primary = primaryRef(project) ?? 'main';
  const ref = options.ref ?? await vscode.window.showInputBox({ title: 'AppSec: SBOM export (1/4): ref', value: primary, prompt: 'Branch or ref to export', validateInput: (v) => (v.trim() ? undefined : 'A ref is needed.') });
  if (!ref) return undefined;
  const outputFormat = options.outputFormat ?? (await vscode.window.showQuickPick(FORMATS, { title: 'AppSec: SBOM export (2/4): output format' }))?.value;
  if (!outputFormat) return undefined;
  const cycloneDxVersion = options.cycloneDxVersion ?? (await vscode.window.showQuickPick([...CYCLONEDX_VERSIONS].reverse(), { title: 'AppSec: SBOM export (3/4): CycloneDX version' }));
  if (!cycloneDxVersion) return undefined;
  const componentType = options.componentType ?? (await vscode.window.showQuickPick(
    SBOM_COMPONENT_TYPES.map((t) => ({ label: t.toLowerCase().replace(/_/g, ' '), value: t })),
    { title: 'AppSec: SBOM export (4/4): component type' },
  ))?.value;
  if (!componentType) return undefined;
  const supplier = settings.sbomSupplier();
  return { repositoryId: project.id, ref: ref.trim(), outputFormat, cycloneDxVersion, componentType, ...(supplier ? { supplier } : {}) };
}

/** `exportSbom(project?, options?)`: starts the job, shows the task token, follows it to the end. */
export async function exportSbom(app: ProjectCommandsDeps, arg?: unknown, optionsArg?: unknown): Promise<SbomExportRecord | undefined> {
  const project = await resolveProject(app, arg);
  if (!project) return undefined;
  const options = (typeof optionsArg === 'object' && optionsArg !== null ? optionsArg : {}) as SbomOptions;
  const request = await sbomRequest(project, options);
  if (!request) return undefined;
  const started = await app.sbom.start(project.name, request);
  void vscode.window.showInformationMessage(`AppSec: SBOM export of ${project.name}@${request.ref} started. Task token: ${started.taskToken}`, 'Copy Token')
    .then((picked) => (picked ? app.clipboard.writeText(started.taskToken) : undefined));
  const follow = vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AppSec: exporting the SBOM of ${project.name}`, cancellable: true },
    (progress, cancel) => withAbortSignal(cancel, (signal) => app.sbom.follow(started.taskToken, signal, (s) => progress.report({ message: s.state.replace('SBOM_EXPORT_STATUS_', '').toLowerCase().replace('_', ' ') }))),
  ).then(announce);
  // Automation may wait for the end; a person gets the token at once and a message at the end.
  return options.follow === false ? started : follow;
}

function announce(record: SbomExportRecord): SbomExportRecord {
  const link = safeLink(record.downloadUrl);
  if (record.state === 'SBOM_EXPORT_STATUS_COMPLETED' && link) {
    void vscode.window.showInformationMessage(`AppSec: the SBOM of ${record.projectName} is ready.`, 'Open Download').then((p) => (p ? vscode.env.openExternal(link) : undefined));
  } else if (record.state === 'SBOM_EXPORT_STATUS_FAILED') {
    void vscode.window.showErrorMessage(`AppSec: the SBOM export of ${record.projectName} failed: ${record.errorMessage ?? 'no reason given'}.`);
  }
  return record;
}

export async function showSbomExports(app: ProjectCommandsDeps): Promise<void> {
  const history = app.sbom.history;
  if (history.length === 0) {
    void vscode.window.showInformationMessage('AppSec: no SBOM exports yet. Start one with "AppSec: Export SBOM…".');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    history.map((r) => ({ label: `${r.projectName}@${r.ref}`, description: `${r.state.replace('SBOM_EXPORT_STATUS_', '').toLowerCase()} · ${new Date(r.startedAt).toLocaleString()}`, detail: `Task token ${r.taskToken}`, record: r })),
    { title: 'AppSec: SBOM exports (newest first)', placeHolder: 'Pick one to copy its task token or open its download' },
  );
  if (!picked) return;
  const link = safeLink(picked.record.downloadUrl);
  const action = await vscode.window.showQuickPick([{ label: 'Copy task token' }, ...(link ? [{ label: 'Open download' }] : [])]);
  if (action?.label === 'Copy task token') await app.clipboard.writeText(picked.record.taskToken);
  if (action?.label === 'Open download' && link) await vscode.env.openExternal(link);
}
