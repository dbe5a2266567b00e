// A planned diagnostic placed in today's copy: moved with its code (and its related place),
// marked when its own code changed, dropped when deleted, left at the scan when nothing is known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlannedDiagnostic, PlannedRange } from '../../../src/core/workspace/diagnostic-plan';
import { placeDiagnostic, type Placer } from '../../../src/core/workspace/placement';
import { isMappedPlace, sourceRangeOf, type TodayPlace } from '../../../src/core/workspace/today-place';
import { sastFinding } from '../services/finding-fixtures';

const range = (line: number): PlannedRange => ({ startLine: line, startCharacter: 0, endLine: line, endCharacter: 4, wholeLine: false });
const planned: PlannedDiagnostic = {
  relativePath: 'src/app.py',
  range: range(10),
  level: 'error',
  finding: sastFinding({ file: 'src/app.py', line: 11 }),
  related: { relativePath: 'poetry.lock', range: range(3), message: 'locked here' },
};
/** A placer answering per path; paths not listed are unknown. */
const placer =
  (answers: Record<string, TodayPlace | undefined>): Placer =>
  (path) =>
    answers[path];

void test('nothing known: the scanned place holds, not changed', () => {
  const placed = placeDiagnostic(planned, placer({}));
  assert.deepEqual(placed, { planned, changed: false });
  const onlyScanned = placeDiagnostic(
    planned,
    placer({
      'src/app.py': { kind: 'scanned', relativePath: 'src/app.py', range: range(10) },
      'poetry.lock': { kind: 'scanned', relativePath: 'poetry.lock', range: range(3) },
    }),
  );
  assert.equal(onlyScanned?.planned, planned, 'a place that is only the scanned one is no news: the planned diagnostic itself');
});

void test("today's place: mapped only when drift moved it; 1-based like the scanner, a whole-line end without a column", () => {
  const moved: TodayPlace = {
    kind: 'moved',
    relativePath: 'src/main.py',
    range: { startLine: 16, startCharacter: 4, endLine: 17, endCharacter: 2, wholeLine: false },
  };
  const places: (TodayPlace | undefined)[] = [moved, { kind: 'scanned', relativePath: 'a', range: range(1) }, { kind: 'deleted' }, undefined];
  assert.deepEqual(places.map(isMappedPlace), [true, false, false, false]);
  assert.deepEqual(sourceRangeOf(moved), { filePath: 'src/main.py', line: 17, column: 5, endLine: 18, endColumn: 3 });
  const wholeLine = {
    kind: 'changed' as const,
    relativePath: 'a.py',
    range: { startLine: 2, startCharacter: 0, endLine: 3, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true },
  };
  assert.deepEqual(sourceRangeOf(wholeLine), { filePath: 'a.py', line: 3, column: 1, endLine: 4 });
});

void test('moved: the diagnostic and its related place go where their code is today', () => {
  const placed = placeDiagnostic(
    planned,
    placer({
      'src/app.py': { kind: 'moved', relativePath: 'src/main.py', range: range(17) },
      'poetry.lock': { kind: 'moved', relativePath: 'poetry.lock', range: range(5) },
    }),
  );
  assert.equal(placed?.changed, false);
  assert.equal(placed?.planned.relativePath, 'src/main.py');
  assert.deepEqual(placed?.planned.range, range(17));
  assert.deepEqual(placed?.planned.related, { relativePath: 'poetry.lock', range: range(5), message: 'locked here' });
  assert.equal(placed?.planned.finding, planned.finding);
  assert.equal(placed?.planned.level, 'error');
});

void test('its own code changed: placed at the closest match and marked changed', () => {
  const placed = placeDiagnostic(planned, placer({ 'src/app.py': { kind: 'changed', relativePath: 'src/app.py', range: range(12) } }));
  assert.equal(placed?.changed, true);
  assert.deepEqual(placed?.planned.range, range(12));
  assert.deepEqual(placed?.planned.related, planned.related, 'an unknown related place stays as scanned');
});

void test('its code deleted: no diagnostic; a deleted related place is dropped, the diagnostic kept', () => {
  assert.equal(placeDiagnostic(planned, placer({ 'src/app.py': { kind: 'deleted' } })), undefined);
  const placed = placeDiagnostic(
    planned,
    placer({ 'src/app.py': { kind: 'same', relativePath: 'src/app.py', range: range(10) }, 'poetry.lock': { kind: 'deleted' } }),
  );
  assert.ok(placed);
  assert.equal(placed.planned.related, undefined);
  assert.equal('related' in placed.planned, false);
  const { related: _related, ...withoutRelated } = planned;
  assert.deepEqual(placeDiagnostic(withoutRelated, placer({})), { planned: withoutRelated, changed: false });
});
