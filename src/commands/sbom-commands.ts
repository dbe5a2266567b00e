/**
 * SBOM exports end as a file in the project: start the job, follow it with a cancellable
 * progress, then save the checked document where the user picks (or where automation says) and
 * open it. Jobs still running when the window closed are followed again after a reload.
 */
import * as vscode from 'vscode';
import { primaryRef } from '../core/model/refs';
import type { Project } from '../core/model/types';
import type { SbomExportRequest, SbomOutputFormat } from '../core/model/sbom';
import { CYCLONEDX_VERSIONS, SBOM_COMPONENT_TYPES } from '../core/model/sbom';
import { isFinal, type SbomExportRecord } from '../core/services/sbom-service';
import { withAbortSignal } from '../host/cancellation';
import { settings } from '../host/settings';
import type { SbomOptions } from './command-arguments';
import type { CommandItem } from './command-item';
import { resolveProject, type ProjectCommandsDeps } from './project-commands';
import { saveTarget } from './save-target';

const FORMATS: { label: string; detail: string; value: SbomOutputFormat }[] = [
  { label: 'CycloneDX JSON', detail: 'A JSON document (.cdx.json)', value: 'SBOM_OUTPUT_FORMAT_JSON' },
  { label: 'CycloneDX XML', detail: 'An XML document (.cdx.xml)', value: 'SBOM_OUTPUT_FORMAT_CYCLONEDX' },
];

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

/**
 * `exportSbom(project?, options?)`: starts the job and follows it to its end; a completed job's
 * document is saved (to `saveTo`, else where the user picks) and opened. Resolves with the
 * job's record, after the file is written when there is one.
 */
export async function exportSbom(app: ProjectCommandsDeps, item?: CommandItem, options: SbomOptions = {}): Promise<SbomExportRecord | undefined> {
  const target = options.saveTo;
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  const request = await sbomRequest(project, options);
  if (!request) return undefined;
  const started = await app.sbom.start(project.name, request);
  // `follow: false` (automation): only start the job; it is followed from the history or after a reload.
  if (options.follow === false) return started;
  return finish(app, await followWithProgress(app, started), target);
}

function followWithProgress(app: ProjectCommandsDeps, record: SbomExportRecord): Thenable<SbomExportRecord> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AppSec: exporting the SBOM of ${record.projectName}@${record.ref}`, cancellable: true },
    (progress, cancel) => withAbortSignal(cancel, (signal) =>
      app.sbom.follow(record.taskToken, signal, (s) => progress.report({ message: s.state.replace('SBOM_EXPORT_STATUS_', '').toLowerCase().replace(/_/g, ' ') }))),
  );
}

/** The end of a job: a completed one is saved and opened, a failed one says the platform's reason. */
async function finish(app: ProjectCommandsDeps, record: SbomExportRecord, target: vscode.Uri | undefined): Promise<SbomExportRecord> {
  if (record.state === 'SBOM_EXPORT_STATUS_FAILED') {
    void vscode.window.showErrorMessage(`AppSec: the SBOM export of ${record.projectName}@${record.ref} failed: ${record.errorMessage ?? 'the platform gave no reason'}.`);
    return record;
  }
  if (record.state !== 'SBOM_EXPORT_STATUS_COMPLETED') return record;
  const saved = await saveDocument(app, record, target);
  return saved ?? record;
}

/** Fetches, checks, writes and opens the document; undefined when the user dismissed the dialog. */
async function saveDocument(app: ProjectCommandsDeps, record: SbomExportRecord, target: vscode.Uri | undefined): Promise<SbomExportRecord | undefined> {
  const { text, fileName } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AppSec: downloading the SBOM of ${record.projectName}`, cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, (signal) => app.sbom.document(record.taskToken, signal)),
  );
  const uri = await saveTarget(target, {
    title: `AppSec: save the SBOM of ${record.projectName}@${record.ref}`,
    fileName,
    filters: fileName.endsWith('.xml') ? { 'CycloneDX XML': ['xml'] } : { 'CycloneDX JSON': ['json'] },
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  app.sbom.saved(record.taskToken, uri.fsPath);
  await vscode.window.showTextDocument(uri, { preview: true });
  return app.sbom.history.find((r) => r.taskToken === record.taskToken);
}

/**
 * After a reload: follows again the jobs that were still running, in the status bar's progress
 * (not a notification per job); a job that completes offers to save its document.
 */
export function resumeSbomExports(app: ProjectCommandsDeps): void {
  for (const record of app.sbom.pending) {
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `AppSec: SBOM of ${record.projectName}` },
      () => app.sbom.follow(record.taskToken),
    ).then((done) => offerSave(app, done), (e: unknown) => {
      void vscode.window.showWarningMessage(`AppSec: the SBOM export of ${record.projectName} could not be followed: ${e instanceof Error ? e.message : String(e)}`);
    });
  }
}

