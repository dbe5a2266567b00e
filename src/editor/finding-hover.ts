/**
 * Hover lines on the extension's own diagnostics (VS Code already shows their message):
 * - how the place relates to the scan: moved onto today's code, the finding's own code changed
 *   since the scan (this is the closest place), or not mapped (the scanned commit is not here, or
 *   the copy was not compared) while the copy may differ; never a precision we do not have;
 * - whether the finding is new on this branch (its primary branch does not have it).
 */
import * as vscode from 'vscode';
import { driftHint } from '../core/workspace/drift-hint';
import { FindingDiagnostic } from '../diagnostics/finding-diagnostic';
import type { BranchNovelty } from '../core/services/branch-baselines';
import type { DriftTracker } from '../host/drift-tracker';
import type { WorkspaceRepos } from '../host/workspace-repos';

export function registerFindingHover(collection: vscode.DiagnosticCollection, repos: WorkspaceRepos, drift: DriftTracker, novelty: BranchNovelty): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ scheme: 'file' }, {
    provideHover(document, position) {
      const here = (collection.get(document.uri) ?? []).filter((d): d is FindingDiagnostic => d instanceof FindingDiagnostic && d.range.contains(position));
      const first = here[0];
      if (!first) return undefined;
      const folder = repos.repos().find((r) => document.uri.toString().startsWith(`${r.folder.uri.toString()}/`));
      const commit = first.drift?.commit;
      const mapped = folder && commit && drift.state(folder.folder, commit) === 'mapped';
      const hint = mapped ? mappedHint(first, commit) : driftHint({ scanned: commit, head: folder?.commit, dirty: document.isDirty });
      const newHere = here.filter((d) => novelty.isNew(d.finding));
      const primary = folder && novelty.comparedWith(folder.projectName);
      const lines = [
        ...(newHere.length > 0 && primary ? [`$(git-branch) AppSec: ${newOnBranchText(newHere.length, here.length, primary)}`] : []),
        ...(hint ? [`$(history) AppSec: ${hint}`] : []),
      ];
      if (lines.length === 0) return undefined;
      // Text from the platform never reaches this markdown: only our sentences, branch and commit names.
      const text = new vscode.MarkdownString(lines.map(escapeMarkdown).join('\n\n'), true);
      text.isTrusted = false;
      return new vscode.Hover(text, first.range);
    },
  });
}

function newOnBranchText(newCount: number, total: number, primary: string): string {
  if (total === 1) return `New on this branch: ${primary} does not have this finding.`;
  return `${newCount} of the ${total} findings here are new on this branch: ${primary} does not have them.`;
}

/** Branch names may hold markdown characters (`feature/*_x`): shown as written. Icons stay. */
function escapeMarkdown(line: string): string {
  return line.replace(/[\\`*_{}[\]<>#+!|~]/g, (c) => `\\${c}`);
}

function mappedHint(diagnostic: FindingDiagnostic, commit: string): string | undefined {
  const short = commit.slice(0, 7);
  if (diagnostic.drift?.changed) return `The code of this finding changed since the scan of commit ${short}; it is shown at the closest place in today's code.`;
  const scannedLine = diagnostic.drift?.scannedLine;
  if (scannedLine !== undefined && scannedLine !== diagnostic.range.start.line) {
    return `Scanned at line ${scannedLine + 1} of commit ${short}; moved to where that code is now.`;
  }
  return undefined;
}
