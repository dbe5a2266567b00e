// The "new findings" notification: what a refresh brought that was not there, and nothing else.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NewFindingsTracker, newFindingsMessage } from '../../../src/core/workspace/new-findings';
import { sastFinding } from '../services/finding-fixtures';

void describe('NewFindingsTracker', () => {
  const a = sastFinding({ id: 1, severity: 'high' });
  const b = sastFinding({ id: 2, severity: 'critical' });
  const c = sastFinding({ id: 3, severity: 'high' });

  void test('the first answer is not news; later answers report only findings not shown before', () => {
    const tracker = new NewFindingsTracker();
    assert.deepEqual(tracker.update([{ key: 'f:main', findings: [a] }]), []);
    assert.deepEqual(
      tracker.update([{ key: 'f:main', findings: [a, b, c] }]).map((f) => f.id),
      [2, 3],
    );
    assert.deepEqual(tracker.update([{ key: 'f:main', findings: [a, b, c] }]), [], 'the same answer again');
  });

  void test('a branch switch starts afresh; fixed or ignored findings are never news; clear forgets', () => {
    const tracker = new NewFindingsTracker();
    tracker.update([{ key: 'f:main', findings: [a] }]);
    assert.deepEqual(tracker.update([{ key: 'f:feature', findings: [a, b] }]), [], 'another branch: a first answer');
    assert.deepEqual(tracker.update([{ key: 'f:feature', findings: [a, b, sastFinding({ id: 9, status: 'fixed' })] }]), []);
    tracker.clear();
    assert.deepEqual(tracker.update([{ key: 'f:feature', findings: [a, b, c] }]), []);
  });

  void test('tens of thousands are compared in slices; a comparison given up half way records nothing', () => {
    const many = Array.from({ length: 25_000 }, (_, i) => sastFinding({ id: 100 + i }));
    const tracker = new NewFindingsTracker();
    tracker.update([{ key: 'f:main', findings: many.slice(0, 20_000) }]);
    const steps = tracker.updateSteps([{ key: 'f:main', findings: many }]);
    let pauses = 0;
    let step = steps.next();
    while (!step.done && pauses < 1) {
      pauses++;
      step = steps.next();
    }
    assert.equal(step.done, false, 'still comparing after the first slice');
    // Given up: the next comparison still sees only the first 20 000 as shown.
    const sliced = tracker.updateSteps([{ key: 'f:main', findings: many }]);
    let slices = 0;
    let result = sliced.next();
    while (!result.done) {
      slices++;
      result = sliced.next();
    }
    assert.ok(slices >= 2, `paused between slices (${slices})`);
    assert.equal(result.value.length, 5_000, 'the 5 000 not shown before are news');
    assert.deepEqual(tracker.update([{ key: 'f:main', findings: many }]), [], 'and are recorded once compared to the end');
  });

  void test('the message counts by severity, most severe first', () => {
    assert.equal(newFindingsMessage([c, b, a], 'main'), '3 new findings on main: 1 critical, 2 high');
    assert.equal(newFindingsMessage([b], undefined), '1 new finding: 1 critical');
  });
});
