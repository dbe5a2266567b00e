/**
 * SBOM exports end as a file in the project: start the job, follow it with a cancellable
 * progress, then save the checked document where the user picks (or where automation says) and
 * open it. Jobs still running when the window closed are followed again after a reload.
 */
import { basename } from 'node:path';
import { formatMoment, t } from '../core/l10n';
import * as vscode from 'vscode';
import { showError, showInformation, showInput, showWarning, withProgress } from '../host/notify';
import type { Project } from '../core/model/types';
import type { SbomExportRequest, SbomOutputFormat } from '../core/model/sbom';
import { CYCLONEDX_VERSIONS, SBOM_COMPONENT_TYPES } from '../core/model/sbom';
import { isFinal, type SbomExportRecord } from '../core/services/sbom-service';
import { withAbortSignal } from '../host/cancellation';
import { settings } from '../host/settings';
import type { SbomOptions } from './command-arguments';
import type { CommandItem } from './command-item';
import { resolveProject, type ProjectCommandsDeps } from './project-commands';
import { askedPlace, placeAt, placeOf } from '../core/services/place';
import { saveTarget } from './save-target';
import { showForReadingOnly } from '../editor/reading-documents';
import { inertIcons } from '../core/model/untrusted-text';

/** The formats' names, as CycloneDX names them (product names, never translated). */
const CYCLONEDX_JSON = 'CycloneDX JSON';
const CYCLONEDX_XML = 'CycloneDX XML';

/** The formats offered, in the display language (built when asked: a module constant is read before the translator is set). */
const formats = (): { label: string; detail: string; value: SbomOutputFormat }[] => [
  { label: CYCLONEDX_JSON, detail: t('A JSON document (.cdx.json)'), value: 'SBOM_OUTPUT_FORMAT_JSON' },
  { label: CYCLONEDX_XML, detail: t('An XML document (.cdx.xml)'), value: 'SBOM_OUTPUT_FORMAT_CYCLONEDX' },
];

/** What an export asks for when nobody says otherwise: the newest CycloneDX, as JSON, of an application. */
const SBOM_DEFAULTS = {
  outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
  cycloneDxVersion: CYCLONEDX_VERSIONS[CYCLONEDX_VERSIONS.length - 1],
  componentType: 'APPLICATION',
} as const;

/** The ref an export takes when none is given, and the branch it stands in for when that one was never scanned. */
interface SbomRef {
  readonly ref: string | undefined;
  readonly withoutScan?: string;
}

/**
 * The place's ref, as Problems and the tree read it (chosen, else checked out, else the primary
 * branch); its primary branch when that ref was never scanned, since the platform holds no
 * dependencies of a ref it never scanned.
 */
async function placeRef(app: ProjectCommandsDeps, deploymentSlug: string, project: Project): Promise<SbomRef> {
  const at = placeAt(project, app.viewState.refOverride(project.name), app.repos.repos());
  const deps = { deploymentSlug, selection: () => app.viewState.selection(), scans: app.scans };
  const place = await askedPlace(deps, at, placeOf(deps, at, { seen: 0 }), { seen: 0 });
  return place.fallback === undefined ? { ref: place.ref } : { ref: place.fallback, withoutScan: place.ref };
}

/**
 * What to export: what the options object gives, the rest from one choice between the defaults
 * and "Options…" (each choice in turn, the defaults picked); undefined when the user dismissed it.
 */
async function sbomRequest(project: Project, options: SbomOptions, place: () => Promise<SbomRef>): Promise<SbomExportRequest | undefined> {
  const supplier = settings.sbomSupplier();
  const base = { repositoryId: project.id, ...(supplier ? { supplier } : {}) };
  const { ref, withoutScan } = options.ref === undefined ? await place() : { ref: options.ref };
  // Automation that gives any option is asked nothing: the defaults fill the rest.
  if (Object.values(options).some((value) => value !== undefined)) {
    if (ref === undefined) throw new Error(t('Name the ref to export: {0} has no primary branch and none is checked out.', project.name));
    return {
      ...base,
      ref,
      outputFormat: options.outputFormat ?? SBOM_DEFAULTS.outputFormat,
      cycloneDxVersion: options.cycloneDxVersion ?? SBOM_DEFAULTS.cycloneDxVersion,
      componentType: options.componentType ?? SBOM_DEFAULTS.componentType,
    };
  }
  // Without a ref to propose, the options are asked, the ref first.
  if (ref === undefined) return askEachOption(base, '');
  const format = formats().find((f) => f.value === SBOM_DEFAULTS.outputFormat)?.label ?? CYCLONEDX_JSON;
  const described = t('{0} {1}, an application', format, SBOM_DEFAULTS.cycloneDxVersion);
  const choice = await vscode.window.showQuickPick(
    [
      {
        label: `$(export) ${t('Export {0}', ref)}`,
        description: withoutScan ? t('{0} · {1} has no scan, so its primary branch', described, withoutScan) : described,
        options: false,
      },
      { label: `$(settings-gear) ${t('Options…')}`, description: t('another branch, format, CycloneDX version or component type'), options: true },
    ],
    { title: t('AppSec: export the SBOM of {0}', project.name) },
  );
  if (!choice) return undefined;
  if (!choice.options) return { ...base, ref, ...SBOM_DEFAULTS };
  return askEachOption(base, ref);
}

