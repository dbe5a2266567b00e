// "It did not sit out the wait" without measuring time: the order of two events. A timer of the
// wait's length, set before the call starts (so before the code under test begins its own wait),
// fires first only if the code sat the wait out, or if the whole process stood still that long,
// which a busy machine does not do. A slow machine makes the call take longer, not the timer
// come sooner.
import assert from 'node:assert/strict';

/**
 * Sets a timer of `waitMs`, then runs `call` and awaits it; fails with `what` if the timer fired
 * before the call settled. Resolves or rejects as the call does otherwise.
 */
export async function beforeTimer<T>(call: () => Promise<T>, waitMs: number, what: string): Promise<T> {
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
  }, waitMs);
  try {
    return await call();
  } finally {
    clearTimeout(timer);
    assert.ok(!fired, `${what}: a timer of the ${waitMs} ms wait, set before the call, fired first`);
  }
}
