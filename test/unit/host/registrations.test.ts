// Activation as a list of feature registrations: each runs once, in order, sees what the ones
// before it returned, and is timed as a User Timing measure the in-host bench reads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { ACTIVATION_MEASURE, activationText, registerFeatures, type ActivationCost } from '../../../src/host/registrations';
import { ACTIVATION_PROFILE_MARK, activationCost } from '../../integration/suite/activation-cost';

function context(): vscode.ExtensionContext {
  return { subscriptions: [] } as unknown as vscode.ExtensionContext;
}

describe('feature registrations', () => {
  test('each runs once, in order, with what the ones before it returned and the same context', () => {
    const ctx = context();
    const ran: string[] = [];
    const deps = registerFeatures(ctx)
      .add('first', (c, d) => {
        assert.equal(c, ctx);
        assert.deepEqual(d, {});
        ran.push('first');
        c.subscriptions.push({ dispose: () => undefined });
        return { a: 1 };
      })
      .add('second', (_c, d) => {
        ran.push(`second saw a=${d.a}`);
        return { b: String(d.a + 1) };
      })
      .add('third', (_c, { a, b }) => {
        ran.push(`third saw a=${a} b=${b}`);
        return {};
      })
      .done();
    assert.deepEqual(ran, ['first', 'second saw a=1', 'third saw a=1 b=2']);
    assert.deepEqual(deps, { a: 1, b: '2' });
    assert.equal(ctx.subscriptions.length, 1);
  });

  test('done tells what activation cost, feature by feature, and leaves measures on the timeline', () => {
    performance.clearMeasures();
    let told: ActivationCost | undefined;
    let toldDeps: unknown;
    registerFeatures(context())
      .add('slow', () => {
        const until = performance.now() + 5;
        while (performance.now() < until) {
          /* busy: CPU time to count */
        }
        return { x: true };
      })
      .add('quick', () => ({}))
      .done((cost, deps) => {
        told = cost;
        toldDeps = deps;
      });
    assert.ok(told);
    assert.deepEqual(
      told.features.map(([name]) => name),
      ['slow', 'quick'],
    );
    assert.ok((told.features[0]?.[1] ?? 0) >= 5, 'the slow feature took its 5 ms');
    assert.ok(told.ms >= told.features.reduce((sum, [, ms]) => sum + ms, 0), 'the whole is at least the sum of its features');
    assert.ok(told.cpuMs > 0, 'CPU time is counted');
    assert.deepEqual(toldDeps, { x: true });
    const whole = performance.getEntriesByName(ACTIVATION_MEASURE, 'measure');
    assert.equal(whole.length, 1);
    assert.equal(whole[0]?.duration, told.ms);
    assert.deepEqual((whole[0] as unknown as { detail: unknown }).detail, { cpuMs: told.cpuMs });
    const parts = performance
      .getEntriesByType('measure')
      .filter((e) => e.name.startsWith(`${ACTIVATION_MEASURE}: `))
      .map((e) => e.name);
    assert.deepEqual(parts, [`${ACTIVATION_MEASURE}: slow`, `${ACTIVATION_MEASURE}: quick`]);
  });

  test("the in-host bench reads the last activation back from the timeline, with a profiled build's profile", () => {
    performance.clearMeasures();
    performance.clearMarks();
    assert.throws(() => activationCost(), /has not activated/);
    let told: ActivationCost | undefined;
    registerFeatures(context())
      .add('one', () => ({}))
      .add('two', () => ({}))
      .done((cost) => (told = cost));
    performance.mark(ACTIVATION_PROFILE_MARK, { detail: { nodes: [] } });
    const read = activationCost();
    assert.ok(told);
    assert.equal(read.ms, told.ms);
    assert.equal(read.cpuMs, told.cpuMs);
    assert.deepEqual(
      read.phases.map(([name]) => name),
      ['one', 'two'],
    );
    assert.ok(
      read.phases.every(([, end], i, all) => end >= 0 && end <= read.ms + 1e-9 && (i === 0 || end >= (all[i - 1]?.[1] ?? 0))),
      'each phase ends in order, within the whole',
    );
    assert.deepEqual(read.profile, { nodes: [] });
  });

  test('the log line names the whole, its CPU time and each feature', () => {
    assert.equal(
      activationText({
        ms: 12.34,
        cpuMs: 10.06,
        features: [
          ['services', 3],
          ['views', 2.25],
        ],
      }),
      '12.3 ms (CPU 10.1 ms): services 3.0, views 2.3',
    );
  });
});
