/**
 * The drift of one workspace folder since one scanned commit: which files git reports changed,
 * renamed or deleted, and for each file with findings the map from its scanned lines to its
 * lines today, with the user's unsaved edits as maps on top. What `DriftTracker` keeps per folder
 * and commit, and the pure steps on it (placing a range, adding an edit). No `vscode` at run time.
 */
import type * as vscode from 'vscode';
import type { PlannedRange } from '../core/workspace/diagnostic-plan';
import { diffLines, splitLines } from '../core/workspace/line-diff';
import { LineMap, editHunk, mapThrough, mergeLineKeeping } from '../core/workspace/range-mapper';
import type { TodayPlace } from '../core/workspace/today-place';
import type { ChangedFile } from './git-cli';

export type DriftState = 'pending' | 'mapped' | 'missing' | 'failed';

export interface FileDrift {
  /** The file at the scanned commit; undefined until needed (an unchanged file being edited). */
  readonly scannedLines?: readonly string[];
  base: LineMap;
  edits: LineMap[];
}

export interface CommitDrift {
  readonly folder: vscode.WorkspaceFolder;
  readonly commit: string;
  state: DriftState;
  /** Scanned path → today's, for files git reports changed, renamed or deleted. */
  changed: Map<string, ChangedFile>;
  /** Today's path → scanned path (renames), for edits arriving by today's name. */
  scannedPathOf: Map<string, string>;
  files: Map<string, FileDrift>;
  requested: Set<string>;
  running?: Promise<void>;
  again: boolean;
  /** A refresh or checkout happened: map again at the next `ensure`, showing the old maps meanwhile. */
  stale: boolean;
  /** What listeners last heard: every finding at its scanned place (so far as mapping goes). */
  toldAsScanned: boolean;
  /** Whether the checkout includes the commit: code gone from a commit it does not include is not here yet. */
  inHistory: boolean;
}

/** A folder at a commit, not mapped yet. */
export function newCommitDrift(folder: vscode.WorkspaceFolder, commit: string): CommitDrift {
  return {
    folder,
    commit,
    state: 'pending',
    changed: new Map(),
    scannedPathOf: new Map(),
    files: new Map(),
    requested: new Set(),
    again: false,
    stale: false,
    toldAsScanned: true,
    inHistory: true,
  };
}

export function driftKey(folder: vscode.WorkspaceFolder, commit: string): string {
  return `${folder.uri.toString()}|${commit}`;
}

/** A file's map from its scanned lines to its text today, with no edits on top yet. */
export function fileDrift(scannedLines: readonly string[], today: string): FileDrift {
  return { scannedLines, base: new LineMap(diffLines(scannedLines, splitLines(today))), edits: [] };
}

/** Where a scanned range of a mapped entry is today. */
export function placeToday(entry: CommitDrift, scannedPath: string, range: PlannedRange): TodayPlace {
  const change = entry.changed.get(scannedPath);
  const gone: TodayPlace = entry.inHistory ? { kind: 'deleted' } : { kind: 'deleted', onlyAt: entry.commit };
  if (change?.deleted) return gone;
  const file = entry.files.get(scannedPath);
  const mapped = file ? mapThrough([file.base, ...file.edits], range) : { kind: 'same' as const, range };
  return mapped.kind === 'deleted' ? gone : { ...mapped, relativePath: change?.path ?? scannedPath };
}

/** One map per change of an edit event, applied from the bottom up (each in the text before the event). */
export function editMaps(document: vscode.TextDocument, changes: readonly vscode.TextDocumentContentChangeEvent[]): LineMap[] {
  return [...changes]
    .sort((a, b) => b.range.start.compareTo(a.range.start))
    .map(
      (change) =>
        new LineMap([
          editHunk({
            startLine: change.range.start.line,
            startCharacter: change.range.start.character,
            endLine: change.range.end.line,
            endCharacter: change.range.end.character,
            text: change.text,
            atLineEnd: atLineEnd(document, change),
          }),
        ]),
    );
}

/**
 * Adds an edit's maps on top of a file's map (merged into the last one when they keep lines);
 * false for a file that changed since the scan without findings (nothing to move).
 */
export function addEdits(entry: CommitDrift, scannedPath: string, maps: readonly LineMap[]): boolean {
  let file = entry.files.get(scannedPath);
  if (!file) {
    if (entry.changed.has(scannedPath)) return false;
    file = { base: LineMap.identity, edits: [] };
    entry.files.set(scannedPath, file);
  }
  for (const map of maps) {
    const merged = file.edits.length > 0 ? mergeLineKeeping(file.edits[file.edits.length - 1], map) : undefined;
    if (merged) file.edits[file.edits.length - 1] = merged;
    else file.edits.push(map);
  }
  return true;
}

/** Nothing followed the cursor: the line after the inserted text is exactly the text's last line. */
function atLineEnd(document: vscode.TextDocument, change: vscode.TextDocumentContentChangeEvent): boolean {
  if (!change.range.isEmpty) return false;
  const parts = change.text.split(/\r\n|\r|\n/);
  const lastLine = change.range.start.line + parts.length - 1;
  if (lastLine >= document.lineCount) return false;
  const tail = parts[parts.length - 1] ?? '';
  const line = document.lineAt(lastLine).text;
  return parts.length > 1 ? line === tail : line.length === change.range.start.character + tail.length;
}

/** Every finding of this entry is placed where it was scanned: not mapped (yet), or nothing differs. */
export function placesAsScanned(entry: CommitDrift): boolean {
  return entry.state !== 'mapped' || (entry.changed.size === 0 && entry.files.size === 0);
}

/** One line per folder and commit, as the log writes them. */
export function describeDrift(e: CommitDrift): string {
  return `${e.folder.name}@${e.commit.slice(0, 7)}: ${e.state}${e.stale ? ' (stale)' : ''}${e.running ? ' (mapping)' : ''}, ${e.changed.size} files changed since the scan, ${e.files.size} mapped`;
}
