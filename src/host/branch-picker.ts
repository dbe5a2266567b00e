/**
 * The primary-branch picker: the default branch, then the branches the project has scans of
 * (busy while they load), the primary branch marked and active. A branch typed that the list
 * lacks can be chosen too.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import type { Project } from '../core/model/types';
import { branchRows, primaryName, type BranchRow } from './project-settings-text';
import { errorText } from './user-errors';

interface BranchItem extends vscode.QuickPickItem {
  readonly row?: BranchRow;
}

const itemOf = (row: BranchRow): BranchItem =>
  row.separator
    ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
    : { label: row.label, description: row.description, row, alwaysShow: row.label.startsWith('$(edit)') || row.label.startsWith('$(error)') };

/**
 * Resolves with the branch chosen (`branch` undefined: the default branch), or undefined when
 * dismissed. `scanned` lists the branches; a failure is said in the picker, which still offers
 * the default branch, the primary one and a branch typed.
 */
export function pickPrimaryBranch(
  project: Project,
  scanned: (signal: AbortSignal) => Promise<readonly string[]>,
): Promise<{ readonly branch: string | undefined } | undefined> {
  const pick = vscode.window.createQuickPick<BranchItem>();
  pick.title = t('AppSec: Set Primary Branch of {0}', project.name);
  pick.placeholder = t('Loading the branches with scans… (primary now: {0})', primaryName(project));
  pick.matchOnDescription = true;
  pick.busy = true;
  const controller = new AbortController();
  let branches: readonly string[] | undefined;
  let problem: string | undefined;
  const draw = (focusCurrent: boolean): void => {
    const rows = branchRows(project, branches, pick.value);
    const items = rows.map(itemOf);
    if (problem) items.push({ label: `$(warning) ${t('The branches with scans could not be listed: {0}', problem)}`, alwaysShow: true });
    pick.items = items;
    const current = items.find((item) => item.row?.current);
    if (focusCurrent && current) pick.activeItems = [current];
  };
  draw(true);
  void scanned(controller.signal)
    .then(
      (found) => {
        branches = found;
        pick.placeholder = t('The branch that "new on this branch" compares with (primary now: {0})', primaryName(project));
      },
      (error: unknown) => {
        problem = errorText(error);
        pick.placeholder = t('Choose the default branch, or type a branch (primary now: {0})', primaryName(project));
      },
    )
    .finally(() => {
      if (controller.signal.aborted) return;
      pick.busy = false;
      draw(pick.value === '');
    });
  return new Promise((resolve) => {
    let result: { readonly branch: string | undefined } | undefined;
    pick.onDidChangeValue(() => draw(false));
    pick.onDidAccept(() => {
      const choice = pick.selectedItems[0]?.row?.choice ?? pick.activeItems[0]?.row?.choice;
      if (!choice) return;
      result = choice;
      pick.hide();
    });
    pick.onDidHide(() => {
      controller.abort();
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}
