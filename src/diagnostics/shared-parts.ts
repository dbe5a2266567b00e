/**
 * Immutable parts many diagnostics have alike, made once and shared: ranges (a `Range` and its two
 * `Position`s are three objects on each of tens of thousands of diagnostics),
 * the related places' file `Uri`s and the messages built for a finding rather than sent with it
 * (docs/performance.md, "Memory"). Each cache is bounded and starts afresh when full: it only
 * decides which equal parts are one object, so forgetting costs a little sharing, never a result.
 */
import * as vscode from 'vscode';

const MAX_SHARED = 4096;
const ranges = new Map<number, vscode.Range>();
const positions = new Map<number, vscode.Position>();
/** An end character of Number.MAX_SAFE_INTEGER (the whole line) in a key. */
const LINE_END = 1023;

/** `new vscode.Range(…)`, the same object as an equal range made before when one is known. */
export function sharedRange(startLine: number, startCharacter: number, endLine: number, endCharacter: number): vscode.Range {
  const start = positionKey(startLine, startCharacter);
  const end = positionKey(endLine, endCharacter);
  const span = endLine - startLine;
  // One number for the four: 27 bits of start line, 10 of start character, 6 of lines spanned, 10 of end character.
  if (start === undefined || end === undefined || span < 0 || span >= 64 || startLine >= 2 ** 27) {
    return new vscode.Range(startLine, startCharacter, endLine, endCharacter);
  }
  const key = (start * 64 + span) * 1024 + (end % 1024);
  let range = ranges.get(key);
  if (range === undefined) {
    if (ranges.size >= MAX_SHARED) ranges.clear();
    range = new vscode.Range(sharedPosition(start, startLine, startCharacter), sharedPosition(end, endLine, endCharacter));
    ranges.set(key, range);
  }
  return range;
}

/** line × 1024 + character, for characters below LINE_END and the whole line's end; else undefined. */
function positionKey(line: number, character: number): number | undefined {
  if (!Number.isSafeInteger(line) || line < 0 || line >= 2 ** 40) return undefined;
  if (character === Number.MAX_SAFE_INTEGER) return line * 1024 + LINE_END;
  return Number.isSafeInteger(character) && character >= 0 && character < LINE_END ? line * 1024 + character : undefined;
}

function sharedPosition(key: number, line: number, character: number): vscode.Position {
  let position = positions.get(key);
  if (position === undefined) {
    if (positions.size >= MAX_SHARED) positions.clear();
    position = new vscode.Position(line, character);
    positions.set(key, position);
  }
  return position;
}

const files = new Map<string, vscode.Uri>();

/** `Uri.joinPath(folder, relativePath)`, shared: supply-chain findings' related places are a few lockfiles and files. */
export function sharedFile(folder: vscode.Uri, relativePath: string): vscode.Uri {
  const key = `${folder.toString()}\u0000${relativePath}`;
  let uri = files.get(key);
  if (uri === undefined) {
    if (files.size >= MAX_SHARED) files.clear();
    uri = vscode.Uri.joinPath(folder, relativePath);
    files.set(key, uri);
  }
  return uri;
}

const texts = new Map<string, string>();

/** One copy of a text built per finding that many findings build alike (a supply-chain finding's message). */
export function sharedText(text: string): string {
  const known = texts.get(text);
  if (known !== undefined) return known;
  if (texts.size >= MAX_SHARED) texts.clear();
  texts.set(text, text);
  return text;
}
