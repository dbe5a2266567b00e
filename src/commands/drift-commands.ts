/** Fetching the commit findings were scanned at, so they can be placed on today's code. */
import * as vscode from 'vscode';
import { showInformation, showWarning, withProgress } from '../host/notify';
import { t } from '../core/l10n';
import type { ScannedCommit } from './command-arguments';
import type { CommandDeps } from './command-deps';

export type DriftCommandsDeps = Pick<CommandDeps, 'places'>;

/**
 * Fetches the scanned commits this copy lacks (all of them, or the one `{ folder, commit }`
 * names) from the folder's remotes, with progress, and maps the findings again. Resolves to
 * true when every one arrived.
 */
export async function fetchScannedCommit(app: DriftCommandsDeps, wanted: ScannedCommit = {}): Promise<boolean> {
  const { drift } = app.places;
  const missing = drift
    .missingCommits()
    .filter((m) => (wanted.folder === undefined || m.folder.uri.toString() === wanted.folder) && (wanted.commit === undefined || m.commit === wanted.commit));
  if (missing.length === 0) {
    void showInformation(t('AppSec: this copy already has every commit its findings were scanned at.'));
    return true;
  }
  let all = true;
  await withProgress({ location: vscode.ProgressLocation.Notification, title: t('AppSec: fetching the scanned commit') }, async (progress) => {
    for (const { folder, commit } of missing) {
      progress.report({ message: t('{0} into {1}', commit.slice(0, 7), folder.name) });
      if (await drift.fetchCommit(folder, commit)) {
        drift.retry(folder, commit);
        continue;
      }
      all = false;
      void showWarning(
        t(
          'AppSec: could not fetch commit {0} into {1} from its remotes (the branch may be gone, or the remote needs you to sign in). Its findings stay at their scanned lines.',
          commit.slice(0, 7),
          folder.name,
        ),
      );
    }
  });
  return all;
}
