// Long work in slices: run at once, or a slice per turn of the event loop, given up when a newer
// piece of work takes over.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs';
import { nextTurn, runAtOnce, runInSlices, type Slices } from '../../../src/core/slices';

function* countTo(n: number, done: number[]): Slices<number> {
  for (let i = 1; i <= n; i++) {
    done.push(i);
    if (i < n) yield;
  }
  return n;
}

void describe('slices', () => {
  void test('at once and in slices give the same result; in slices, other work runs between them', async () => {
    assert.equal(runAtOnce(countTo(3, [])), 3);
    const order: string[] = [];
    const done: number[] = [];
    const running = runInSlices(countTo(3, done));
    setImmediate(() => order.push(`other work after slice ${done.length}`));
    assert.equal(await running, 3);
    // Queued after the first slice, it runs before the second.
    assert.deepEqual(order, ['other work after slice 1']);
  });

  void test('a turn given away from an I/O callback lets a timer that is due run first', async () => {
    // The extension host answers its window and other extensions between slices only if the
    // loop goes round; from an I/O callback a single immediate would run before any timer.
    const order = await new Promise<string[]>((resolve, reject) => {
      readFile(__filename, (error) => {
        if (error) return reject(error);
        const seen: string[] = [];
        setTimeout(() => seen.push('timer'), 0);
        const until = Date.now() + 5;
        while (Date.now() < until); // the timer is now due
        void nextTurn().then(() => {
          seen.push('next slice');
          resolve(seen);
        });
      });
    });
    assert.deepEqual(order, ['timer', 'next slice']);
  });

  void test('given up between slices as soon as it is no longer wanted: undefined, the rest not run', async () => {
    const done: number[] = [];
    let wanted = true;
    const running = runInSlices(countTo(5, done), () => wanted);
    wanted = false;
    assert.equal(await running, undefined);
    assert.deepEqual(done, [1]);
  });
});
