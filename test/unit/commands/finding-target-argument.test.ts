// The story commands' argument: automation's `{ findingId, issueType }` checked strictly (a wrong
// one refused in a sentence naming the field), a menu's or hover's item read and never refused.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findingTargetArgument, isFindingTarget } from '../../../src/commands/finding-target-argument';
import { sastFinding } from '../services/finding-fixtures';

const showTrace = findingTargetArgument('appsecFindings.showTrace', ['sast']);
const autofix = findingTargetArgument('appsecFindings.requestAutofix', ['sast', 'sca']);

void describe("the story commands' argument", () => {
  void test("automation: the finding's id (a number or digits) and a kind the command takes", () => {
    assert.deepEqual(showTrace.check({ findingId: 42, issueType: 'sast' }), { ok: true, value: { findingId: 42, issueType: 'sast' } });
    assert.deepEqual(autofix.check({ findingId: '7', issueType: 'sca' }), { ok: true, value: { findingId: 7, issueType: 'sca' } });
    assert.equal(isFindingTarget({ findingId: 1, issueType: 'sast' }), true);
  });

  void test('a wrong one is refused, naming the field', () => {
    assert.deepEqual(showTrace.check({ findingId: 'x', issueType: 'sast' }), { ok: false, problem: "findingId must be the finding's id (a whole number)." });
    assert.deepEqual(showTrace.check({ findingId: 1, issueType: 'sca' }), { ok: false, problem: "issueType takes 'sast'." });
    assert.deepEqual(autofix.check({ findingId: 1, issueType: 'secrets' }), { ok: false, problem: "issueType takes 'sast' or 'sca'." });
    assert.deepEqual(autofix.check({ findingId: 1, issueType: 'sast', force: true }), {
      ok: false,
      problem: 'appsecFindings.requestAutofix has no option "force" (it takes findingId, issueType).',
    });
  });

  void test('what a menu, quick fix or hover passes is read as an item; the selection, or nothing, is no argument', () => {
    const finding = sastFinding({ id: 5 });
    const item = showTrace.check({ finding });
    assert.ok(item.ok && item.value && !isFindingTarget(item.value) && item.value.finding === finding);
    const ref = showTrace.check({ findingRef: { issueType: 'sast', id: 5 } });
    assert.ok(ref.ok && ref.value && !isFindingTarget(ref.value) && ref.value.findingRef?.id === 5);
    assert.deepEqual(showTrace.check(undefined), { ok: true, value: undefined });
    assert.deepEqual(showTrace.check([{ finding }]), { ok: true, value: undefined });
    assert.deepEqual(showTrace.check('text'), { ok: true, value: { text: 'text' } });
    assert.equal(isFindingTarget(undefined), false);
  });
});
