/**
 * When the commit findings were scanned at is not in the local repository (a shallow clone, a
 * branch not fetched), findings stay at their scanned lines. Say so once per folder and commit,
 * and offer to fetch it (`appsecFindings.fetchScannedCommit`).
 */
import * as vscode from 'vscode';
import { showInformation } from './notify';
import { t } from '../core/l10n';
import type { DriftTracker } from './drift-tracker';

export function offerToFetchScannedCommits(drift: DriftTracker): vscode.Disposable {
  const told = new Set<string>();
  return drift.onMissingCommit(({ folder, commit }) => {
    const key = `${folder.uri.toString()}|${commit}`;
    if (told.has(key)) return;
    told.add(key);
    void showInformation(
      t(
        'AppSec: the findings of {0} were scanned at commit {1}, which this copy does not have, so they are shown at their scanned lines and may be off where the code changed since.',
        folder.name,
        commit.slice(0, 7),
      ),
      t('Fetch Scanned Commit'),
    ).then((choice) => (choice ? vscode.commands.executeCommand('appsecFindings.fetchScannedCommit', { folder: folder.uri.toString(), commit }) : undefined));
  });
}
