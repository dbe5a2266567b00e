/**
 * A hover line on the extension's own diagnostics that says how their place relates to the
 * scan: moved onto today's code, the finding's own code changed since the scan (this is the
 * closest place), or not mapped (the scanned commit is not here, or the copy was not compared)
 * while the copy may differ; never a precision we do not have.
 */
import * as vscode from 'vscode';
import { driftHint } from '../core/workspace/drift-hint';
import { FindingDiagnostic } from '../diagnostics/finding-diagnostic';
import type { DriftTracker } from '../host/drift-tracker';
import type { WorkspaceRepos } from '../host/workspace-repos';

export function registerDriftHover(collection: vscode.DiagnosticCollection, repos: WorkspaceRepos, drift: DriftTracker): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ scheme: 'file' }, {
    provideHover(document, position) {
      const here = (collection.get(document.uri) ?? []).filter((d): d is FindingDiagnostic => d instanceof FindingDiagnostic && d.range.contains(position));
      const first = here[0];
      if (!first) return undefined;
      const folder = repos.repos().find((r) => document.uri.toString().startsWith(`${r.folder.uri.toString()}/`));
      const commit = first.drift?.commit;
      const mapped = folder && commit && drift.state(folder.folder, commit) === 'mapped';
      const hint = mapped ? mappedHint(first, commit) : driftHint({ scanned: commit, head: folder?.commit, dirty: document.isDirty });
      if (!hint) return undefined;
      const text = new vscode.MarkdownString(`$(history) AppSec: ${hint}`, true);
      text.isTrusted = false;
      return new vscode.Hover(text, first.range);
    },
  });
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
