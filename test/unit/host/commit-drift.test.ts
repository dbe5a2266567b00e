// The drift of one folder since a scanned commit, as the tracker keeps it: a scanned range placed
// today (renamed, moved, deleted), typing added as maps on top, and the log line.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { addEdits, describeDrift, driftKey, editMaps, fileDrift, newCommitDrift, placesAsScanned, placeToday } from '../../../src/host/commit-drift';
import type { PlannedRange } from '../../../src/core/workspace/diagnostic-plan';

const folder = { name: 'api', index: 0, uri: { toString: () => 'file:///w/api' } } as unknown as vscode.WorkspaceFolder;
const line = (n: number): PlannedRange => ({ startLine: n, startCharacter: 0, endLine: n, endCharacter: 5, wholeLine: false });

/** A position and range as VS Code's behave, enough for an edit event. */
function position(lineNumber: number, character: number): vscode.Position {
  const p = { line: lineNumber, character, compareTo: (o: vscode.Position) => lineNumber - o.line || character - o.character };
  return p as unknown as vscode.Position;
}
function change(startLine: number, startCharacter: number, endLine: number, endCharacter: number, text: string): vscode.TextDocumentContentChangeEvent {
  const empty = startLine === endLine && startCharacter === endCharacter;
  return {
    range: { start: position(startLine, startCharacter), end: position(endLine, endCharacter), isEmpty: empty },
    text,
  } as unknown as vscode.TextDocumentContentChangeEvent;
}
function document(lines: readonly string[]): vscode.TextDocument {
  return { lineCount: lines.length, lineAt: (n: number) => ({ text: lines[n] ?? '' }) } as unknown as vscode.TextDocument;
}

void describe('commit drift', () => {
  void test('a new entry is pending, keyed by folder and commit, and places everything where it was scanned', () => {
    const entry = newCommitDrift(folder, 'abcdef1234');
    assert.equal(entry.state, 'pending');
    assert.equal(driftKey(folder, 'abcdef1234'), 'file:///w/api|abcdef1234');
    assert.equal(placesAsScanned(entry), true);
    assert.equal(describeDrift(entry), 'api@abcdef1: pending, 0 files changed since the scan, 0 mapped');
  });

  void test('placed today: unchanged files where they were, renamed files by their new name, moved lines, deleted files gone', () => {
    const entry = newCommitDrift(folder, 'abc');
    entry.state = 'mapped';
    entry.changed.set('old.py', { path: 'new.py', scannedPath: 'old.py', deleted: false });
    entry.changed.set('gone.py', { path: 'gone.py', scannedPath: 'gone.py', deleted: true });
    entry.files.set('old.py', fileDrift(['a', 'b', 'c'], 'inserted\na\nb\nc'));
    assert.deepEqual(placeToday(entry, 'same.py', line(2)), { kind: 'same', range: line(2), relativePath: 'same.py' });
    assert.deepEqual(placeToday(entry, 'old.py', line(1)), { kind: 'moved', range: line(2), relativePath: 'new.py' });
    assert.deepEqual(placeToday(entry, 'gone.py', line(0)), { kind: 'deleted' });
    assert.equal(placesAsScanned(entry), false);
    assert.match(describeDrift(entry), /mapped, 2 files changed since the scan, 1 mapped$/);
  });

  void test('code gone from a commit the checkout does not include is not here yet: the place names that commit', () => {
    const entry = newCommitDrift(folder, 'feature1');
    entry.state = 'mapped';
    entry.inHistory = false;
    entry.changed.set('only-there.py', { path: 'only-there.py', scannedPath: 'only-there.py', deleted: true });
    entry.files.set('edited.py', fileDrift(['a', 'b'], 'a'));
    assert.deepEqual(placeToday(entry, 'only-there.py', line(0)), { kind: 'deleted', onlyAt: 'feature1' }, 'a file only on the other branch');
    assert.deepEqual(placeToday(entry, 'edited.py', line(1)), { kind: 'deleted', onlyAt: 'feature1' }, 'lines only on the other branch');
    entry.inHistory = true;
    assert.deepEqual(placeToday(entry, 'only-there.py', line(0)), { kind: 'deleted' }, 'in the history: deleted since the scan');
  });

  void test('typing moves the findings below it: edits are added on top, line-keeping ones merged into one map', () => {
    const entry = newCommitDrift(folder, 'abc');
    entry.state = 'mapped';
    const doc = document(['new line', 'a', 'b']);
    // A line typed above line 0 (at the start of the document), then one more character on it.
    assert.equal(addEdits(entry, 'a.py', editMaps(doc, [change(0, 0, 0, 0, 'new line\n')])), true);
    assert.deepEqual(placeToday(entry, 'a.py', line(0)), { kind: 'moved', range: line(1), relativePath: 'a.py' });
    addEdits(entry, 'a.py', editMaps(doc, [change(0, 8, 0, 8, '!')]));
    addEdits(entry, 'a.py', editMaps(doc, [change(0, 9, 0, 9, '?')]));
    assert.ok((entry.files.get('a.py')?.edits.length ?? 0) <= 2, 'typing on one line does not pile up maps');
    assert.deepEqual(placeToday(entry, 'a.py', line(0)), { kind: 'moved', range: line(1), relativePath: 'a.py' });
    // A file that changed since the scan but has no findings mapped: nothing to move.
    entry.changed.set('b.py', { path: 'b.py', scannedPath: 'b.py', deleted: false });
    assert.equal(addEdits(entry, 'b.py', editMaps(doc, [change(0, 0, 0, 0, 'x\n')])), false);
    assert.equal(entry.files.has('b.py'), false);
  });

  void test('several changes of one event are applied from the bottom up', () => {
    const maps = editMaps(document(['x', 'a', 'b', 'y', 'c']), [change(0, 0, 0, 0, 'x\n'), change(2, 0, 2, 0, 'y\n')]);
    assert.equal(maps.length, 2);
    const entry = newCommitDrift(folder, 'abc');
    addEdits(entry, 'a.py', maps);
    assert.deepEqual(placeToday(entry, 'a.py', line(2)).kind, 'moved');
    assert.deepEqual((placeToday(entry, 'a.py', line(2)) as { range: PlannedRange }).range, line(4));
  });
});
