// The one cancellation adapter: a VS Code token becomes an AbortSignal for as long as the work
// runs, and its listener is gone afterwards (a progress notification's token lives long).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { withAbortSignal, type CancellationTokenLike } from '../../../src/host/cancellation';

/** A token as VS Code's behaves: listeners added and disposed, `cancel()` calls those still there. */
function token(cancelled = false): CancellationTokenLike & { cancel(): void; readonly listeners: number } {
  const listeners = new Set<() => unknown>();
  let requested = cancelled;
  return {
    get isCancellationRequested() {
      return requested;
    },
    get listeners() {
      return listeners.size;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    cancel() {
      requested = true;
      for (const listener of [...listeners]) listener();
    },
  };
}

void describe('withAbortSignal', () => {
  void test('the listener is disposed when the work ends, resolved or rejected', async () => {
    const t = token();
    assert.equal(
      await withAbortSignal(t, (signal) => {
        assert.equal(t.listeners, 1, 'listening while the work runs');
        assert.equal(signal.aborted, false);
        return Promise.resolve('done');
      }),
      'done',
    );
    assert.equal(t.listeners, 0, 'no listener left after the work resolved');
    await assert.rejects(
      withAbortSignal(t, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.equal(t.listeners, 0, 'no listener left after the work rejected');
  });

  void test('a hundred calls on one long-lived token leave no listener behind', async () => {
    const t = token();
    for (let i = 0; i < 100; i++) await withAbortSignal(t, () => Promise.resolve(i));
    assert.equal(t.listeners, 0);
  });

  void test('cancelling the token aborts the signal while the work runs', async () => {
    const t = token();
    const seen = await withAbortSignal(t, (signal) => {
      t.cancel();
      return Promise.resolve(signal.aborted);
    });
    assert.equal(seen, true);
    assert.equal(t.listeners, 0);
  });

  void test('a token cancelled before the work starts gives an aborted signal', async () => {
    assert.equal(await withAbortSignal(token(true), (signal) => Promise.resolve(signal.aborted)), true);
  });

  void test('with another signal, either one aborts the work (AbortSignal.any)', async () => {
    const other = new AbortController();
    const t = token();
    const aborted = await withAbortSignal(
      t,
      (signal) => {
        other.abort();
        return Promise.resolve(signal.aborted);
      },
      other.signal,
    );
    assert.equal(aborted, true);
    assert.equal(t.listeners, 0);
    assert.equal(await withAbortSignal(token(), (signal) => Promise.resolve(signal.aborted), new AbortController().signal), false);
  });
});
