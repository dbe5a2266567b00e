/**
 * Moves a finding's range from the scanned text to today's text through the hunks of a line
 * diff (`line-diff.ts`) and then through any edits made since (each edit is one more hunk
 * list). Pure and without `vscode`, so every edge is tested in Node.
 *
 * - Lines outside every hunk move by the lines inserted and deleted above them: `same` when
 *   nothing above changed, `moved` otherwise; columns are kept.
 * - A range that a hunk touches (its own lines replaced, or lines inserted inside it) is
 *   `changed`: it goes to the best matching lines, whole lines where its own were replaced.
 * - A range whose every line was deleted is `deleted`: its code is no longer in this copy.
 */
import type { Hunk } from './line-diff';
import type { PlannedRange } from './diagnostic-plan';

export type MappedRange = { readonly kind: 'same' | 'moved' | 'changed'; readonly range: PlannedRange } | { readonly kind: 'deleted' };

/** A line's place after the hunks: `changed` when the line itself was replaced or removed. */
interface MappedLine {
  readonly line: number;
  readonly changed: boolean;
  readonly deleted: boolean;
}

export class LineMap {
  /** Lines gained (or lost, negative) by the end of hunk i. */
  private readonly deltaAfter: number[] = [];

  /** `hunks` in order, neither overlapping nor adjacent (as `diffLines` gives them). */
  constructor(readonly hunks: readonly Hunk[]) {
    let delta = 0;
    for (const hunk of hunks) {
      delta += hunk.newCount - hunk.oldCount;
      this.deltaAfter.push(delta);
    }
  }

  static readonly identity = new LineMap([]);

  get isIdentity(): boolean {
    return this.hunks.length === 0;
  }

  /** Every hunk keeps its number of lines (typing inside lines): the map only marks lines changed. */
  get keepsLines(): boolean {
    return this.hunks.every((hunk) => hunk.oldCount === hunk.newCount);
  }

  /** The index of the last hunk that starts at or above `line`, or -1. */
  private hunkAtOrAbove(line: number): number {
    let low = 0;
    let high = this.hunks.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.hunks[mid].oldStart <= line) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  mapLine(line: number): MappedLine {
    const i = this.hunkAtOrAbove(line);
    if (i < 0) return { line, changed: false, deleted: false };
    const hunk = this.hunks[i];
    if (line < hunk.oldStart + hunk.oldCount) {
      if (hunk.newCount === 0) return { line: hunk.newStart, changed: true, deleted: true };
      return { line: hunk.newStart + Math.min(line - hunk.oldStart, hunk.newCount - 1), changed: true, deleted: false };
    }
    return { line: line + this.deltaAfter[i], changed: false, deleted: false };
  }

  mapRange(range: PlannedRange): MappedRange {
    const first = range.startLine;
    // An end at column 0 of a later line ends the line before it.
    const last = !range.wholeLine && range.endLine > first && range.endCharacter === 0 ? range.endLine - 1 : range.endLine;
    const start = this.mapLine(first);
    const end = this.mapLine(last);
    const touched = start.changed || end.changed || this.hunkInside(first, last);
    if (!touched) {
      const moved = start.line !== first;
      const shifted = { ...range, startLine: start.line, endLine: range.endLine + (start.line - first) };
      return { kind: moved ? 'moved' : 'same', range: shifted };
    }
    if (this.allDeleted(first, last)) return { kind: 'deleted' };
    const startLine = start.line;
    const endLine = Math.max(startLine, end.deleted ? end.line - 1 : end.line);
    const keepStart = !start.changed;
    const keepEnd = !end.changed && !range.wholeLine && endLine !== startLine;
    return {
      kind: 'changed',
      range: {
        startLine,
        startCharacter: keepStart ? range.startCharacter : 0,
        // A kept end at column 0 stays at the start of the line after the range's last line.
        endLine: keepEnd ? endLine + (range.endLine - last) : endLine,
        endCharacter: keepEnd ? range.endCharacter : Number.MAX_SAFE_INTEGER,
        wholeLine: !keepEnd,
      },
    };
  }

  /** Any hunk starting strictly inside (first, last], e.g. lines inserted between the range's lines. */
  private hunkInside(first: number, last: number): boolean {
    const i = this.hunkAtOrAbove(last);
    return i >= 0 && this.hunks[i].oldStart > first;
  }

