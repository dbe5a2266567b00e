// What a rule mode change is checked against before it is sent, and what the confirmation tells
// a person about it: the rule, the policy, both modes and what each does to pull requests.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SETTABLE_RULE_MODES } from '../../../src/core/api/platform-changes';
import {
  modeConsequence,
  modeLabel,
  policyIdProblem,
  RULE_MODE_NAMES,
  ruleModeConfirmation,
  ruleModeInputProblem,
  rulePathProblem,
  settableMode,
} from '../../../src/core/services/rule-modes';

/** The problem as the log reads it (the user reads it in their language: the same in an English run). */
const ruleModeProblem = (policyId: string, rulePath: string, mode?: string): string | undefined => ruleModeInputProblem(policyId, rulePath, mode)?.english;
import { modeLabel as labelOfService } from '../../../src/core/services/policies-service';

void describe('rule modes', () => {
  void test("automation's words name the platform's modes one to one, in the menu's order", () => {
    assert.deepEqual(RULE_MODE_NAMES.map(settableMode), [...SETTABLE_RULE_MODES]);
    assert.deepEqual(SETTABLE_RULE_MODES.map(modeLabel), [...RULE_MODE_NAMES]);
    assert.equal(labelOfService, modeLabel, 'one label, wherever it is imported from');
  });

  void test('a change the platform would refuse is said before it is sent', () => {
    assert.equal(ruleModeProblem('12', 'python.lang.eval', 'MODE_BLOCK'), undefined);
    assert.equal(ruleModeProblem('12', 'python.lang.eval'), undefined, 'naming the rule alone');
    assert.match(ruleModeProblem('', 'a.b', 'MODE_BLOCK') ?? '', /"" is not a policy's id/);
    assert.match(ruleModeProblem('1/2', 'a.b') ?? '', /policy's id/, 'a slash would name another path');
    assert.match(ruleModeProblem('12', '\t') ?? '', /rule's path/);
    assert.match(
      ruleModeProblem('12', 'a.b', 'MODE_UNSPECIFIED') ?? '',
      /"MODE_UNSPECIFIED" is not a mode a rule can be set to \(MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED\)/,
    );
    assert.match(ruleModeProblem('', '', 'block') ?? '', /"block" is not a mode/, 'the mode is said first');
    assert.equal(policyIdProblem('8712'), undefined);
    assert.equal(rulePathProblem('generic.secrets.security.detected-aws-access-key'), undefined);
  });

  void test('each mode says what it does to pull requests; a mode the spec does not list is named as it came', () => {
    assert.match(modeConsequence('MODE_BLOCK'), /fail the pull request's check and block the merge/);
    assert.match(modeConsequence('MODE_COMMENT'), /posted as comments on pull requests/);
    assert.match(modeConsequence('MODE_MONITOR'), /recorded on the platform only, not shown in pull requests/);
    assert.match(modeConsequence('MODE_DISABLED'), /no longer runs/);
    assert.match(modeConsequence('MODE_SHINY_NEW'), /MODE_SHINY_NEW/);
    assert.equal(new Set(SETTABLE_RULE_MODES.map(modeConsequence)).size, 4, 'four different sentences');
  });

  void test('the confirmation names the rule, the policy, the old and the new mode, and that every pull request changes', () => {
    const asked = ruleModeConfirmation('python.lang.security.audit.eval', 'Default Policy', 'MODE_COMMENT', 'MODE_BLOCK');
    assert.equal(asked.message, 'Set python.lang.security.audit.eval to block mode in Default Policy?');
    assert.equal(asked.confirm, 'Set to Block');
    assert.match(asked.detail, /every pull request of the organization that Default Policy scans/);
    assert.match(asked.detail, /Now, in comment mode: findings of this rule are posted as comments/);
    assert.match(asked.detail, /In block mode: findings of this rule fail the pull request's check and block the merge\./);
    const disabling = ruleModeConfirmation('a.b', 'P', 'MODE_UNSPECIFIED', 'MODE_DISABLED');
    assert.equal(disabling.confirm, 'Set to Disabled');
    assert.match(disabling.detail, /Now, in MODE_UNSPECIFIED mode/);
    assert.match(disabling.detail, /the rule no longer runs/);
  });
});
