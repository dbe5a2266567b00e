/** Fetching the commit findings were scanned at, so they can be placed on today's code. */
import * as vscode from 'vscode';
import type { App } from '../app';

export type DriftCommandsDeps = Pick<App, 'places'>;

/**
 * Fetches the scanned commits this copy lacks (all of them, or the one `{ folder, commit }`
 * names) from the folder's remotes, with progress, and maps the findings again. Resolves to
 * true when every one arrived.
 */
export async function fetchScannedCommit(app: DriftCommandsDeps, arg: unknown): Promise<boolean> {
  const wanted = typeof arg === 'object' && arg !== null ? (arg as { folder?: unknown; commit?: unknown }) : {};
  const { drift } = app.places;
  const missing = drift.missingCommits().filter((m) =>
    (typeof wanted.folder !== 'string' || m.folder.uri.toString() === wanted.folder) && (typeof wanted.commit !== 'string' || m.commit === wanted.commit));
  if (missing.length === 0) {
    void vscode.window.showInformationMessage('AppSec: this copy already has every commit its findings were scanned at.');
    return true;
  }
  let all = true;
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'AppSec: fetching the scanned commit' }, async (progress) => {
    for (const { folder, commit } of missing) {
      progress.report({ message: `${commit.slice(0, 7)} into ${folder.name}` });
      if (await drift.fetchCommit(folder, commit)) {
        drift.retry(folder, commit);
        continue;
      }
      all = false;
      void vscode.window.showWarningMessage(`AppSec: could not fetch commit ${commit.slice(0, 7)} into ${folder.name} from its remotes (the branch may be gone, or the remote needs you to sign in). Its findings stay at their scanned lines.`);
    }
  });
  return all;
}
