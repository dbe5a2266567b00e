// A finding follows its code: the line diff between the scanned text and today's text, and each
// range moved through it (inserted and deleted lines above, edits inside and around, file start
// and end, empty files, CRLF, unsaved edits on top).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLines, splitLines, type Hunk } from '../../../src/core/workspace/line-diff';
import { LineMap, editHunk, mapThrough } from '../../../src/core/workspace/range-mapper';
import type { PlannedRange } from '../../../src/core/workspace/diagnostic-plan';

const lines = (n: number, prefix = 'line'): string[] => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`);
const at = (startLine: number, startCharacter = 4, endLine = startLine, endCharacter = 9): PlannedRange => ({
  startLine,
  startCharacter,
  endLine,
  endCharacter,
  wholeLine: false,
});
const mapOf = (before: string[], after: string[]): LineMap => new LineMap(diffLines(before, after));

void describe('line diff', () => {
  test('splits on LF, CRLF and CR; a final break does not start a line; empty text has no lines', () => {
    assert.deepEqual(splitLines('a\r\nb\nc\rd\n'), ['a', 'b', 'c', 'd']);
    assert.deepEqual(splitLines(''), []);
    assert.deepEqual(splitLines('\n'), ['']);
    assert.deepEqual(splitLines('x'), ['x']);
  });

  test('equal texts have no hunks, also when one is CRLF and the other LF', () => {
    assert.deepEqual(diffLines(splitLines('a\nb\n'), splitLines('a\r\nb\r\n')), []);
  });

  test('finds the smallest replaced blocks', () => {
    const before = lines(10);
    const after = [...before.slice(0, 2), 'new a', 'new b', ...before.slice(2, 5), 'changed 6', ...before.slice(6, 8)];
    assert.deepEqual(diffLines(before, after), [
      { oldStart: 2, oldCount: 0, newStart: 2, newCount: 2 },
      { oldStart: 5, oldCount: 1, newStart: 7, newCount: 1 },
      { oldStart: 8, oldCount: 2, newStart: 10, newCount: 0 },
    ]);
  });

  test('a text that became empty, or was empty, is one block', () => {
    assert.deepEqual(diffLines(lines(3), []), [{ oldStart: 0, oldCount: 3, newStart: 0, newCount: 0 }]);
    assert.deepEqual(diffLines([], lines(2)), [{ oldStart: 0, oldCount: 0, newStart: 0, newCount: 2 }]);
  });

  test('past the edit budget the differing middle is one block', () => {
    const before = ['same', ...lines(50, 'a'), 'end'];
    const after = ['same', ...lines(50, 'b'), 'end'];
    assert.deepEqual(diffLines(before, after, 10), [{ oldStart: 1, oldCount: 50, newStart: 1, newCount: 50 }]);
  });
});

void describe('range mapper', () => {
  test('seven lines inserted at the top move a finding at line 20 to line 27, columns kept', () => {
    const before = lines(30);
    const map = mapOf(before, [...lines(7, 'import'), ...before]);
    assert.deepEqual(map.mapRange(at(19)), { kind: 'moved', range: at(26) });
  });

  test('three lines deleted above move it up; lines changed below leave it alone', () => {
    const before = lines(30);
    const after = [...before.slice(0, 5), ...before.slice(8, 25), 'other', ...before.slice(26)];
    const map = mapOf(before, after);
    assert.deepEqual(map.mapRange(at(19, 0, 21, 3)), { kind: 'moved', range: at(16, 0, 18, 3) });
    assert.deepEqual(map.mapRange(at(2)), { kind: 'same', range: at(2) });
  });

  test('its own line edited: changed, at the same place, the whole line', () => {
    const before = lines(10);
    const after = [...before.slice(0, 4), 'line 5 with a fix', ...before.slice(5)];
    assert.deepEqual(mapOf(before, after).mapRange(at(4)), {
      kind: 'changed',
      range: { startLine: 4, startCharacter: 0, endLine: 4, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true },
    });
  });

  test('a line inserted inside a multi-line range changes it; its unchanged ends keep their columns', () => {
    const before = lines(10);
    const after = [...before.slice(0, 3), 'inserted', ...before.slice(3)];
    assert.deepEqual(mapOf(before, after).mapRange(at(2, 4, 4, 9)), {
      kind: 'changed',
      range: { startLine: 2, startCharacter: 4, endLine: 5, endCharacter: 9, wholeLine: false },
    });
  });

  test('lines inserted right before or right after a range only move it, or not at all', () => {
    const before = lines(10);
    assert.equal(mapOf(before, [...before.slice(0, 4), 'x', ...before.slice(4)]).mapRange(at(4)).kind, 'moved');
    assert.equal(mapOf(before, [...before.slice(0, 5), 'x', ...before.slice(5)]).mapRange(at(4)).kind, 'same');
  });

  test('every line of the range deleted: deleted; part of it deleted: changed', () => {
    const before = lines(10);
    const after = [...before.slice(0, 3), ...before.slice(6)];
    const map = mapOf(before, after);
    assert.deepEqual(map.mapRange(at(3, 0, 5, 2)), { kind: 'deleted' });
    assert.deepEqual(map.mapRange(at(4, 0, 7, 2)), {
      kind: 'changed',
      range: { startLine: 3, startCharacter: 0, endLine: 4, endCharacter: 2, wholeLine: false },
    });
  });

  test('ranges at the start and the end of the file', () => {
    const before = lines(5);
    const map = mapOf(before, ['header', ...before]);
    assert.deepEqual(map.mapRange(at(0)), { kind: 'moved', range: at(1) });
    assert.deepEqual(map.mapRange(at(4)), { kind: 'moved', range: at(5) });
    assert.deepEqual(mapOf(before, before.slice(0, 4)).mapRange(at(4)), { kind: 'deleted' });
  });

  test('a whole-line range (no end from the scanner) keeps being whole-line', () => {
    const whole: PlannedRange = { startLine: 3, startCharacter: 0, endLine: 3, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true };
    assert.deepEqual(mapOf(lines(6), ['top', ...lines(6)]).mapRange(whole), { kind: 'moved', range: { ...whole, startLine: 4, endLine: 4 } });
  });

  test('an end at column 0 of the next line does not reach into that line', () => {
    const before = lines(6);
    const after = [...before.slice(0, 3), 'edited', ...before.slice(4)];
    assert.equal(mapOf(before, after).mapRange(at(2, 0, 3, 0)).kind, 'same');
  });

  test('a changed range ending at column 0 keeps that end: each later edit does not cut a line off', () => {
    // Lines 1..3 end at the start of line 4; line 1 is typed in twice.
    const typed = new LineMap([{ oldStart: 1, oldCount: 1, newStart: 1, newCount: 1 }]);
    const once = typed.mapRange(at(1, 4, 4, 0));
    assert.deepEqual(once, { kind: 'changed', range: { startLine: 1, startCharacter: 0, endLine: 4, endCharacter: 0, wholeLine: false } });
    assert.deepEqual(mapThrough([typed, typed], at(1, 4, 4, 0)), once);
  });

  test('a file emptied since the scan: its findings are deleted; a file that was empty is all new', () => {
    assert.deepEqual(mapOf(lines(3), []).mapRange(at(1)), { kind: 'deleted' });
    assert.deepEqual(diffLines([], lines(3)), [{ oldStart: 0, oldCount: 0, newStart: 0, newCount: 3 }]);
  });

  test('CRLF today against LF at the scan: nothing moved', () => {
    const map = mapOf(splitLines('a\nb\nc\n'), splitLines('a\r\nb\r\nc\r\n'));
    assert.ok(map.isIdentity);
    assert.deepEqual(mapThrough([map], at(1)), { kind: 'same', range: at(1) });
  });
});

void describe('unsaved edits on top of the diff', () => {
  test('Enter at the end of a line two lines above moves the finding down; the line itself is unchanged', () => {
    const enter = new LineMap([editHunk({ startLine: 2, startCharacter: 6, endLine: 2, endCharacter: 6, text: '\n    ', atLineEnd: true })]);
    assert.deepEqual(mapThrough([enter], at(4)), { kind: 'moved', range: at(5) });
    assert.deepEqual(mapThrough([enter], at(2)), { kind: 'same', range: at(2) });
  });

  test('Enter in the middle of a line splits it: that line changed', () => {
    const split = new LineMap([editHunk({ startLine: 4, startCharacter: 2, endLine: 4, endCharacter: 2, text: '\n', atLineEnd: false })]);
    assert.equal(mapThrough([split], at(4)).kind, 'changed');
    assert.deepEqual(mapThrough([split], at(6)), { kind: 'moved', range: at(7) });
  });

  test('lines pasted at the start of a line go before it', () => {
    const paste = new LineMap([editHunk({ startLine: 3, startCharacter: 0, endLine: 3, endCharacter: 0, text: 'a\r\nb\r\n', atLineEnd: false })]);
    assert.deepEqual(mapThrough([paste], at(3)), { kind: 'moved', range: at(5) });
  });

  test('typing on the line changes it; deleting the lines deletes it; the kinds stick through later maps', () => {
    const typed = new LineMap([editHunk({ startLine: 4, startCharacter: 5, endLine: 4, endCharacter: 5, text: 'x', atLineEnd: false })]);
    const above = new LineMap([editHunk({ startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0, text: 'n\n', atLineEnd: false })]);
    assert.deepEqual(mapThrough([typed, above], at(4)), {
      kind: 'changed',
      range: { startLine: 5, startCharacter: 0, endLine: 5, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true },
    });
    const removed = new LineMap([editHunk({ startLine: 3, startCharacter: 0, endLine: 6, endCharacter: 0, text: '', atLineEnd: false })]);
    assert.equal(mapThrough([removed], at(4)).kind, 'changed', 'line 6 (part of the edit) keeps one line');
    const hunk: Hunk = { oldStart: 3, oldCount: 3, newStart: 3, newCount: 0 };
    assert.deepEqual(mapThrough([new LineMap([hunk]), typed], at(4)), { kind: 'deleted' });
  });
});