async function askEachOption(base: Pick<SbomExportRequest, 'repositoryId' | 'supplier'>, shown: string): Promise<SbomExportRequest | undefined> {
  const ref = await showInput({
    title: t('AppSec: SBOM export — branch or ref'),
    value: shown,
    prompt: t('The branch or ref whose dependencies to export'),
    validateInput: (v) => (v.trim() ? undefined : t('A ref is needed.')),
  });
  if (!ref) return undefined;
  const picked = <T extends { label: string }>(items: T[], title: string, isDefault: (item: T) => boolean): Thenable<T | undefined> =>
    vscode.window.showQuickPick(
      items.map((item) => ({ ...item, picked: isDefault(item), description: isDefault(item) ? t('default') : undefined })),
      { title: t('AppSec: SBOM export — {0}', title) },
    );
  const outputFormat = (await picked(formats(), t('format'), (f) => f.value === SBOM_DEFAULTS.outputFormat))?.value;
  if (!outputFormat) return undefined;
  const cycloneDxVersion = (
    await picked(
      [...CYCLONEDX_VERSIONS].reverse().map((v) => ({ label: v })),
      t('CycloneDX version'),
      (v) => v.label === SBOM_DEFAULTS.cycloneDxVersion,
    )
  )?.label as SbomExportRequest['cycloneDxVersion'] | undefined;
  if (!cycloneDxVersion) return undefined;
  const componentType = (
    await picked(
      SBOM_COMPONENT_TYPES.map((c) => ({ label: c.toLowerCase().replace(/_/g, ' '), value: c })),
      t('component type'),
      (c) => c.value === SBOM_DEFAULTS.componentType,
    )
  )?.value;
  if (!componentType) return undefined;
  return { ...base, ref: ref.trim(), outputFormat, cycloneDxVersion, componentType };
}

/**
 * `exportSbom(project?, options?)`: starts the job and follows it to its end; a completed job's
 * document is saved (to `saveTo`, else where the user picks) and opened. Resolves with the
 * job's record, after the file is written when there is one.
 */
export async function exportSbom(app: ProjectCommandsDeps, item?: CommandItem, options: SbomOptions = {}): Promise<SbomExportRecord | undefined> {
  const target = options.saveTo;
  const deployment = app.session.deployment;
  if (!deployment) throw new Error(t('Sign in first: the platform builds the SBOM from its scans.'));
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  const request = await sbomRequest(project, options, () => placeRef(app, deployment.slug, project));
  if (!request) return undefined;
  const started = await app.sbom.start(project.name, request);
  // `follow: false` (automation): only start the job; it is followed from the history or after a reload.
  if (options.follow === false) return started;
  return finish(app, await followWithProgress(app, started), target);
}

function followWithProgress(app: ProjectCommandsDeps, record: SbomExportRecord): Thenable<SbomExportRecord> {
  return withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: exporting the SBOM of {0}', `${record.projectName}@${record.ref}`), cancellable: true },
    (progress, cancel) =>
      withAbortSignal(cancel, (signal) => app.sbom.follow(record.taskToken, signal, (s) => progress.report({ message: exportState(s.state) }))),
  );
}

/** The end of a job: a completed one is saved and opened, a failed one says the platform's reason. */
async function finish(app: ProjectCommandsDeps, record: SbomExportRecord, target: vscode.Uri | undefined): Promise<SbomExportRecord> {
  if (record.state === 'SBOM_EXPORT_STATUS_FAILED') {
    void showError(
      t('AppSec: the SBOM export of {0} failed: {1}.', `${record.projectName}@${record.ref}`, record.errorMessage ?? t('the platform gave no reason')),
    );
    return record;
  }
  if (record.state !== 'SBOM_EXPORT_STATUS_COMPLETED') return record;
  const saved = await saveDocument(app, record, target);
  return saved ?? record;
}

/** Fetches, checks, writes and opens the document; undefined when the user dismissed the dialog. */
async function saveDocument(app: ProjectCommandsDeps, record: SbomExportRecord, target: vscode.Uri | undefined): Promise<SbomExportRecord | undefined> {
  const { text, fileName } = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: downloading the SBOM of {0}', record.projectName), cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, (signal) => app.sbom.document(record.taskToken, signal)),
  );
  const uri = await saveTarget(target, {
    title: t('AppSec: save the SBOM of {0}', `${record.projectName}@${record.ref}`),
    fileName,
    filters: fileName.endsWith('.xml') ? { [CYCLONEDX_XML]: ['xml'] } : { [CYCLONEDX_JSON]: ['json'] },
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  app.sbom.saved(record.taskToken, uri.fsPath);
  await showForReading(uri, text);
  return app.sbom.history.find((r) => r.taskToken === record.taskToken);
}

/**
 * Opens the saved document; a JSON document sent on one line is shown indented beside it,
 * read-only, so the file keeps the bytes as sent and nothing asks to be saved.
 */
async function showForReading(uri: vscode.Uri, text: string): Promise<void> {
  const indented = indentedJson(text);
  if (indented === undefined) {
    await vscode.window.showTextDocument(uri, { preview: true });
    return;
  }
  await showForReadingOnly(`${basename(uri.fsPath).replace(/\.json$/i, '')} (indented).json`, indented);
  void showInformation(t('AppSec: the SBOM is saved as the platform sent it, in {0}; shown here indented for reading.', uri.fsPath), t('Open the File')).then(
    (open) => (open ? vscode.window.showTextDocument(uri) : undefined),
  );
}

/** A JSON document on a line or two, indented; undefined for XML, or JSON already laid out. */
function indentedJson(text: string): string | undefined {
  if (text.split('\n', 3).length > 2) return undefined;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return undefined;
  }
}

