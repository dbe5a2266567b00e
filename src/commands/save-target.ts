/**
 * Where an export is written: the `saveTo` argument (automation: no dialog), else where the user
 * picks in a save dialog. The dialog starts in the folder of the last export, else the Downloads
 * folder, else the home folder: never in the repository, where an export would become an
 * untracked file. One rule for the SBOM and SARIF exports.
 */
import { existsSync } from 'node:fs';
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
  /** The file name offered, in the folder said above. */
  readonly fileName: string;
  readonly filters: Record<string, string[]>;
}

/** The given target, else the user's pick; undefined when the dialog was dismissed. */
export async function saveTarget(given: vscode.Uri | undefined, dialog: SaveDialog): Promise<vscode.Uri | undefined> {
  if (given) return given;
  const picked = await vscode.window.showSaveDialog({
    title: dialog.title,
    defaultUri: vscode.Uri.file(path.join(startFolder(), dialog.fileName)),
    filters: dialog.filters,
  });
  if (picked?.scheme === 'file') lastFolder = path.dirname(picked.fsPath);
  return picked;
}

/** The folder the last export of this window went to. */
let lastFolder: string | undefined;

function startFolder(): string {
  const downloads = path.join(homedir(), 'Downloads');
  return lastFolder ?? (existsSync(downloads) ? downloads : homedir());
}
