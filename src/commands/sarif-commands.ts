/**
 * Export SARIF: the findings shown for a project (its branch, the current filters, every kind)
 * written as a SARIF 2.1.0 log, each at its place in today's code when the code moved.
 */
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { toSarifLog } from '../core/export/sarif';
import { refToShow } from '../core/model/refs';
import { ISSUE_TYPES, type Finding, type SourceRange } from '../core/model/types';
import { loadEachKind } from '../core/services/each-kind';
import type { FindingKind } from '../core/services/kind-availability';
import { failedKinds, productList } from '../core/services/kind-gaps';
import { localFilterOf, toQueryFilters } from '../core/services/filters';
import { withAbortSignal } from '../host/cancellation';
import type { App } from '../app';
import { resolveProject } from './project-commands';

export type SarifCommandDeps = Pick<App, 'projects' | 'repos' | 'viewState' | 'findings' | 'session' | 'places' | 'findingUrl' | 'version' | 'sbom' | 'clipboard'>;

interface SarifOptions { ref?: string; saveTo?: vscode.Uri | string }

function saveTarget(value: unknown): vscode.Uri | undefined {
  if (value === undefined) return undefined;
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'string' && path.isAbsolute(value)) return vscode.Uri.file(value);
  throw new Error(`saveTo must be an absolute path or a file URI (got ${JSON.stringify(value)}); nothing was exported.`);
}

/** `exportSarif(project?, { ref?, saveTo? })`: resolves with the file written and the count, after writing. */
export async function exportSarif(app: SarifCommandDeps, arg?: unknown, optionsArg?: unknown): Promise<{ uri: vscode.Uri; results: number; missing?: readonly FindingKind[] } | undefined> {
  const options = (typeof optionsArg === 'object' && optionsArg !== null ? optionsArg : {}) as SarifOptions;
  const target = saveTarget(options.saveTo);
  if (options.ref !== undefined && (typeof options.ref !== 'string' || /\s/.test(options.ref))) throw new Error('ref must be a branch name without spaces.');
  const deployment = app.session.deployment;
  if (!deployment) throw new Error('Sign in first: the findings to export come from the platform.');
  const project = await resolveProject(app, arg);
  if (!project) return undefined;
  const ref = options.ref ?? refToShow(app.viewState.refOverride(project.name), project).ref;
  const selection = app.viewState.selection();
  const { findings, missing } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `AppSec: collecting the findings of ${project.name} for SARIF`, cancellable: true },
    (_p, cancel) => withAbortSignal(cancel, async (signal) => {
      // The queries the tree sends: one the tree or Problems already shows is answered from memory.
      // Each kind stands alone: one the deployment lacks is empty, one that fails is said below.
      const loaded = await loadEachKind(app.findings, ISSUE_TYPES, (issueType) => `sarif:${issueType}`, (issueType) => ({
        deploymentSlug: deployment.slug, issueType, filters: toQueryFilters(selection, issueType, { repo: project.name, ref, dedup: true }),
      }), signal);
      const keep = localFilterOf(selection);
      return { findings: loaded.results.flatMap((r) => (keep ? r.findings.filter(keep) : [...r.findings])), missing: failedKinds(loaded.gaps) };
    }),
  );
  const log = toSarifLog({
    findings, findingUrl: (f) => app.findingUrl(f), toolVersion: app.version, projectName: project.name, ref,
    ...(project.url ? { repositoryUri: project.url } : {}),
    placeOf: (f) => placeToday(app, f),
  });
  const fileName = `${project.name.split('/').pop() ?? 'findings'}-${(ref ?? 'findings').replace(/[^\w.-]+/g, '-')}.sarif`;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uri = target ?? await vscode.window.showSaveDialog({
    title: `AppSec: save the findings of ${project.name} as SARIF`,
    defaultUri: folder ? vscode.Uri.joinPath(folder, fileName) : vscode.Uri.file(path.join(homedir(), fileName)),
    filters: { 'SARIF log': ['sarif', 'json'] },
  });
  if (!uri) return undefined;
  await vscode.workspace.fs.writeFile(uri, Buffer.from(JSON.stringify(log, null, 2), 'utf8'));
  const without = missing.length > 0 ? ` The ${productList(missing)} findings could not be loaded and are not in it.` : '';
  if (!target || missing.length > 0) {
    const say = missing.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void say(`AppSec: ${findings.length} finding${findings.length === 1 ? '' : 's'} of ${project.name} written as SARIF.${without}`, 'Open').then((p) => (p ? vscode.window.showTextDocument(uri) : undefined));
  }
  return { uri, results: findings.length, ...(missing.length > 0 ? { missing } : {}) };
}

/** Where the finding is in today's checkout (drift mapping), else where it was scanned. */
function placeToday(app: SarifCommandDeps, finding: Finding): SourceRange | undefined {
  const today = app.places.place(finding);
  if (today && today !== 'deleted' && today.kind !== 'scanned') {
    const r = today.range;
    return { filePath: today.relativePath, line: r.startLine + 1, column: r.startCharacter + 1, endLine: r.endLine + 1, endColumn: r.endCharacter + 1 };
  }
  return finding.location ?? finding.sca?.usage;
}
