/**
 * A line diff between the text of a file at the scanned commit and its text today, as hunks:
 * the smallest set of replaced line blocks (Myers' O((N+M)·D) algorithm) after the common
 * start and end are set aside. Lines are compared without their line break, so a copy checked
 * out with CRLF matches a scan of LF text.
 */

/** Old lines `[oldStart, oldStart + oldCount)` became new lines `[newStart, newStart + newCount)`; 0-based. */
export interface Hunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
}

/**
 * Beyond this many inserted plus deleted lines the rest is one replaced block: the diff stays
 * fast and small in memory on a rewritten file, and its findings are then marked as changed.
 */
export const MAX_EDITS = 2000;

/** Lines without their breaks (`\r\n`, `\n` or `\r`); an empty text has no lines. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  // A final line break ends the last line; it does not start another one.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(oldLines: readonly string[], newLines: readonly string[], maxEdits = MAX_EDITS): Hunk[] {
  let prefix = 0;
  const shorter = Math.min(oldLines.length, newLines.length);
  while (prefix < shorter && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) suffix++;
  const [a, b] = internLines(oldLines.slice(prefix, oldLines.length - suffix), newLines.slice(prefix, newLines.length - suffix));
  if (a.length === 0 && b.length === 0) return [];
  const hunks = a.length === 0 || b.length === 0 ? [{ oldStart: 0, oldCount: a.length, newStart: 0, newCount: b.length }] : myers(a, b, maxEdits);
  return hunks.map((h) => ({ ...h, oldStart: h.oldStart + prefix, newStart: h.newStart + prefix }));
}

/** Lines as small integers, so the inner loop compares numbers. */
function internLines(oldLines: readonly string[], newLines: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const toIds = (lines: readonly string[]): Int32Array => {
    const out = new Int32Array(lines.length);
    lines.forEach((line, i) => {
      let id = ids.get(line);
      if (id === undefined) ids.set(line, (id = ids.size));
      out[i] = id;
    });
    return out;
  };
  return [toIds(oldLines), toIds(newLines)];
}

/** Myers' greedy shortest edit script, the frontier of each step kept to walk the path back. */
function myers(a: Int32Array, b: Int32Array, maxEdits: number): Hunk[] {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]);
      let x = down ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return hunksFromTrace(trace, a, b, d, k);
    }
  }
  // Too many edits: one block replaces the middle (the common start and end were already set aside).
  return [{ oldStart: 0, oldCount: n, newStart: 0, newCount: m }];
}

/** Walks the recorded frontiers back from (n, m) and gathers consecutive edits into hunks. */
function hunksFromTrace(trace: readonly Int32Array[], a: Int32Array, b: Int32Array, lastD: number, lastK: number): Hunk[] {
  // Per old line: kept (matched) or not; per new line: likewise. Hunks are the unmatched runs.
  const oldKept = new Uint8Array(a.length);
  const newKept = new Uint8Array(b.length);
  let x = a.length;
  let y = b.length;
  let k = lastK;
  for (let d = lastD; d >= 0; d--) {
    const frontier = trace[d];
    // trace[d] holds v[-d-1 .. d+1] as it was before step d.
    const at = (kk: number): number => frontier[kk + d + 1];
    let prevK: number;
    let startX: number;
    if (d === 0) {
      prevK = 0;
      startX = 0;
    } else {
      const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
      prevK = down ? k + 1 : k - 1;
      const prevX = at(prevK);
      startX = down ? prevX : prevX + 1;
    }
    // The diagonal (matched lines) after this step's one edit.
    while (x > startX && x - k > 0) {
      x--;
      y = x - k;
      oldKept[x] = 1;
      newKept[y] = 1;
    }
    if (d === 0) break;
    k = prevK;
    x = at(prevK);
    y = x - prevK;
  }
  return runsToHunks(oldKept, newKept);
}

/** Matched lines pair up in order, so walking both kept-masks together yields the hunks. */
function runsToHunks(oldKept: Uint8Array, newKept: Uint8Array): Hunk[] {
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < oldKept.length || j < newKept.length) {
    if (i < oldKept.length && j < newKept.length && oldKept[i] && newKept[j]) {
      i++;
      j++;
      continue;
    }
    const oldStart = i;
    const newStart = j;
    while (i < oldKept.length && !oldKept[i]) i++;
    while (j < newKept.length && !newKept[j]) j++;
    hunks.push({ oldStart, oldCount: i - oldStart, newStart, newCount: j - newStart });
  }
  return hunks;
}
