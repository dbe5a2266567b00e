/**
 * The edit that applies the platform assistant's suggested fix to a finding's lines. It applies
 * at once: a user who chose the fix expects it made, and the editor's Undo takes it back (a
 * preview would show the edit unticked, so Apply there would change nothing). Used by the quick
 * fix and the details panel alike, so it lives below both.
 */
import * as vscode from 'vscode';

/** The finding's whole lines replaced by the suggested fix (the assistant writes whole lines). */
export function autofixEdit(document: vscode.TextDocument, range: vscode.Range, fixCode: string): vscode.WorkspaceEdit {
  const lines = new vscode.Range(range.start.line, 0, range.end.line, document.lineAt(range.end.line).text.length);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, lines, fixCode.replace(/\r?\n$/, ''));
  return edit;
}