/**
 * After a reload: follows again the jobs that were still running, in the status bar's progress
 * (not a notification per job); a job that completes offers to save its document.
 */
export function resumeSbomExports(app: ProjectCommandsDeps): void {
  for (const record of app.sbom.pending) {
    void withProgress({ location: vscode.ProgressLocation.Window, title: t('AppSec: SBOM of {0}', record.projectName) }, () =>
      app.sbom.follow(record.taskToken),
    ).then(
      (done) => offerSave(app, done),
      (e: unknown) => {
        void showWarning(t('AppSec: the SBOM export of {0} could not be followed: {1}', record.projectName, e instanceof Error ? e.message : String(e)));
      },
    );
  }
}

function offerSave(app: ProjectCommandsDeps, record: SbomExportRecord): void {
  if (record.state === 'SBOM_EXPORT_STATUS_COMPLETED') {
    void showInformation(t('AppSec: the SBOM of {0} is ready.', `${record.projectName}@${record.ref}`), t('Save to File…'))
      .then((picked) => (picked ? saveDocument(app, record, undefined) : undefined))
      .then(undefined, (e: unknown) => showError(t('AppSec: the SBOM could not be saved: {0}', e instanceof Error ? e.message : String(e))));
  } else void finish(app, record, undefined);
}

/** How a job reads in the history: its state, and where its document went. */
export function describeRecord(record: SbomExportRecord): string {
  const state = record.stalled ? t('still running (checking stopped)') : exportState(record.state);
  const saved = record.savedTo ? ` · ${t('saved to {0}', record.savedTo)}` : '';
  const failed = record.state === 'SBOM_EXPORT_STATUS_FAILED' && record.errorMessage ? `: ${record.errorMessage}` : '';
  return `${state}${failed}${saved} · ${formatMoment(new Date(record.startedAt))}`;
}

/** An export's state in words; a state added later reads as the platform names it. */
function exportState(state: string): string {
  switch (state) {
    case 'SBOM_EXPORT_STATUS_COMPLETED':
      return t('completed');
    case 'SBOM_EXPORT_STATUS_FAILED':
      return t('failed');
    case 'SBOM_EXPORT_STATUS_IN_PROGRESS':
      return t('in progress');
    default:
      return state.replace('SBOM_EXPORT_STATUS_', '').toLowerCase().replace(/_/g, ' ');
  }
}

/** "CycloneDX JSON 1.6" rather than the API's enumeration. */
export function formatLabel(format: string): string {
  return formats().reduce((text, f) => text.replace(f.value, f.label), format);
}

/** The history, newest first: save a finished document again, check a job again, copy its token. */
export async function showSbomExports(app: ProjectCommandsDeps): Promise<void> {
  const history = app.sbom.history;
  if (history.length === 0) {
    void showInformation(t('AppSec: no SBOM exports yet. Start one with "AppSec: Export SBOM…" on a project.'));
    return;
  }
  const picked = await vscode.window.showQuickPick(
    history.map((r) => ({
      label: inertIcons(`${r.projectName}@${r.ref}`),
      description: describeRecord(r),
      detail: `${formatLabel(r.format)} · ${t('task token {0}', r.taskToken)}`,
      record: r,
    })),
    {
      title: t('AppSec: SBOM exports (newest first)'),
      placeHolder: t('Pick one to save its document, check it again or copy its task token'),
      matchOnDescription: true,
    },
  );
  if (!picked) return;
  const { record } = picked;
  const actions = [
    ...(record.state === 'SBOM_EXPORT_STATUS_COMPLETED' && record.downloadUrl ? [{ label: `$(save) ${t('Save to File…')}`, id: 'save' }] : []),
    ...(!isFinal(record.state) ? [{ label: `$(refresh) ${t('Check Again')}`, id: 'check' }] : []),
    { label: `$(copy) ${t('Copy Task Token')}`, id: 'copy' },
  ];
  const action = await vscode.window.showQuickPick(actions, { title: t('AppSec: SBOM of {0}', `${record.projectName}@${record.ref}`) });
  if (action?.id === 'copy') await app.clipboard.writeText(record.taskToken);
  if (action?.id === 'save') await saveDocument(app, record, undefined);
  if (action?.id === 'check') await finish(app, await followWithProgress(app, record), undefined);
}