  /** Every line of [first, last] lies in hunks that keep no new line. */
  private allDeleted(first: number, last: number): boolean {
    for (let line = first; line <= last;) {
      const i = this.hunkAtOrAbove(line);
      const hunk = i >= 0 ? this.hunks[i] : undefined;
      if (!hunk || line >= hunk.oldStart + hunk.oldCount || hunk.newCount > 0) return false;
      line = hunk.oldStart + hunk.oldCount;
    }
    return true;
  }
}

/**
 * Through several maps in turn (the diff to the saved text, then each unsaved edit): `deleted`
 * and `changed` stick, `moved` wins over `same`.
 */
export function mapThrough(maps: readonly LineMap[], range: PlannedRange): MappedRange {
  let kind: 'same' | 'moved' | 'changed' = 'same';
  let current = range;
  for (const map of maps) {
    if (map.isIdentity) continue;
    const mapped = map.mapRange(current);
    if (mapped.kind === 'deleted') return mapped;
    if (mapped.kind === 'changed' || (mapped.kind === 'moved' && kind === 'same')) kind = mapped.kind;
    current = mapped.range;
  }
  return { kind, range: current };
}

/** Lines marked by merged maps at most: beyond it (a huge paste) maps stay apart. */
const MERGE_LINES = 10_000;

/**
 * Two maps in turn that move no line act as one that marks the lines of both changed. Typing
 * merges each keystroke's map into the last, so placing a finding after a burst of typing goes
 * through one map rather than one per keystroke. Undefined when either moves lines.
 */
export function mergeLineKeeping(first: LineMap, second: LineMap): LineMap | undefined {
  if (!first.keepsLines || !second.keepsLines) return undefined;
  const lines = new Set<number>();
  for (const hunk of [...first.hunks, ...second.hunks]) {
    if (lines.size + hunk.oldCount > MERGE_LINES) return undefined;
    for (let line = hunk.oldStart; line < hunk.oldStart + hunk.oldCount; line++) lines.add(line);
  }
  const hunks: Hunk[] = [];
  for (const line of [...lines].sort((a, b) => a - b)) {
    const last = hunks.at(-1);
    // Adjacent lines form one hunk: the map wants hunks neither overlapping nor adjacent.
    if (last && last.oldStart + last.oldCount === line) hunks[hunks.length - 1] = { ...last, oldCount: last.oldCount + 1, newCount: last.newCount + 1 };
    else hunks.push({ oldStart: line, oldCount: 1, newStart: line, newCount: 1 });
  }
  return new LineMap(hunks);
}

/**
 * One editor change as a hunk of the text before it: lines `startLine..endLine` replaced by the
 * lines of `text`. Typing inside a line replaces that line; a change that only adds whole lines
 * at a line's start or end inserts them and leaves the line itself alone.
 */
export interface LineEdit {
  readonly startLine: number;
  readonly startCharacter: number;
  readonly endLine: number;
  readonly endCharacter: number;
  readonly text: string;
  /** The edit starts at the end of its line (what followed the cursor was nothing). */
  readonly atLineEnd: boolean;
}

export function editHunk(edit: LineEdit): Hunk {
  const addedBreaks = countBreaks(edit.text);
  const isInsert = edit.startLine === edit.endLine && edit.startCharacter === edit.endCharacter;
  if (isInsert && addedBreaks > 0) {
    // Enter at the end of a line: new lines after it. Whole lines pasted at its start: new lines before it.
    if (edit.atLineEnd && BREAK_FIRST.test(edit.text)) {
      return { oldStart: edit.startLine + 1, oldCount: 0, newStart: edit.startLine + 1, newCount: addedBreaks };
    }
    if (edit.startCharacter === 0 && BREAK_LAST.test(edit.text)) {
      return { oldStart: edit.startLine, oldCount: 0, newStart: edit.startLine, newCount: addedBreaks };
    }
  }
  return { oldStart: edit.startLine, oldCount: edit.endLine - edit.startLine + 1, newStart: edit.startLine, newCount: addedBreaks + 1 };
}

const BREAK_FIRST = /^(\r\n|\r|\n)/;
const BREAK_LAST = /(\r\n|\r|\n)$/;

function countBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) count++;
    else if (c === 13) {
      count++;
      if (text.charCodeAt(i + 1) === 10) i++;
    }
  }
  return count;
}
