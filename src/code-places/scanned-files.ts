/**
 * A file as it is at a scanned commit, read from git and shown read-only: how a finding whose
 * code is on a branch this checkout does not include (not here yet) is opened in the editor,
 * rather than on the code host's site.
 */
import * as vscode from 'vscode';
import type { DriftTracker } from '../host/drift-tracker';

const SCHEME = 'appsecFindings-scanned';

/** Registers the read-only documents of `scannedFileUri`. */
export function registerScannedFiles(drift: DriftTracker): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
    async provideTextDocumentContent(uri) {
      const { folder, commit } = JSON.parse(uri.query) as { folder: string; commit: string };
      const workspaceFolder = vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(folder));
      const relativePath = uri.path.replace(/^\//, '');
      const text = workspaceFolder ? await drift.textAt(workspaceFolder, commit, relativePath) : undefined;
      if (text === undefined) throw new Error(`${relativePath} is not in commit ${commit.slice(0, 7)} of this repository`);
      return text;
    },
  });
}

/**
 * The file of a folder at a commit. The path is the file's own, so the editor names the tab by it
 * and picks its language; the folder and commit ride in the query.
 */
export function scannedFileUri(folder: vscode.WorkspaceFolder, commit: string, relativePath: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/${relativePath}`, query: JSON.stringify({ folder: folder.uri.toString(), commit }) });
}
