/**
 * Where an export is written: the `saveTo` argument (automation: no dialog), else where the user
 * picks in a save dialog that starts in the workspace. One rule for the SBOM and SARIF exports.
 */
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invalid, schema, valid } from '../host/schema';

/** `saveTo`: an absolute path or a file URI; a relative path is refused (relative to what?). */
export const SAVE_TO = schema<vscode.Uri>((value) => {
  if (value instanceof vscode.Uri) return valid(value);
  if (typeof value === 'string' && path.isAbsolute(value)) return valid(vscode.Uri.file(value));
  return invalid(`saveTo must be an absolute path or a file URI (got ${JSON.stringify(value)}); nothing was exported.`);
});

export interface SaveDialog {
  readonly title: string;
  /** The file name offered, in the first workspace folder (else the home folder). */
  readonly fileName: string;
  readonly filters: Record<string, string[]>;
}

/** The given target, else the user's pick; undefined when the dialog was dismissed. */
export async function saveTarget(given: vscode.Uri | undefined, dialog: SaveDialog): Promise<vscode.Uri | undefined> {
  if (given) return given;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return vscode.window.showSaveDialog({
    title: dialog.title,
    defaultUri: folder ? vscode.Uri.joinPath(folder, dialog.fileName) : vscode.Uri.file(path.join(homedir(), dialog.fileName)),
    filters: dialog.filters,
  });
}
