/**
 * Whether an edit the extension made (a suggested fix) still waits to be saved, said from the
 * document's real state: a file auto-save writes, or one already written, is not "not saved yet".
 */
import * as vscode from 'vscode';

export type FixSaving = 'saved' | 'autoSave' | 'unsaved';

export function fixSaving(document: vscode.TextDocument): FixSaving {
  if (!document.isDirty) return 'saved';
  const autoSave = vscode.workspace.getConfiguration('files', document.uri).get<string>('autoSave', 'off');
  return autoSave === 'off' ? 'unsaved' : 'autoSave';
}
