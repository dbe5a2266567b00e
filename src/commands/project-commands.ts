/** Tagging a project and choosing the branch it shows. */
import * as vscode from 'vscode';
import { showInformation, showInput, withProgress } from '../host/notify';
import { t } from '../core/l10n';
import { branchName, primaryRef, sameBranch } from '../core/model/refs';
import type { Project } from '../core/model/types';
import { parseTags } from '../core/services/projects-service';
import { placeAt, refAt } from '../core/services/place';
import { refChoices } from '../core/workspace/ref-choices';
import { withAbortSignal } from '../host/cancellation';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { inertIcons } from '../core/model/untrusted-text';

/** Project commands act on projects, their shown ref and their SBOM jobs. */
export type ProjectCommandsDeps = Pick<CommandDeps, 'projects' | 'repos' | 'viewState' | 'sbom' | 'clipboard' | 'findings' | 'session' | 'scans'>;

/** The ref the tree shows for a project (its chosen ref, else the branch checked out, else its primary branch). */
export function treeRef(app: Pick<CommandDeps, 'repos' | 'viewState'>, project: Project): string | undefined {
  return refAt(placeAt(project, app.viewState.refOverride(project.name), app.repos.repos()));
}

/** The project the item is (a node's, a Project, or one named by text), else picked from the list (loading it if needed). */
export async function resolveProject(app: Pick<ProjectCommandsDeps, 'projects' | 'repos'>, item: CommandItem | undefined): Promise<Project | undefined> {
  const given = item?.project ?? (item?.text !== undefined ? app.projects.find(item.text) : undefined);
  if (given) return given;
  const projects = await app.projects.load();
  const inWorkspace = app.repos.projectNames();
  const picked = await vscode.window.showQuickPick(
    [...projects]
      .sort((a, b) => Number(inWorkspace.has(b.name)) - Number(inWorkspace.has(a.name)) || a.name.localeCompare(b.name))
      .map((p) => ({
        label: inertIcons(p.name),
        description: inertIcons([inWorkspace.has(p.name) ? t('in workspace') : '', p.tags.join(', ')].filter(Boolean).join(' · ')),
        project: p,
      })),
    { title: t('AppSec: choose a project'), matchOnDescription: true },
  );
  return picked?.project;
}

/** What tags look like, in the input box (tags are names, not words). */
const TAGS_EXAMPLE = 'team-payments, pci';

/** `tagProject(project?, tags?)`: tags typed comma-separated; the project is updated from the answer. */
export async function tagProject(app: ProjectCommandsDeps, item?: CommandItem, given?: string): Promise<Project | undefined> {
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  const input =
    given ??
    (await showInput({
      title: t('AppSec: add tags to {0}', project.name),
      prompt: t('Comma-separated. Tags are added to the existing ones ({0}).', project.tags.join(', ') || t('none')),
      placeHolder: TAGS_EXAMPLE,
      validateInput: (value) => (value.trim() === '' ? undefined : ((v) => (typeof v === 'string' ? v : undefined))(parseTags(value))),
    }));
  if (input === undefined) return undefined;
  const tags = parseTags(input);
  if (typeof tags === 'string') throw new Error(tags);
  const updated = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: tagging {0}…', project.name), cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, (signal) => app.projects.addTags(project.name, tags, signal)),
  );
  void showInformation(t('AppSec: {0} is tagged {1}.', project.name, updated.tags.join(', ')));
  return updated;
}

/**
 * `chooseRef(project?, ref?)`: which branch the tree shows for a project (the primary branch
 * unless changed here). An empty answer goes back to the primary branch.
 */
export async function chooseRef(app: ProjectCommandsDeps, item?: CommandItem, given?: string): Promise<string | undefined> {
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  const primary = primaryRef(project);
  const input = given ?? (await pickRef(app, project));
  if (input === undefined) return undefined;
  // `refs/heads/x` and `x` name one branch: kept and shown by its short name.
  const ref = branchName(input.trim());
  await app.viewState.setRefOverride(project.name, ref && !sameBranch(ref, primary) ? ref : undefined);
  return ref || primary;
}

/** How long the branch picker waits for the platform's list of scanned branches. */
const SCANNED_BRANCHES_WAIT_MS = 2_000;

/**
 * The branches the user has, to pick from: the project's primary and default branches, the
 * workspace's local git branches, the refs of findings already loaded; free text last.
 */
async function pickRef(app: ProjectCommandsDeps, project: Project): Promise<string | undefined> {
  const primary = primaryRef(project);
  const current = treeRef(app, project);
  const local = await app.repos.localBranches(project.name);
  const loaded = app.findings
    .shownResults()
    .flatMap((r) => r.findings)
    .filter((f) => f.repositoryName === project.name)
    .map((f) => f.ref);
  const other = { label: `$(edit) ${t('Other branch or ref…')}`, ref: undefined };
  // The picker is busy while the platform says which branches it scanned, for a moment at most;
  // without that answer the branches are offered unmarked.
  // The same list the views read to tell a branch scanned clean from one never scanned.
  const slug = app.session.deployment?.slug;
  const scanned =
    slug === undefined
      ? Promise.resolve(undefined)
      : app.scans.branches(slug, project.name, { signal: AbortSignal.timeout(SCANNED_BRANCHES_WAIT_MS) }).catch(() => undefined);
  const items = scanned.then((branches) => [
    ...refChoices({ primary, defaultBranch: project.defaultBranch, current, local, loaded, ...(branches ? { scanned: branches } : {}) }),
    { label: '', kind: vscode.QuickPickItemKind.Separator, ref: undefined },
    other,
  ]);
  const picked = await vscode.window.showQuickPick(items, {
    title: t('AppSec: show the findings of {0} on…', project.name),
    placeHolder: primary
      ? t('A branch (the primary branch, {0}, is what the platform scans by default)', primary)
      : t('A branch (the primary branch is what the platform scans by default)'),
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.ref !== undefined) return picked.ref;
  return showInput({
    title: t('AppSec: branch or ref of {0} to show', project.name),
    value: current,
    prompt: primary
      ? t('Findings of this ref are listed under the project. Leave empty for the primary branch ({0}).', primary)
      : t('Findings of this ref are listed under the project. Leave empty for the primary branch.'),
    validateInput: (v) => (/\s/.test(v.trim()) ? t('A ref has no spaces.') : undefined),
  });
}
