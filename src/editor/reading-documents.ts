/**
 * Text shown for reading only (an SBOM indented beside the file as sent): a document from a
 * content provider, which VS Code neither lets the user edit nor asks to save when it closes.
 */
import * as vscode from 'vscode';

export const READING_SCHEME = 'appsec-reading';

/** The texts by URI; a few are kept, since an editor of an older one may still be open. */
const texts = new Map<string, string>();
const KEPT = 8;
let registration: vscode.Disposable | undefined;
let shown = 0;

/** Opens `text` read-only in a preview editor titled `name` (its extension picks the language). */
export async function showForReadingOnly(name: string, text: string): Promise<vscode.TextDocument> {
  registration ??= vscode.workspace.registerTextDocumentContentProvider(READING_SCHEME, {
    provideTextDocumentContent: (uri) => texts.get(uri.toString()),
  });
  const uri = vscode.Uri.from({ scheme: READING_SCHEME, path: `/${name}`, query: String(++shown) });
  texts.set(uri.toString(), text);
  for (const key of [...texts.keys()].slice(0, Math.max(0, texts.size - KEPT))) texts.delete(key);
  const editor = await vscode.window.showTextDocument(uri, { preview: true });
  return editor.document;
}
