// Policies and their rules: which policies are shown (platform, findings, settings), and every
// rule of a policy through the real client's cursor paging against the local platform.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { PoliciesService, mergePolicies, modeLabel } from '../../../src/core/services/policies-service';
import type { Policy } from '../../../src/core/model/policy';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { sastFinding } from './finding-fixtures';
import { queryOf, startHarness, type Harness } from './platform-harness';

void describe('mergePolicies', () => {
  const listed: Policy[] = [
    { id: '7', name: 'Default Policy', slug: 'default-policy', isDefault: true },
    { id: '9', name: 'Blocking', slug: 'blocking', isDefault: false },
  ];

  void test("the platform's list, plus policies named by findings and by settings, each once", () => {
    const findings = [
      sastFinding({ policy: { id: 9, name: 'Blocking (from a finding)', slug: 'blocking' } }),
      sastFinding({ policy: { id: 12, name: 'Audit', slug: 'audit' } }),
      sastFinding({ policy: { id: 12, name: 'Audit', slug: 'audit' } }),
      sastFinding(),
    ];
    const merged = mergePolicies(listed, findings, ['7', '30', '12']);
    assert.deepEqual(
      merged.map((e) => [e.policy.id, e.policy.name, e.origin]),
      [
        ['7', 'Default Policy', 'platform'],
        ['12', 'Audit', 'findings'],
        ['9', 'Blocking', 'platform'],
        ['30', 'Policy 30', 'settings'],
      ],
    );
  });

  void test('the default policy comes first, the others by name', () => {
    const merged = mergePolicies(
      [
        { id: '1', name: 'Zeta', slug: 'z', isDefault: false },
        { id: '2', name: 'alpha', slug: 'a', isDefault: false },
        { id: '3', name: 'Main', slug: 'm', isDefault: true },
      ],
      [],
      [],
    );
    assert.deepEqual(
      merged.map((e) => e.policy.name),
      ['Main', 'alpha', 'Zeta'],
    );
  });

  void test('setting ids that are not numbers are ignored', () => {
    assert.deepEqual(mergePolicies([], [], ['abc', '', '12a', '-1']).length, 0);
  });

  void test('with nothing listed (the list endpoint failed), findings and settings still give policies', () => {
    const merged = mergePolicies([], [sastFinding({ policy: { id: 5, name: 'From findings', slug: 'ff' } })], ['6']);
    assert.deepEqual(
      merged.map((e) => e.origin),
      ['findings', 'settings'],
    );
  });
});

void describe('modeLabel', () => {
  void test('the rule modes read as the web UI names them; new modes are shown as they came', () => {
    assert.deepEqual(['MODE_MONITOR', 'MODE_COMMENT', 'MODE_BLOCK', 'MODE_DISABLED', 'MODE_SHINY_NEW', ''].map(modeLabel), [
      'monitor',
      'comment',
      'block',
      'disabled',
      'MODE_SHINY_NEW',
      'unknown mode',
    ]);
  });
});

void describe('PoliciesService (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let policy: Policy;
  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 0, scaPerProject: 0, policies: 2, rulesPerPolicy: 1100 });
    h = await startHarness({ data });
    const first = data.policies[0];
    assert.ok(first?.id);
    policy = { id: first.id, name: 'stub', slug: 'stub', isDefault: false };
  });
  after(() => h.close());
  beforeEach(() => h.server.faults.clear());

  const service = (deploymentId: () => string | undefined = () => '4242'): PoliciesService => {
    const client = h.client();
    return new PoliciesService(() => client, deploymentId);
  };

  void test('loadRules follows the cursor to the last page and reads the policy from the platform', async () => {
    const s = service();
    const mark = h.mark();
    const result = await s.loadRules(policy);
    const expected = data.rulesByPolicyId.get(policy.id) ?? [];
    assert.equal(result.rules.length, 1100);
    assert.deepEqual(
      result.rules.map((r) => r.id),
      expected.map((r) => r.id),
    );
    assert.equal(result.skipped, 0);
    assert.equal(result.policy.name, data.policies[0]?.name, 'the name the platform gives, not the placeholder');
    const pages = h.requestsSince(mark, `/policies/${policy.id}`).map(queryOf);
    assert.equal(pages.length, 3);
    assert.equal(pages[0]?.get('cursor') ?? '', '');
    assert.ok(pages.slice(1).every((q) => (q.get('cursor') ?? '') !== ''));
    assert.ok(pages.every((q) => q.get('limit') === '500'));
  });

  void test('rules of a policy are loaded once; other policies separately', async () => {
    const s = service();
    const mark = h.mark();
    const [a, b] = await Promise.all([s.loadRules(policy), s.loadRules(policy)]);
    assert.equal(a, b);
    assert.equal(await s.loadRules(policy), a);
    assert.equal(h.requestsSince(mark, `/policies/${policy.id}`).length, 3);
    const otherId = data.policies[1]?.id ?? '';
    const other = await s.loadRules({ ...policy, id: otherId });
    assert.equal(other.rules.length, 1100);
    assert.notDeepEqual(
      other.rules.map((r) => r.id),
      a.rules.map((r) => r.id),
    );
  });

  void test('a failed rule load is not remembered; clear forgets loaded rules', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: `/policies/${policy.id}` });
    await assert.rejects(s.loadRules(policy), (e: unknown) => PlatformError.is(e, 'server'));
    const ok = await s.loadRules(policy);
    assert.equal(ok.rules.length, 1100);
    let changed = 0;
    s.onDidChange(() => changed++);
    s.clear();
    assert.equal(changed, 1);
    const mark = h.mark();
    await s.loadRules(policy);
    assert.equal(h.requestsSince(mark, `/policies/${policy.id}`).length, 3);
  });

  void test('an unknown policy gives a not-found error', async () => {
    await assert.rejects(service().loadRules({ ...policy, id: '999999' }), (e: unknown) => PlatformError.is(e, 'notFound'));
  });

  void test("listPolicies lists the platform's policies once, and asks again after a failure", async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/policies' });
    await assert.rejects(s.listPolicies(), (e: unknown) => PlatformError.is(e, 'server'));
    const mark = h.mark();
    const listed = (await s.listPolicies()).policies;
    assert.deepEqual(
      listed.map((p) => [p.id, p.name, p.isDefault]),
      data.policies.map((p) => [p.id, p.name, p.isDefault]),
    );
    assert.equal((await s.listPolicies()).policies, listed);
    assert.equal(h.requestsSince(mark, '/policies').length, 1);
  });

  void test('during an outage after a refresh, the last list stays, marked stale; sign-out forgets it', async () => {
    const s = service();
    const listed = (await s.listPolicies()).policies;
    s.expire();
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/policies' }, 5);
    const during = await s.listPolicies();
    assert.equal(during.policies, listed, 'the policies listed before are still shown');
    assert.ok(PlatformError.is(during.staleBecause, 'server'));
    h.server.faults.clear();
    assert.equal((await s.listPolicies()).staleBecause, undefined, 'the next look asks again and is fresh');
    s.clear();
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/policies' }, 5);
    await assert.rejects(s.listPolicies(), (e: unknown) => PlatformError.is(e, 'server'));
    h.server.faults.clear();
  });

  void test('without a deployment: no policies and no request; rules say to sign in', async () => {
    const s = service(() => undefined);
    const mark = h.mark();
    assert.deepEqual(await s.listPolicies(), { policies: [] });
    await assert.rejects(s.loadRules(policy), /Not signed in/);
    assert.equal(h.mark(), mark);
  });
});
