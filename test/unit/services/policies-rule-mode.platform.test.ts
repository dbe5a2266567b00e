// A rule's mode as the Policy Rules view shows it: the change shows at once (one change event),
// stays with the platform's rule when accepted, and when refused the very objects shown before
// come back (one more event). Input the platform would refuse, unknown policies and rules, and
// the mode a rule already has send nothing. Real client, real local platform.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import type { Policy, PolicyRule } from '../../../src/core/model/policy';
import { PoliciesService, type PolicyRules } from '../../../src/core/services/policies-service';
import { RuleModeInputError } from '../../../src/core/services/rule-modes';
import type { SettableRuleMode } from '../../../src/core/api/platform-changes';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, until, type Harness } from './platform-harness';

void describe("setting a rule's mode (policies service, real client, local platform)", () => {
  let h: Harness;
  let data: PlatformData;
  let deploymentId: string;
  let policy: Policy;

  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 0, scaPerProject: 0, policies: 2, rulesPerPolicy: 20 });
    h = await startHarness({ data });
    deploymentId = String(data.deployment.id);
    const first = data.policies[0];
    assert.ok(first?.id);
    policy = { id: first.id, name: 'stand-in', slug: 'stand-in', isDefault: false };
  });
  after(() => h.close());
  beforeEach(() => {
    h.server.faults.clear();
    h.server.setReadOnly(false);
  });

  /** A service and what it showed at each change event (the rules of `policy` then). */
  const setup = () => {
    const client = h.client();
    const service = new PoliciesService(
      () => client,
      () => deploymentId,
    );
    const shown: Promise<PolicyRules>[] = [];
    service.onDidChange(() => shown.push(service.loadRules(policy)));
    return { service, shown };
  };
  const puts = (mark: number) => h.requestsSince(mark, '/policies/').filter((r) => r.method === 'PUT');
  /** A rule of the loaded policy whose mode is not `mode`. */
  const ruleNotIn = (loaded: PolicyRules, mode: SettableRuleMode, skip = 0): PolicyRule => {
    const rule = loaded.rules.filter((r) => r.mode !== mode)[skip];
    assert.ok(rule, `a rule not in ${mode}`);
    return rule;
  };
  const platformMode = (path: string): string | undefined => data.rulesByPolicyId.get(policy.id)?.find((r) => r.path === path)?.policyMode;

  test("shown at once with one event, kept with the platform's rule when accepted; the platform and the next load agree", async () => {
    const { service, shown } = setup();
    const loaded = await service.loadRules(policy);
    const rule = ruleNotIn(loaded, 'MODE_BLOCK');
    h.server.faults.inject({ kind: 'delay', ms: 200 }, { method: 'PUT' });
    const mark = h.mark();
    const pending = service.setRuleMode(policy.id, rule.path, 'MODE_BLOCK');
    await until(() => shown.length === 1);
    const during = await shown[0];
    assert.notEqual(during, loaded, 'a new rules object, so the view redraws');
    assert.equal(during?.rules.find((r) => r.path === rule.path)?.mode, 'MODE_BLOCK', 'shown in its new mode before the answer');
    assert.equal(
      during?.rules.filter((r) => r.path !== rule.path).every((r, i) => r === loaded.rules.filter((x) => x.path !== rule.path)[i]),
      true,
      'the other rules are the same objects',
    );
    assert.equal(
      loaded.rules.find((r) => r.path === rule.path),
      rule,
      'the rules shown before are left as they were',
    );
    const change = await pending;
    assert.equal(change.sent, true);
    assert.equal(change.before, rule);
    assert.equal(change.rule.mode, 'MODE_BLOCK');
    assert.equal(change.rule.lastChangeBy, 'api-token', "the platform's rule is kept (it says who changed it)");
    assert.equal(shown.length, 2, "one event at once, one when the platform's rule replaced ours");
    assert.equal(
      (await shown[1])?.rules.find((r) => r.path === rule.path),
      change.rule,
    );
    assert.equal(puts(mark).length, 1);
    assert.deepEqual(JSON.parse(puts(mark)[0]?.body ?? '{}'), { rulePath: rule.path, policyMode: 'MODE_BLOCK' });
    assert.equal(platformMode(rule.path), 'MODE_BLOCK', 'the platform holds the new mode');
    service.expire();
    assert.equal((await service.loadRules(policy)).rules.find((r) => r.path === rule.path)?.mode, 'MODE_BLOCK', 'loaded again: the same mode');
    service.dispose();
  });

  test('an answer without a readable rule: the mode asked for stands, with no second event', async () => {
    const { service, shown } = setup();
    const loaded = await service.loadRules(policy);
    const rule = ruleNotIn(loaded, 'MODE_MONITOR');
    h.server.faults.inject({ kind: 'status', status: 200, body: '{"policyId":"1"}' }, { method: 'PUT' });
    const change = await service.setRuleMode(policy.id, rule.path, 'MODE_MONITOR');
    assert.deepEqual(change.rule, { ...rule, mode: 'MODE_MONITOR' });
    assert.equal(shown.length, 1);
    assert.equal(
      (await shown[0])?.rules.find((r) => r.path === rule.path),
      change.rule,
    );
    service.dispose();
  });

  test('refused (a role that may not change policies, 403): the very same objects come back, one event each way, and the error says the role', async () => {
    const { service, shown } = setup();
    const loaded = await service.loadRules(policy);
    const rule = ruleNotIn(loaded, 'MODE_DISABLED');
    const before = platformMode(rule.path);
    h.server.setReadOnly(true);
    const mark = h.mark();
    await assert.rejects(service.setRuleMode(policy.id, rule.path, 'MODE_DISABLED'), (error: unknown) => {
      assert.ok(PlatformError.is(error, 'forbidden'));
      assert.match(error.message, /token's role does not allow changing the mode of /);
      assert.ok(error.message.includes(rule.path), 'the message names the rule');
      return true;
    });
    assert.equal(puts(mark).length, 1, 'asked once');
    assert.equal(shown.length, 2, 'one event for the change, one for putting it back');
    assert.equal((await shown[0])?.rules.find((r) => r.path === rule.path)?.mode, 'MODE_DISABLED', 'it was shown');
    const now = await service.loadRules(policy);
    assert.strictEqual(now, loaded, 'the very same rules object');
    assert.strictEqual(await shown[1], loaded);
    assert.strictEqual(
      now.rules.find((r) => r.path === rule.path),
      rule,
      'the very same rule object',
    );
    assert.equal(platformMode(rule.path), before, 'nothing changed on the platform');
    service.dispose();
  });

  test('refused while another rule of the policy changed: only the refused rule goes back, to its own object', async () => {
    const { service } = setup();
    const loaded = await service.loadRules(policy);
    const refused = ruleNotIn(loaded, 'MODE_COMMENT', 0);
    const accepted = ruleNotIn(loaded, 'MODE_COMMENT', 1);
    // The first change waits at the platform while the second is accepted; then the role changes.
    h.server.faults.inject({ kind: 'delay', ms: 300 }, { method: 'PUT' }, 1);
    const mark = h.mark();
    const first = service.setRuleMode(policy.id, refused.path, 'MODE_COMMENT');
    await until(() => puts(mark).length === 1);
    await service.setRuleMode(policy.id, accepted.path, 'MODE_COMMENT');
    h.server.setReadOnly(true);
    await assert.rejects(first, (e: unknown) => PlatformError.is(e, 'forbidden'));
    const now = await service.loadRules(policy);
    assert.strictEqual(
      now.rules.find((r) => r.path === refused.path),
      refused,
    );
    assert.equal(now.rules.find((r) => r.path === accepted.path)?.mode, 'MODE_COMMENT');
    service.dispose();
  });

  test('input the platform would refuse is refused before any request, naming what is wrong', async () => {
    const { service, shown } = setup();
    const mark = h.mark();
    const cases: [string, string, string, RegExp][] = [
      ['', 'a.b', 'MODE_BLOCK', /policy's id/],
      ['1 2', 'a.b', 'MODE_BLOCK', /policy's id/],
      [policy.id, ' ', 'MODE_BLOCK', /rule's path/],
      [policy.id, 'a b', 'MODE_BLOCK', /rule's path/],
      [policy.id, 'a.b', 'MODE_LOUD', /MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED/],
      [policy.id, 'a.b', 'MODE_UNSPECIFIED', /not a mode a rule can be set to/],
    ];
    for (const [policyId, rulePath, mode, message] of cases) {
      await assert.rejects(
        service.setRuleMode(policyId, rulePath, mode as SettableRuleMode),
        (e: unknown) => e instanceof RuleModeInputError && message.test(e.message),
      );
    }
    assert.equal(h.server.requests.length, mark, 'no request at all');
    assert.equal(shown.length, 0, 'nothing shown');
    const signedOut = new PoliciesService(
      () => h.client(),
      () => undefined,
    );
    await assert.rejects(signedOut.setRuleMode(policy.id, 'a.b', 'MODE_BLOCK'), /Sign in/);
    assert.equal(h.server.requests.length, mark);
    service.dispose();
    signedOut.dispose();
  });

  test('a policy not loaded yet is loaded first; unknown policies (404) and rules are clear errors, with no change sent', async () => {
    const { service, shown } = setup();
    const other = data.policies[1];
    assert.ok(other?.id);
    const path = data.rulesByPolicyId.get(other.id)?.find((r) => r.policyMode !== 'MODE_COMMENT')?.path;
    assert.ok(path);
    const mark = h.mark();
    const change = await service.setRuleMode(other.id, path, 'MODE_COMMENT');
    assert.equal(change.policy.name, other.name, "the policy as its rules' answer names it");
    assert.equal(h.requestsSince(mark, `/policies/${other.id}`).filter((r) => r.method === 'GET').length, 1, 'its rules were loaded once');
    assert.equal(puts(mark).length, 1);

    const events = shown.length;
    const unknownMark = h.mark();
    await assert.rejects(
      service.setRuleMode('999999', 'a.b', 'MODE_BLOCK'),
      (e: unknown) => e instanceof RuleModeInputError && /no policy 999999/.test(e.message),
    );
    await assert.rejects(
      service.setRuleMode(policy.id, 'no.such.rule', 'MODE_BLOCK'),
      (e: unknown) => e instanceof RuleModeInputError && /has no rule no\.such\.rule/.test(e.message),
    );
    h.server.faults.inject({ kind: 'status', status: 400, body: '{"error":"bad"}' }, { method: 'GET', pathIncludes: '/policies/424242' });
    await assert.rejects(
      service.setRuleMode('424242', 'a.b', 'MODE_BLOCK'),
      (e: unknown) => PlatformError.is(e, 'badRequest'),
      "other failures to load are the platform's own",
    );
    assert.equal(puts(unknownMark).length, 0, 'no change sent');
    assert.equal(shown.length, events, 'nothing more shown');
    service.dispose();
  });

  test('the mode a rule already has: nothing sent, nothing shown', async () => {
    const { service, shown } = setup();
    const loaded = await service.loadRules(policy);
    const rule = loaded.rules[0];
    assert.ok(rule);
    const mark = h.mark();
    const change = await service.setRuleMode(policy.id, rule.path, rule.mode as SettableRuleMode);
    assert.equal(change.sent, false);
    assert.equal(change.rule, rule);
    assert.equal(h.server.requests.length, mark, 'no request');
    assert.equal(shown.length, 0);
    assert.strictEqual(await service.loadRules(policy), loaded);
    service.dispose();
  });

  test('a refresh while the change is on its way: what was loaded again is kept, whatever the answer', async () => {
    const { service } = setup();
    const loaded = await service.loadRules(policy);
    const rule = ruleNotIn(loaded, 'MODE_MONITOR', 2);
    h.server.setReadOnly(true);
    h.server.faults.inject({ kind: 'delay', ms: 150 }, { method: 'PUT' });
    const mark = h.server.requests.length;
    const pending = service.setRuleMode(policy.id, rule.path, 'MODE_MONITOR');
    // The change has reached the platform, whose answer is held back: the refresh comes meanwhile.
    await until(() => h.server.requests.slice(mark).some((r) => r.method === 'PUT'));
    service.expire();
    const reloaded = await service.loadRules(policy);
    await assert.rejects(pending);
    assert.strictEqual(await service.loadRules(policy), reloaded, 'not replaced by the rules from before the refresh');
    service.dispose();
  });
});
