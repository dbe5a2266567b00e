/**
 * Export SARIF: the findings shown for a project (its branch, the current filters, every kind)
 * written as a SARIF 2.1.0 log, each at its place in today's code when the code moved.
 */
import * as vscode from 'vscode';
import { showInformation, showWarning, withProgress } from '../host/notify';
import { formatCount, t } from '../core/l10n';
import { toSarifLog } from '../core/export/sarif';
import { ISSUE_TYPES } from '../core/model/types';
import { loadEachKind } from '../core/services/each-kind';
import { failedKinds, productList } from '../core/services/kind-gaps';
import { askedPlace, fallbackPlace, placeAt, placeOf, type AskingPlaceDeps, type Place } from '../core/services/place';
import { withAbortSignal } from '../host/cancellation';
import { settings } from '../host/settings';
import type { SarifExport, SarifOptions } from './command-arguments';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { resolveProject } from './project-commands';
import { saveTarget } from './save-target';
import { oneOffSlot } from '../core/services/slot-ids';

export type SarifCommandDeps = Pick<
  CommandDeps,
  'projects' | 'repos' | 'viewState' | 'findings' | 'session' | 'places' | 'baselines' | 'scans' | 'findingUrl' | 'version' | 'sbom' | 'clipboard'
>;

/** `exportSarif(project?, { ref?, saveTo? })` (options checked by SARIF_OPTIONS): resolves with the file written and the count, after writing. */
export async function exportSarif(app: SarifCommandDeps, item?: CommandItem, options: SarifOptions = {}): Promise<SarifExport | undefined> {
  const target = options.saveTo;
  const deployment = app.session.deployment;
  if (!deployment) throw new Error(t('Sign in first: the findings to export come from the platform.'));
  const project = await resolveProject(app, item);
  if (!project) return undefined;
  // The place Problems and the tree read: the ref chosen or checked out, and the primary branch's
  // findings instead when that ref was never scanned, as Problems shows them.
  const at = placeAt(project, options.ref ?? app.viewState.refOverride(project.name), app.repos.repos());
  const placeDeps: AskingPlaceDeps = {
    deploymentSlug: deployment.slug,
    selection: () => app.viewState.selection(),
    scans: app.scans,
    baselines: app.baselines,
  };
  const { findings, missing, place } = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: collecting the findings of {0} for SARIF', project.name), cancellable: true },
    (_p, cancel) =>
      withAbortSignal(cancel, async (signal) => {
        const asked = placeOf(placeDeps, at, { seen: 0 });
        // "Only new on this branch" needs the primary branch's findings to compare with, as the tree loads them.
        if (asked.primary !== undefined && app.viewState.selection().newOnBranch) await app.baselines.ensure(deployment.slug, project.name);
        // The queries the tree sends: one the tree or Problems already shows is answered from memory.
        // Each kind stands alone: one the deployment lacks is empty, one that fails is said below.
        const load = (shown: Place) =>
          loadEachKind(
            app.findings,
            ISSUE_TYPES,
            (issueType) => oneOffSlot('sarif', issueType),
            (issueType) => shown.queries[issueType],
            { signal, oneOff: true },
          );
        const own = await load(placeOf(placeDeps, at, { seen: 0 }));
        const seen = own.results.reduce((n, r) => n + r.findings.length, 0);
        const checked = await askedPlace(placeDeps, at, asked, { seen, signal });
        const instead = fallbackPlace(placeDeps, at, checked);
        const loaded = instead ? await load(instead) : own;
        const shown = instead ?? checked;
        // What the tree keeps of them: "only new on this branch" included, once the primary branch is compared.
        const keep = shown.keep?.keep;
        return {
          findings: loaded.results.flatMap((r) => (keep ? r.findings.filter(keep) : [...r.findings])),
          missing: failedKinds(loaded.gaps),
          place: { shown, asked: checked },
        };
      }),
  );
  const ref = place.shown.ref;
  const withoutScan = place.asked.fallback !== undefined ? place.asked.ref : undefined;
  const log = toSarifLog({
    findings,
    findingUrl: (f) => app.findingUrl(f),
    toolVersion: app.version,
    projectName: project.name,
    ref,
    ...(withoutScan ? { branchWithoutScan: withoutScan } : {}),
    ...(project.url ? { repositoryUri: project.url } : {}),
    placeOf: (f) => app.places.place(f),
    severityMapping: settings.severityMapping(),
    levels: { unreachableLevel: settings.unreachableAsInformation() ? 'information' : undefined },
  });
  const fileName = `${project.name.split('/').pop() ?? 'findings'}-${(ref ?? 'findings').replace(/[^\w.-]+/g, '-')}.sarif`;
  const uri = await saveTarget(target, {
    title: t('AppSec: save the findings of {0} as SARIF', project.name),
    fileName,
    filters: { [t('SARIF log')]: ['sarif', 'json'] },
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(log, null, 2), 'utf8'));
  const without = [
    withoutScan ? ` ${t('{0} has no scan: these are the findings of {1}, as Problems shows them.', withoutScan, ref ?? '')}` : '',
    missing.length > 0 ? ` ${t('The {0} findings could not be loaded and are not in it.', productList(missing))}` : '',
  ].join('');
  if (!target || missing.length > 0 || withoutScan) {
    const say = missing.length > 0 ? showWarning : showInformation;
    const written =
      findings.length === 1
        ? t('AppSec: 1 finding of {0} written as SARIF to {1}.', project.name, uri.fsPath)
        : t('AppSec: {0} findings of {1} written as SARIF to {2}.', formatCount(findings.length), project.name, uri.fsPath);
    void say(`${written}${without}`, t('Open')).then((p) => (p ? vscode.window.showTextDocument(uri) : undefined));
  }
  return {
    uri,
    results: findings.length,
    ...(ref ? { ref } : {}),
    ...(withoutScan ? { branchWithoutScan: withoutScan } : {}),
    ...(missing.length > 0 ? { missing } : {}),
  };
}
