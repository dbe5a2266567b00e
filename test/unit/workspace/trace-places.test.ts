// A finding's trace placed in today's code by the same drift as the finding: each step moves with
// lines added above it, follows its file's rename, says when its code was deleted, keeps the
// platform's link when it is not in the workspace, and is worded the same everywhere.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { TraceStep } from '../../../src/core/model/finding-story';
import type { Placer } from '../../../src/core/workspace/placement';
import { placeTrace, stepCode, stepName, stepPlaceText, type TracePlace } from '../../../src/core/workspace/trace-places';
import { fileDrift, newCommitDrift, placeToday, addEdits, editMaps } from '../../../src/host/commit-drift';

const folder = { name: 'api', index: 0, uri: { toString: () => 'file:///w/api' } } as unknown as vscode.WorkspaceFolder;

/** The scanned `app.py`: a handler whose request value reaches `run` (lines 1-based as the platform sends them). */
const APP = ['import os', '', 'def handler(request):', '    q = request.args.get("q")', '    value = q.strip()', '    run(value)', ''];
const step = (role: TraceStep['role'], filePath: string, line: number, content?: string, locationUrl?: string): TraceStep => ({
  role,
  range: { filePath, line, column: 5, endLine: line, endColumn: 20 },
  ...(content ? { content } : {}),
  ...(locationUrl ? { locationUrl } : {}),
});
const TRACE: TraceStep[] = [
  step('source', 'app.py', 4, '    q = request.args.get("q")', 'https://github.com/acme/api/blob/abc/app.py#L4'),
  step('step', 'app.py', 5, '    value = q.strip()'),
  step('sink', 'app.py', 6, '    run(value)'),
];

/** The drift of the folder since the scanned commit, as the tracker keeps it once git answered. */
function mapped(files: Record<string, { today: string; renamedTo?: string; deleted?: boolean }>): Placer {
  const entry = newCommitDrift(folder, 'abc');
  entry.state = 'mapped';
  for (const [path, file] of Object.entries(files)) {
    if (file.renamedTo || file.deleted) entry.changed.set(path, { path: file.renamedTo ?? path, scannedPath: path, deleted: file.deleted ?? false });
    if (!file.deleted) entry.files.set(path, fileDrift(APP, file.today));
  }
  return (path, range) => placeToday(entry, path, range);
}

const lines = (places: readonly TracePlace[]): (string | number)[] =>
  places.map((p) => (p.kind === 'here' ? `${p.relativePath}:${p.range.startLine + 1}` : p.kind));

void describe("a trace placed in today's code", () => {
  void test('nothing changed since the scan: every step where it was, in order, numbered', () => {
    const placed = placeTrace(TRACE, mapped({}));
    assert.deepEqual(lines(placed), ['app.py:4', 'app.py:5', 'app.py:6']);
    assert.deepEqual(placed.map(stepName), ['source (1 of 3)', 'step (2 of 3)', 'sink (3 of 3)']);
    assert.equal(placed[0]?.url, 'https://github.com/acme/api/blob/abc/app.py#L4');
  });

  void test('lines added above the source: every step moves down by as many, its columns kept', () => {
    const today = ['# a license header', '# of two lines', ...APP].join('\n');
    const placed = placeTrace(TRACE, mapped({ 'app.py': { today } }));
    assert.deepEqual(lines(placed), ['app.py:6', 'app.py:7', 'app.py:8']);
    const source = placed[0];
    assert.ok(source?.kind === 'here');
    assert.equal(source.range.startCharacter, 4);
    assert.equal(source.changed, false);
    assert.equal(stepPlaceText(source), 'app.py:6');
  });

  void test("typing above the steps in the open editor moves them too, on top of the commit's map", () => {
    const entry = newCommitDrift(folder, 'abc');
    entry.state = 'mapped';
    entry.files.set('app.py', fileDrift(APP, APP.join('\n')));
    const typed = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 }, isEmpty: true }, text: 'import sys\nimport re\n' };
    const document = { lineCount: APP.length, lineAt: (n: number) => ({ text: APP[n] ?? '' }) } as unknown as vscode.TextDocument;
    addEdits(entry, 'app.py', editMaps(document, [typed as unknown as vscode.TextDocumentContentChangeEvent]));
    assert.deepEqual(lines(placeTrace(TRACE, (path, range) => placeToday(entry, path, range))), ['app.py:6', 'app.py:7', 'app.py:8']);
  });

  void test('a renamed file: the steps follow it to its new name', () => {
    const placed = placeTrace(TRACE, mapped({ 'app.py': { today: APP.join('\n'), renamedTo: 'web/handlers.py' } }));
    assert.deepEqual(lines(placed), ['web/handlers.py:4', 'web/handlers.py:5', 'web/handlers.py:6']);
  });

  void test('a step whose code was deleted says so, by its scanned place; the others still move', () => {
    const today = APP.filter((line) => !line.includes('strip')).join('\n');
    const placed = placeTrace(TRACE, mapped({ 'app.py': { today } }));
    assert.deepEqual(lines(placed), ['app.py:4', 'deleted', 'app.py:5']);
    assert.equal(stepPlaceText(placed[1]), 'app.py:5 · no longer in this copy');
    const gone = placeTrace(TRACE, mapped({ 'app.py': { today: '', deleted: true } }));
    assert.deepEqual(lines(gone), ['deleted', 'deleted', 'deleted'], 'a deleted file takes every step with it');
  });

  void test("a step's own line edited: at the closest place, marked changed", () => {
    const today = APP.map((line) => (line.includes('strip') ? '    value = q.strip().lower()' : line)).join('\n');
    const placed = placeTrace(TRACE, mapped({ 'app.py': { today } }));
    assert.ok(placed[1]?.kind === 'here' && placed[1].changed);
    assert.equal(stepPlaceText(placed[1]), 'app.py:5 · code changed since the scan');
  });

  void test("not in the workspace: another repository's path or no folder for the project keeps the platform's link", () => {
    const outside = [step('source', '/srv/other/lib.py', 9, 'x = input()', 'https://github.com/acme/lib/blob/abc/lib.py#L9'), step('sink', '../escape.py', 2)];
    const placed = placeTrace(outside, mapped({}));
    assert.deepEqual(
      placed.map((p) => p.kind),
      ['elsewhere', 'elsewhere'],
    );
    assert.equal(placed[0]?.url, 'https://github.com/acme/lib/blob/abc/lib.py#L9');
    assert.equal(stepPlaceText(placed[0]), '/srv/other/lib.py:9 · not in this workspace');
    assert.deepEqual(
      placeTrace(TRACE, undefined).map((p) => p.kind),
      ['elsewhere', 'elsewhere', 'elsewhere'],
      'no folder holds the project',
    );
  });

  void test('not mapped yet (or the scanned commit is not here): at the scanned place', () => {
    assert.deepEqual(lines(placeTrace(TRACE, () => undefined)), ['app.py:4', 'app.py:5', 'app.py:6']);
  });

  void test("a step's code on one bounded line", () => {
    assert.equal(stepCode({ content: '  a =\n    b  ' }), 'a = b');
    assert.equal(stepCode({ content: 'x'.repeat(300) }, 10), `${'x'.repeat(9)}…`);
    assert.equal(stepCode({}), undefined);
  });
});
