// Problems gets every diagnostic only if no `set` call carries more than VS Code passes on to
// the window; the batches keep the files' order and never split a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIAGNOSTICS_PER_SET, setBatches, type FileEntry } from '../../../src/core/workspace/set-batches';

const file = (name: string, count: number | undefined): FileEntry<string, number> => [
  name,
  count === undefined ? undefined : Array.from({ length: count }, (_, i) => i),
];
const sizes = (batches: FileEntry<string, number>[][]): number[] => batches.map((b) => b.reduce((n, [, list]) => n + (list?.length ?? 1), 0));

test('2 500 files of 16 diagnostics go in sets of at most 1 000, every file once and in order', () => {
  const entries = Array.from({ length: 2500 }, (_, i) => file(`f${i}`, 16));
  const batches = setBatches(entries);
  assert.ok(
    sizes(batches).every((n) => n <= DIAGNOSTICS_PER_SET),
    `largest set ${Math.max(...sizes(batches))}`,
  );
  assert.ok(DIAGNOSTICS_PER_SET <= 1100, 'under what VS Code passes on from one set');
  assert.deepEqual(
    batches.flat().map(([name]) => name),
    entries.map(([name]) => name),
  );
  assert.equal(batches.length, Math.ceil(2500 / Math.floor(DIAGNOSTICS_PER_SET / 16)));
});

test('a file with more than the limit is a set of its own, between its neighbours', () => {
  const batches = setBatches([file('a', 10), file('big', 1500), file('b', 10)], 1000);
  assert.deepEqual(
    batches.map((b) => b.map(([name]) => name)),
    [['a'], ['big'], ['b']],
  );
});

test('files cleared (undefined) count as one; empty lists as none; nothing gives no set', () => {
  assert.deepEqual(sizes(setBatches([file('a', undefined), file('b', 0), file('c', 3)], 4)), [4]);
  assert.deepEqual(
    setBatches([file('a', undefined), file('b', 3), file('c', 1)], 3).map((b) => b.map(([n]) => n)),
    [['a'], ['b'], ['c']],
  );
  assert.deepEqual(setBatches([]), []);
});
