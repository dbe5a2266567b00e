/**
 * The diff and the range mapper against brute force on thousands of generated texts and edits:
 * the hunks rebuild the new text from the old one; their kept lines are as many as the longest
 * common subsequence (computed by dynamic programming); a range that is `same` or `moved` points
 * at lines with the same text as before; `deleted` only when every line of it is gone; an
 * editor edit's hunk leaves the text around it as it was.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { diffLines, type Hunk } from '../../../src/core/workspace/line-diff';
import { LineMap, editHunk, mapThrough, mergeLineKeeping } from '../../../src/core/workspace/range-mapper';

const SEED = 0x5eed8;
const RUNS = 1_500;

/** Few distinct lines, so texts share lines and the diff has real choices to make. */
const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', 'x = 1', '}'), { maxLength: 40 });

function applyHunks(before: readonly string[], after: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const h of hunks) {
    out.push(...before.slice(i, h.oldStart));
    out.push(...after.slice(h.newStart, h.newStart + h.newCount));
    i = h.oldStart + h.oldCount;
  }
  out.push(...before.slice(i));
  return out;
}

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

void describe('line diff and range mapper (property)', () => {
  it('the hunks rebuild the new text and keep a longest common subsequence', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const hunks = diffLines(before, after);
        assert.deepEqual(applyHunks(before, after, hunks), after);
        const kept = before.length - hunks.reduce((n, h) => n + h.oldCount, 0);
        assert.equal(kept, lcsLength(before, after));
        for (let i = 1; i < hunks.length; i++) assert.ok(hunks[i].oldStart > hunks[i - 1].oldStart + hunks[i - 1].oldCount, 'not adjacent');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('same and moved ranges point at the same text; deleted only when all of it is gone', () => {
    fc.assert(
      fc.property(text, text, fc.nat(), fc.nat(3), (before, after, start, span) => {
        fc.pre(before.length > 0);
        const first = start % before.length;
        const last = Math.min(before.length - 1, first + span);
        const range = { startLine: first, startCharacter: 0, endLine: last, endCharacter: 1, wholeLine: false };
        const hunks = diffLines(before, after);
        const mapped = new LineMap(hunks).mapRange(range);
        const keptOld = new Set<number>();
        const removed = new Set<number>();
        for (const h of hunks) for (let l = h.oldStart; l < h.oldStart + h.oldCount; l++) removed.add(l);
        for (let l = 0; l < before.length; l++) if (!removed.has(l)) keptOld.add(l);
        if (mapped.kind === 'deleted') {
          for (let l = first; l <= last; l++) assert.ok(!keptOld.has(l), `line ${l} is still there`);
          return;
        }
        assert.ok(mapped.range.startLine <= mapped.range.endLine);
        assert.ok(mapped.range.startLine <= Math.max(0, after.length - 1) || after.length === 0);
        if (mapped.kind === 'changed') return;
        for (let l = first; l <= last; l++) {
          assert.ok(keptOld.has(l), `line ${l} of an unchanged range was kept`);
          assert.equal(after[mapped.range.startLine + (l - first)], before[l]);
        }
        assert.equal(mapped.kind === 'same', mapped.range.startLine === first);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('an editor edit becomes a hunk that leaves the text before and after it unchanged', () => {
    const edit = fc.record({
      line: fc.nat(),
      char: fc.nat(6),
      span: fc.nat(2),
      endChar: fc.nat(6),
      text: fc.constantFrom('', 'x', '\n', '\n  ', 'a\nb', 'a\n', '\r\n', 'q\r\nr\r\n'),
    });
    fc.assert(
      fc.property(fc.array(fc.constantFrom('abc', 'defgh', '', 'xy'), { minLength: 1, maxLength: 12 }), edit, (before, e) => {
        const startLine = e.line % before.length;
        const endLine = Math.min(before.length - 1, startLine + e.span);
        const startCharacter = Math.min(e.char, before[startLine].length);
        const endCharacter =
          endLine === startLine ? Math.max(startCharacter, Math.min(e.endChar, before[endLine].length)) : Math.min(e.endChar, before[endLine].length);
        const joined = before.join('\n');
        const offset = (line: number, ch: number): number => before.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + ch;
        const afterText = joined.slice(0, offset(startLine, startCharacter)) + e.text + joined.slice(offset(endLine, endCharacter));
        const after = afterText.split(/\r\n|\r|\n/);
        const hunk = editHunk({
          startLine,
          startCharacter,
          endLine,
          endCharacter,
          text: e.text,
          atLineEnd: startCharacter === before[startLine].length && endLine === startLine && endCharacter === startCharacter,
        });
        assert.deepEqual(after.slice(0, hunk.newStart), before.slice(0, hunk.oldStart), 'before the hunk');
        assert.deepEqual(after.slice(hunk.newStart + hunk.newCount), before.slice(hunk.oldStart + hunk.oldCount), 'after the hunk');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('typing merged into one map places every range as the keystrokes one after another do', () => {
    // Keystrokes inside lines (each replaces lines by as many), as the drift tracker merges them.
    const keystroke = fc.record({ line: fc.nat(30), count: fc.integer({ min: 1, max: 3 }) });
    const range = fc.record({ start: fc.nat(35), span: fc.nat(4), startCharacter: fc.nat(5), endCharacter: fc.nat(5), wholeLine: fc.boolean() });
    fc.assert(
      fc.property(fc.array(keystroke, { minLength: 2, maxLength: 12 }), range, (keys, r) => {
        const maps = keys.map((k) => new LineMap([{ oldStart: k.line, oldCount: k.count, newStart: k.line, newCount: k.count }]));
        const merged = maps.slice(1).reduce((into, map) => mergeLineKeeping(into, map) ?? assert.fail('line-keeping maps merge'), maps[0]);
        const planned = {
          startLine: r.start,
          startCharacter: r.startCharacter,
          endLine: r.start + r.span,
          endCharacter: r.endCharacter,
          wholeLine: r.wholeLine,
        };
        assert.deepEqual(mapThrough([merged], planned), mapThrough(maps, planned));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a map that adds or removes lines is never merged', () => {
    const typing = new LineMap([{ oldStart: 3, oldCount: 1, newStart: 3, newCount: 1 }]);
    const enter = new LineMap([{ oldStart: 5, oldCount: 0, newStart: 5, newCount: 1 }]);
    assert.equal(mergeLineKeeping(typing, enter), undefined);
    assert.equal(mergeLineKeeping(enter, typing), undefined);
  });
});
