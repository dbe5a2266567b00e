/**
 * Shows code at a range in an editor, the one way Open Finding, Show Trace and the details'
 * trace steps do: the range selected, in view, and read from its line's start when it starts near
 * it. VS Code reveals a selection on one line sideways too, as far as its end: in a narrow editor
 * (the details beside it, a small window) the line's start and indentation scroll out of view. A
 * range far along a long line (minified code) keeps VS Code's reveal; one over several lines is
 * already shown from the start of its lines.
 */
import * as vscode from 'vscode';

/** A range starting within this many columns of its line's start is shown from the line's start. */
const LINE_START_COLUMNS = 80;

export async function showCode(
  uri: vscode.Uri,
  range: vscode.Range | undefined,
  options: Omit<vscode.TextDocumentShowOptions, 'selection'> = {},
): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(uri, { ...options, ...(range ? { selection: range } : {}) });
  if (!range) return editor;
  const fromLineStart = range.start.line === range.end.line && range.start.character <= LINE_START_COLUMNS;
  editor.revealRange(fromLineStart ? new vscode.Range(range.start.line, 0, range.start.line, 0) : range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}
