/** A workspace file's text today: an open document's, unsaved edits included, else the file on disk. */
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';

/** The open document of a folder's file, if any (it may be closed but still listed). */
export function openDocument(folder: vscode.WorkspaceFolder, relativePath: string): vscode.TextDocument | undefined {
  const uri = vscode.Uri.joinPath(folder.uri, relativePath).toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
}

/**
 * Unsaved edits count; otherwise the file on disk does (a closed editor's document can linger
 * in `textDocuments` with text older than the disk's).
 */
export async function textToday(folder: vscode.WorkspaceFolder, relativePath: string): Promise<string | undefined> {
  const document = openDocument(folder, relativePath);
  return document?.isDirty ? document.getText() : diskText(folder, relativePath);
}

/** The file as saved; undefined when it cannot be read. */
export async function diskText(folder: vscode.WorkspaceFolder, relativePath: string): Promise<string | undefined> {
  try {
    return await readFile(vscode.Uri.joinPath(folder.uri, relativePath).fsPath, 'utf8');
  } catch {
    return undefined;
  }
}
