/**
 * A hover line on the extension's own diagnostics when the code may have moved since the scan
 * (unsaved edits, or a checkout at another commit): the diagnostic still sits at the scanned
 * line, and the user should know that rather than trust it blindly.
 */
import * as vscode from 'vscode';
import { driftHint, scannedCommitOf } from '../core/workspace/drift-hint';
import { FindingDiagnostic } from '../diagnostics/finding-diagnostic';
import type { WorkspaceRepos } from '../host/workspace-repos';

export function registerDriftHover(collection: vscode.DiagnosticCollection, repos: WorkspaceRepos): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ scheme: 'file' }, {
    provideHover(document, position) {
      const here = (collection.get(document.uri) ?? []).filter((d): d is FindingDiagnostic => d instanceof FindingDiagnostic && d.range.contains(position));
      const first = here[0];
      if (!first) return undefined;
      const folder = repos.repos().find((r) => document.uri.toString().startsWith(`${r.folder.uri.toString()}/`));
      const hint = driftHint({ scanned: scannedCommitOf(first.finding.lineOfCodeUrl), head: folder?.commit, dirty: document.isDirty });
      if (!hint) return undefined;
      const text = new vscode.MarkdownString(`$(history) AppSec: ${hint}`, true);
      text.isTrusted = false;
      return new vscode.Hover(text, first.range);
    },
  });
}
