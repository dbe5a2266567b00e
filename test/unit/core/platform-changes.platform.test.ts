// The client's changes to settings, over HTTP against the local platform: what each sends, what
// it reads from each answer the service may give (including the undocumented ones), what it
// refuses before sending, and that a refused change is the token's role (403).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from '../services/platform-harness';

void describe('changes to settings (client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let slug: string;
  let id: string;

  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 10, scaPerProject: 2, refsPerProject: 3 });
    data.projects[1].name = 'group/sub/repo';
    h = await startHarness({ data });
    slug = data.deployment.slug;
    id = String(data.deployment.id);
  });
  after(() => h.close());

  const last = (part: string) => h.server.requests.filter((r) => r.path.includes(part)).at(-1);
  const role = (e: unknown): boolean => PlatformError.is(e) && e.status === 403 && /role/.test(e.message);

  test("a rule's mode: sent as rulePath and policyMode, answered with the rule; refused before sending when unusable", async () => {
    const policy = data.policies[0];
    const rule = data.rulesByPolicyId.get(policy.id!)![0];
    const target = rule.policyMode === 'MODE_BLOCK' ? 'MODE_COMMENT' : 'MODE_BLOCK';
    const updated = await h.client().setRuleMode(id, policy.id!, rule.path!, target);
    assert.equal(updated?.mode, target);
    assert.equal(updated?.path, rule.path);
    assert.deepEqual(JSON.parse(last('/policies/')?.body ?? '{}'), { rulePath: rule.path, policyMode: target });
    assert.equal(last('/policies/')?.method, 'PUT');
    const mark = h.mark();
    await assert.rejects(h.client().setRuleMode(id, policy.id!, ' ', 'MODE_BLOCK'), /Name the rule/);
    await assert.rejects(h.client().setRuleMode(id, policy.id!, rule.path!, 'MODE_LOUD' as 'MODE_BLOCK'), /MODE_MONITOR/);
    assert.equal(h.requestsSince(mark, '/policies').length, 0, 'nothing sent');
  });

  test("a rule's mode: an answer without a readable rule is not an error (the mode asked for stands)", async () => {
    const policy = data.policies[0];
    const rule = data.rulesByPolicyId.get(policy.id!)![1];
    h.server.faults.inject({ kind: 'status', status: 200, body: '{"policyId":"7"}' }, { method: 'PUT' });
    assert.equal(await h.client().setRuleMode(id, policy.id!, rule.path!, 'MODE_MONITOR'), undefined);
  });

  test("a refused change is the token's role; an unknown policy is a 404 naming it", async () => {
    const policy = data.policies[0];
    h.server.setReadOnly(true);
    try {
      await assert.rejects(h.client().setRuleMode(id, policy.id!, 'x.y', 'MODE_BLOCK'), role);
      await assert.rejects(h.client().removeProjectTags(slug, data.projects[0].name, ['a']), role);
      await assert.rejects(h.client().setPrimaryBranch(slug, data.projects[0].name, undefined), role);
      await assert.rejects(h.client().setManagedScans(slug, data.projects[0].name, { diffScanEnabled: true, fullScanEnabled: true }), role);
    } finally {
      h.server.setReadOnly(false);
    }
    await assert.rejects(h.client().setRuleMode(id, '99999', 'x.y', 'MODE_BLOCK'), (e: unknown) => PlatformError.is(e) && e.status === 404);
  });

  test('tags are removed from a project whose name has slashes, each tag encoded in the query', async () => {
    const name = 'group/sub/repo';
    await h.client().addProjectTags(slug, name, ['team a', 'x&y', 'keep']);
    const project = await h.client().removeProjectTags(slug, name, ['team a', 'x&y']);
    assert.deepEqual(
      project.tags.filter((t) => ['team a', 'x&y', 'keep'].includes(t)),
      ['keep'],
    );
    const sent = last('/tags');
    assert.equal(sent?.method, 'DELETE');
    assert.match(sent?.rawUrl ?? '', /\/projects\/group\/sub\/repo\/tags\?tags=team%20a&tags=x%26y$/);
    await assert.rejects(h.client().removeProjectTags(slug, name, []), /at least one tag/);
  });

  test('the primary branch: a name is sent as a full branch, the default branch as "None"', async () => {
    const name = data.projects[0].name;
    const project = await h.client().setPrimaryBranch(slug, name, 'release/2.0');
    assert.equal(project.primaryBranch, 'release/2.0');
    assert.deepEqual(JSON.parse(last('/projects/')?.body ?? '{}'), { primary_branch: 'refs/heads/release/2.0' });
    const back = await h.client().setPrimaryBranch(slug, name, undefined);
    assert.deepEqual(JSON.parse(last('/projects/')?.body ?? '{}'), { primary_branch: 'None' });
    assert.equal(back.primaryBranch, undefined, 'no primary branch of its own: the default one is primary');
    const mark = h.mark();
    await assert.rejects(h.client().setPrimaryBranch(slug, name, 'two words'), /not a branch name/);
    assert.equal(h.requestsSince(mark, '/projects/').length, 0);
  });

  test('managed scans: both settings sent; each answer the service may give is read, and none is an error', async () => {
    const name = data.projects[0].name;
    h.server.setShape('service');
    assert.equal(await h.client().setManagedScans(slug, name, { diffScanEnabled: true, fullScanEnabled: false }), undefined, 'the service answers {}');
    assert.deepEqual(JSON.parse(last('/managed-scan')?.body ?? '{}'), { diff_scan: { enabled: true }, full_scan: { enabled: false } });
    assert.deepEqual((await h.client().getProject(slug, name)).managedScanConfig, { diffScanEnabled: true, fullScanEnabled: false }, 'the platform holds it');
    h.server.setShape('spec');
    try {
      assert.deepEqual(
        await h.client().setManagedScans(slug, name, { diffScanEnabled: false, fullScanEnabled: true }),
        { diffScanEnabled: false, fullScanEnabled: true },
        'read from the project',
      );
    } finally {
      h.server.setShape('service');
    }
    h.server.faults.inject({ kind: 'status', status: 200, body: '{"diff_scan":{"enabled":true},"full_scan":{}}' }, { method: 'PATCH' });
    assert.deepEqual(
      await h.client().setManagedScans(slug, name, { diffScanEnabled: true, fullScanEnabled: false }),
      { diffScanEnabled: true, fullScanEnabled: false },
      'read from the settings themselves',
    );
  });

  test('a PATCH refused with 429 is sent again: it sets a state, so a second one does no harm', async () => {
    const name = data.projects[0].name;
    h.server.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { method: 'PATCH' });
    const mark = h.mark();
    const project = await h.client().setPrimaryBranch(slug, name, 'main');
    assert.equal(project.primaryBranch, 'main');
    assert.equal(h.requestsSince(mark, '/projects/').length, 2);
  });

  test('the scanned branches of a repository: most recent first, pull-request refs left out', async () => {
    const project = data.projects[0];
    const branches = await h.client().scannedBranches(id, project.id);
    const expected = new Set(
      data.scans
        .filter((s) => s.repository_id === project.repository_id && s.status === 'SCAN_STATUS_COMPLETED')
        .map((s) => (s.branch ?? '').replace(/^refs\/heads\//, '')),
    );
    assert.ok(branches.length > 1, 'more than one branch');
    assert.deepEqual(new Set(branches), new Set([...expected].filter((b) => b !== '' && !b.startsWith('refs/'))));
    assert.ok(branches.every((b) => !b.startsWith('refs/')));
  });
});
