/**
 * Export SARIF: the findings shown for a project (its branch, the current filters, every kind)
 * written as a SARIF 2.1.0 log, each at its place in today's code when the code moved.
 */
import * as vscode from 'vscode';
import { showInformation, showWarning, withProgress } from '../host/notify';
import { formatCount, t } from '../core/l10n';
import { toSarifLog } from '../core/export/sarif';
import { refToShow } from '../core/model/refs';
import { ISSUE_TYPES } from '../core/model/types';
import { loadEachKind } from '../core/services/each-kind';
import { failedKinds, productList } from '../core/services/kind-gaps';
import { shownFilter, shownQuery } from '../core/services/shown-queries';
import { withAbortSignal } from '../host/cancellation';
import { settings } from '../host/settings';
import type { SarifExport, SarifOptions } from './command-arguments';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { resolveProject, treeRef } from './project-commands';
import { saveTarget } from './save-target';
import { oneOffSlot } from '../core/services/slot-ids';

export type SarifCommandDeps = Pick<CommandDeps, 'projects' | 'repos' | 'viewState' | 'findings' | 'session' | 'places' | 'baselines' | 'findingUrl' | 'version' | 'sbom' | 'clipboard'>;

/** `exportSarif(project?, { ref?, saveTo? })` (options checked by SARIF_OPTIONS): resolves with the file written and the count, after writing. */
export async function exportSarif(app: SarifCommandDeps, item?: CommandItem, options: SarifOptions = {}): Promise<SarifExport | undefined> {
  const target = options.saveTo;
  const deployment = app.session.deployment;
  if (!deployment) throw new Error(t('Sign in first: the findings to export come from the platform.'));
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  const ref = options.ref ?? treeRef(app, project);
  const selection = app.viewState.selection();
  // "Only new on this branch" needs the primary branch's findings to compare with, as the tree loads them.
  if (selection.newOnBranch && refToShow(ref, project).fallback) await app.baselines.ensure(deployment.slug, project.name);
  const { findings, missing } = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: collecting the findings of {0} for SARIF', project.name), cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, async (signal) => {
      // The queries the tree sends: one the tree or Problems already shows is answered from memory.
      // Each kind stands alone: one the deployment lacks is empty, one that fails is said below.
      const loaded = await loadEachKind(app.findings, ISSUE_TYPES, (issueType) => oneOffSlot('sarif', issueType), (issueType) => shownQuery(deployment.slug, selection, issueType, project.name, ref), { signal, oneOff: true });
      // What the tree keeps of them: "only new on this branch" included, once the primary branch is compared.
      const keep = shownFilter(selection, app.baselines);
      return { findings: loaded.results.flatMap((r) => (keep ? r.findings.filter(keep) : [...r.findings])), missing: failedKinds(loaded.gaps) };
    }),
  );
  const log = toSarifLog({
    findings, findingUrl: (f) => app.findingUrl(f), toolVersion: app.version, projectName: project.name, ref,
    ...(project.url ? { repositoryUri: project.url } : {}),
    placeOf: (f) => app.places.place(f),
    severityMapping: settings.severityMapping(),
    levels: { unreachableLevel: settings.unreachableAsInformation() ? 'information' : undefined },
  });
  const fileName = `${project.name.split('/').pop() ?? 'findings'}-${(ref ?? 'findings').replace(/[^\w.-]+/g, '-')}.sarif`;
  const uri = await saveTarget(target, { title: t('AppSec: save the findings of {0} as SARIF', project.name), fileName, filters: { [t('SARIF log')]: ['sarif', 'json'] } });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(log, null, 2), 'utf8'));
  const without = missing.length > 0 ? ` ${t('The {0} findings could not be loaded and are not in it.', productList(missing))}` : '';
  if (!target || missing.length > 0) {
    const say = missing.length > 0 ? showWarning : showInformation;
    const written = findings.length === 1 ? t('AppSec: 1 finding of {0} written as SARIF to {1}.', project.name, uri.fsPath)
      : t('AppSec: {0} findings of {1} written as SARIF to {2}.', formatCount(findings.length), project.name, uri.fsPath);
    void say(`${written}${without}`, t('Open')).then((p) => (p ? vscode.window.showTextDocument(uri) : undefined));
  }
  return { uri, results: findings.length, ...(missing.length > 0 ? { missing } : {}) };
}
