/**
 * The finding's code as the Finding Details panel reaches it in the editor: its lines today (for
 * the fix comparison), the suggested fix applied with the same edit and check as the quick fix,
 * and the editor group code opens in, beside the panel rather than over it (the commands that
 * open a finding's code use it too). The panel only says what came of it.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import { autofixEdit } from '../code-places/autofix-edit';
import type { WorkspacePlace } from '../code-places/finding-places';
import { fixSaving } from '../host/fix-saving';

/** The Finding Details panel's webview type: the panel is opened with it, and its tabs are told by it. */
export const DETAILS_VIEW_TYPE = 'appsecFindings.details';

/** The same edit as the quick fix, after the same check (refused where the code changed). */
export async function applySuggestedFix(
  code: string | undefined,
  place: WorkspacePlace | undefined,
  say: (kind: 'info' | 'error', text: string) => void,
): Promise<void> {
  if (!code || !place || place.kind === 'deleted')
    return say('error', t("There is no suggested fix to apply here, or the finding's file is not in this workspace."));
  if (place.kind === 'changed') return say('error', t('The code here changed since the scan: the suggested fix was written for the scanned code.'));
  const document = await vscode.workspace.openTextDocument(place.uri);
  const range = new vscode.Range(place.range.startLine, 0, place.range.endLine, 0);
  const applied = await vscode.workspace.applyEdit(autofixEdit(document, range, code));
  if (applied)
    await vscode.window.showTextDocument(document, { viewColumn: codeColumn(), selection: new vscode.Range(range.start, range.start), preserveFocus: true });
  if (!applied) return say('error', t('The fix was not applied.'));
  const saving = fixSaving(document);
  say(
    'info',
    saving === 'saved'
      ? t('Applied the suggested fix beside this panel: the file is saved, and Undo in the editor takes it back.')
      : saving === 'autoSave'
        ? t('Applied the suggested fix beside this panel: auto-save saves the file, and Undo in the editor takes it back.')
        : t('Applied the suggested fix beside this panel: it is not saved yet, and Undo in the editor takes it back.'),
  );
}

/** The code at a place today (its first 41 lines at most); undefined when its file cannot be read. */
export async function readLines(place: Exclude<WorkspacePlace, { kind: 'deleted' }>): Promise<string | undefined> {
  try {
    const document = await vscode.workspace.openTextDocument(place.uri);
    const last = Math.min(place.range.endLine, document.lineCount - 1, place.range.startLine + 40);
    return document.getText(new vscode.Range(place.range.startLine, 0, last, document.lineAt(last).text.length));
  } catch {
    return undefined;
  }
}

/**
 * The editor group a finding's code opens in: the active one, unless it holds the Finding details
 * (the tree's focus leaves that group active after a click in the panel); then the group beside
 * that holds no details, so the code and its details stay side by side instead of stacking.
 */
export function codeColumn(): vscode.ViewColumn | undefined {
  const holdsDetails = (group: vscode.TabGroup): boolean =>
    group.tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(DETAILS_VIEW_TYPE));
  const groups = vscode.window.tabGroups;
  if (!holdsDetails(groups.activeTabGroup)) return undefined;
  return groups.all.find((group) => !holdsDetails(group))?.viewColumn ?? vscode.ViewColumn.Beside;
}
