// The emitter every service publishes its changes through (views and diagnostics listen to it).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events';

void describe('Emitter', () => {
  void test('every listener hears each value, in the order they subscribed', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    emitter.event((v) => heard.push(`a${v}`));
    emitter.event((v) => heard.push(`b${v}`));
    emitter.fire(1);
    emitter.fire(2);
    assert.deepEqual(heard, ['a1', 'b1', 'a2', 'b2']);
  });

  void test('a listener that throws does not stop the others from hearing the change', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    emitter.event(() => {
      throw new Error('broken view');
    });
    emitter.event((v) => heard.push(v));
    assert.doesNotThrow(() => emitter.fire('changed'));
    assert.deepEqual(heard, ['changed']);
  });

  void test('a disposed subscription hears nothing more; the others still do', () => {
    const emitter = new Emitter<number>();
    const a: number[] = [];
    const b: number[] = [];
    const subA = emitter.event((v) => a.push(v));
    emitter.event((v) => b.push(v));
    emitter.fire(1);
    subA.dispose();
    emitter.fire(2);
    assert.deepEqual(a, [1]);
    assert.deepEqual(b, [1, 2]);
  });

  void test('a listener that unsubscribes while being called does not make others miss the value', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    const sub = emitter.event(() => sub.dispose());
    emitter.event((v) => heard.push(v));
    emitter.fire(7);
    assert.deepEqual(heard, [7]);
  });

  void test('after the emitter is disposed, nobody hears anything', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event((v) => heard.push(v));
    emitter.dispose();
    emitter.fire(1);
    assert.deepEqual(heard, []);
  });

  void test('fired in turns: each listener on a turn of its own, all heard when it resolves, a thrower reported', async () => {
    const errors: string[] = [];
    const emitter = new Emitter<number>((name) => errors.push(name));
    const turns: string[] = [];
    emitter.event((v) => {
      turns.push(`a${v}`);
      // Other work queued during the first listener's turn runs before the last listener's.
      setImmediate(() => turns.push('other work'));
    });
    emitter.event(function broken() {
      throw new Error('broken');
    });
    emitter.event((v) => turns.push(`b${v}`));
    let later = false;
    const unsubscribed = emitter.event(() => {
      later = true;
    });
    const fired = emitter.fireInTurns(3);
    assert.equal(turns.length, 0, 'nobody hears it in the turn that fires');
    unsubscribed.dispose();
    await fired;
    assert.deepEqual(turns, ['a3', 'other work', 'b3']);
    assert.deepEqual(errors, ['broken']);
    assert.equal(later, false, 'a listener removed before its turn is not called');
  });
});