function offerSave(app: ProjectCommandsDeps, record: SbomExportRecord): void {
  if (record.state === 'SBOM_EXPORT_STATUS_COMPLETED') {
    void vscode.window.showInformationMessage(`AppSec: the SBOM of ${record.projectName}@${record.ref} is ready.`, 'Save to File…')
      .then((picked) => (picked ? saveDocument(app, record, undefined) : undefined))
      .then(undefined, (e: unknown) => vscode.window.showErrorMessage(`AppSec: the SBOM could not be saved: ${e instanceof Error ? e.message : String(e)}`));
  } else void finish(app, record, undefined);
}

/** How a job reads in the history: its state, and where its document went. */
export function describeRecord(record: SbomExportRecord): string {
  const state = record.stalled ? 'still running (checking stopped)' : record.state.replace('SBOM_EXPORT_STATUS_', '').toLowerCase().replace(/_/g, ' ');
  const saved = record.savedTo ? ` · saved to ${record.savedTo}` : '';
  const failed = record.state === 'SBOM_EXPORT_STATUS_FAILED' && record.errorMessage ? `: ${record.errorMessage}` : '';
  return `${state}${failed}${saved} · ${new Date(record.startedAt).toLocaleString()}`;
}

/** "CycloneDX JSON 1.6" rather than the API's enumeration. */
export function formatLabel(format: string): string {
  return FORMATS.reduce((text, f) => text.replace(f.value, f.label), format);
}

/** The history, newest first: save a finished document again, check a job again, copy its token. */
export async function showSbomExports(app: ProjectCommandsDeps): Promise<void> {
  const history = app.sbom.history;
  if (history.length === 0) {
    void vscode.window.showInformationMessage('AppSec: no SBOM exports yet. Start one with "AppSec: Export SBOM…" on a project.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    history.map((r) => ({ label: `${r.projectName}@${r.ref}`, description: describeRecord(r), detail: `${formatLabel(r.format)} · task token ${r.taskToken}`, record: r })),
    { title: 'AppSec: SBOM exports (newest first)', placeHolder: 'Pick one to save its document, check it again or copy its task token', matchOnDescription: true },
  );
  if (!picked) return;
  const { record } = picked;
  const actions = [
    ...(record.state === 'SBOM_EXPORT_STATUS_COMPLETED' && record.downloadUrl ? [{ label: '$(save) Save to File…', id: 'save' }] : []),
    ...(!isFinal(record.state) ? [{ label: '$(refresh) Check Again', id: 'check' }] : []),
    { label: '$(copy) Copy Task Token', id: 'copy' },
  ];
  const action = await vscode.window.showQuickPick(actions, { title: `AppSec: SBOM of ${record.projectName}@${record.ref}` });
  if (action?.id === 'copy') await app.clipboard.writeText(record.taskToken);
  if (action?.id === 'save') await saveDocument(app, record, undefined);
  if (action?.id === 'check') await finish(app, await followWithProgress(app, record), undefined);
}
