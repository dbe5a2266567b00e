// The changes the local platform allows beyond the spec (docs/platform-api.md, "Changes to settings"): a policy rule's
// mode, a project's tags, settings and managed scans, and unlinking a ticket by its id. Each is
// checked through its answer and through the later reads, and refused as the real service would.
import { after, beforeEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDeployment, GENERATION_BASE_TIME, startPlatformServer, type PlatformData, type RunningPlatform } from '../platform';
import { deploymentPolicies, generatePolicies } from '../platform/generate-policies';
import { Rng } from '../platform/prng';
import type { WireExternalTicket } from '../platform/wire';

type Json = Record<string, unknown>;
let platform: RunningPlatform;
let data: PlatformData;

before(async () => {
  data = generateDeployment({ projects: 3, sastPerProject: 60, scaPerProject: 20 });
  // Projects whose names end in the words that name the writes under a project.
  for (const [id, name] of [
    [1, 'acme/tools/tags'],
    [2, 'acme/tools/managed-scan'],
  ] as const) {
    data.projects.push({ ...structuredClone(data.projects[0]), id, repository_id: id, name, tags: ['t'] });
  }
  platform = await startPlatformServer({ data });
});
after(() => platform.close());
beforeEach(() => {
  platform.restoreProducts();
  platform.setShape('service');
});

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json; headers: Headers }> {
  const sent = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${platform.url}/api/v1/deployments/${path}`, {
    method,
    redirect: 'manual',
    headers: { authorization: `Bearer ${platform.token}` },
    body: sent,
  });
  return { status: res.status, json: (await res.json()) as Json, headers: res.headers };
}

async function refused(method: string, path: string, body: unknown, status: number, message: string | RegExp): Promise<void> {
  const res = await call(method, path, body);
  const where = `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(res.json)}`;
  assert.equal(res.status, status, where);
  assert.ok(typeof message === 'string' ? res.json.error === message : message.test(String(res.json.error)), where);
}

async function notAllowed(method: string, path: string, allow: string): Promise<void> {
  const res = await call(method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
  assert.deepEqual([res.status, res.headers.get('allow')], [405, allow], `${method} ${path}`);
}

const READ_ONLY = "the token's role does not allow this action";
const NO_DEPLOYMENT = /^deployment not found/;
const path = (name: string): string => name.split('/').map(encodeURIComponent).join('/');
const project = (name: string) => data.projects.find((p) => p.name === name)!;
const readProject = async (name: string): Promise<Json> => (await call('GET', `acme/projects/${path(name)}`)).json.project as Json;

void describe("PUT policies/{policyId}: one rule's mode", () => {
  const rules = async (id: string): Promise<Json[]> => (await call('GET', `4242/policies/${id}?limit=2000`)).json.rules as Json[];

  test('changes the stored rule, answers it, and the rules list shows it; nothing else changes', async () => {
    const before = await rules('7');
    const target = before[1];
    const mode = target.policyMode === 'MODE_BLOCK' ? 'MODE_MONITOR' : 'MODE_BLOCK';
    const started = Date.now();
    const res = await call('PUT', '4242/policies/7', { rulePath: target.path, policyMode: mode });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.deepEqual([Object.keys(res.json).sort(), res.json.policyId], [['policyId', 'updatedRule'], '7']);
    const updated = res.json.updatedRule as Json;
    assert.deepEqual(updated, { ...target, policyMode: mode, lastChangeAt: updated.lastChangeAt, lastChangeBy: 'api-token' });
    assert.ok(Date.parse(String(updated.lastChangeAt)) >= started - 1000 && String(updated.lastChangeAt).endsWith('Z'));
    assert.deepEqual(
      await rules('7'),
      before.map((r) => (r.id === target.id ? updated : r)),
    );
    assert.deepEqual(
      ((await call('GET', '4242/policies')).json.policies as Json[]).map((p) => p.id),
      data.policies.map((p) => p.id),
    );
  });

  test('the findings policies filter follows the new mode', async () => {
    const f = data.sast.find((x) => x.sourcing_policy?.id === 7 && data.rulesByPolicyId.get('7')!.some((r) => r.path === x.rule_name))!;
    const listed = async (filter: string): Promise<boolean> =>
      ((await call('GET', `acme/findings?policies=${filter}&page_size=3000`)).json.findings as Json[]).some((x) => x.id === f.id);
    for (const mode of ['MODE_BLOCK', 'MODE_MONITOR']) {
      assert.equal((await call('PUT', '4242/policies/7', { rulePath: f.rule_name, policyMode: mode })).status, 200);
      assert.deepEqual([await listed('rule-board-block'), await listed('rule-board-audit')], [mode === 'MODE_BLOCK', mode === 'MODE_MONITOR']);
    }
  });

  test('validation: 400 for the body, 404 for an unknown policy or a rule the policy lacks', async () => {
    const rulePath = data.rulesByPolicyId.get('7')![0].path;
    await refused('PUT', '4242/policies/7', { policyMode: 'MODE_BLOCK' }, 400, /^rulePath must be/);
    await refused('PUT', '4242/policies/7', { rulePath: '', policyMode: 'MODE_BLOCK' }, 400, /^rulePath must be/);
    await refused('PUT', '4242/policies/7', { rulePath }, 400, 'policyMode must be one of MODE_MONITOR, MODE_COMMENT, MODE_BLOCK, MODE_DISABLED');
    await refused('PUT', '4242/policies/7', { rulePath, policyMode: 'MODE_LOUD' }, 400, /^policyMode must be one of/);
    await refused('PUT', '4242/policies/7', { rulePath, policyMode: 'MODE_BLOCK', mode: 'x' }, 400, 'unknown field "mode" (allowed: rulePath, policyMode)');
    await refused('PUT', '4242/policies/7', 'not json', 400, 'the body is not JSON');
    await refused('PUT', '4242/policies/7', [rulePath], 400, 'the body must be a JSON object');
    await refused('PUT', '4242/policies/999', { rulePath, policyMode: 'MODE_BLOCK' }, 404, 'policy 999 not found');
    await refused('PUT', '4242/policies/7', { rulePath: 'no.such.rule', policyMode: 'MODE_BLOCK' }, 404, 'rule no.such.rule is not in policy 7');
  });

  test('403 read-only (unchanged), 404 by slug, the policies product refused, 405 for other methods', async () => {
    const rule = data.rulesByPolicyId.get('8')![0];
    const [was, mode] = [{ ...rule }, rule.policyMode === 'MODE_DISABLED' ? 'MODE_COMMENT' : 'MODE_DISABLED'];
    platform.setReadOnly(true);
    await refused('PUT', '4242/policies/8', { rulePath: rule.path, policyMode: mode }, 403, READ_ONLY);
    assert.equal((await call('GET', '4242/policies/8')).status, 200, 'reading is still allowed');
    platform.setReadOnly(false);
    await refused('PUT', 'acme/policies/8', { rulePath: rule.path, policyMode: mode }, 404, NO_DEPLOYMENT);
    platform.setProduct('policies', 'default');
    await refused('PUT', '4242/policies/8', { rulePath: rule.path, policyMode: mode }, 404, 'not found');
    assert.deepEqual(rule, was);
    platform.restoreProducts();
    await notAllowed('DELETE', '4242/policies/8', 'GET, PUT');
    await notAllowed('PUT', '4242/policies', 'GET');
  });
});

void describe('the Secrets policy', () => {
  test('follows the SAST policies with the next ids; theirs stay as generated', () => {
    const { policies, rulesByPolicyId } = deploymentPolicies(generatePolicies(new Rng(1), 2, 30, GENERATION_BASE_TIME, 'acme'), GENERATION_BASE_TIME);
    const generated = generateDeployment({ seed: 1 });
    assert.deepEqual(policies.slice(0, 2), generated.policies.slice(0, 2));
    assert.deepEqual([...rulesByPolicyId].slice(0, 2), [...generated.rulesByPolicyId].slice(0, 2));
    assert.deepEqual(
      policies.map((p) => [p.id, p.productType]),
      [
        ['7', 'PRODUCT_TYPE_SAST'],
        ['8', 'PRODUCT_TYPE_SAST'],
        ['9', 'PRODUCT_TYPE_SECRETS'],
      ],
    );
    assert.deepEqual(policies[2], { id: '9', isDefault: false, name: 'Secrets Policy', productType: 'PRODUCT_TYPE_SECRETS', slug: 'secrets-policy' });
    const secrets = rulesByPolicyId.get('9')!;
    assert.ok(secrets.length >= 4 && secrets.every((r) => r.path?.startsWith('generic.secrets.security.')));
    assert.equal(secrets[0].id, '480061');
    const ids = [...rulesByPolicyId.values()].flat().map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
  });

  test('no code finding is sourced from anything but a SAST policy', () => {
    const generated = generateDeployment({ seed: 3, projects: 4 });
    const kind = new Map(generated.policies.map((p) => [p.id, p.productType]));
    assert.ok(generated.sast.length > 0 && generated.sast.every((f) => kind.get(String(f.sourcing_policy?.id)) === 'PRODUCT_TYPE_SAST'));
  });
});

void describe('DELETE projects/{name}/tags', () => {
  const name = 'acme/platform/sub/billing-service';

  test('removes the named tags from this project only; tags it lacks are ignored', async () => {
    project(name).tags.splice(0, Infinity, 'a', 'b', 'c');
    project('acme/payments-api').tags.splice(0, Infinity, 'a');
    const res = await call('DELETE', `acme/projects/${path(name)}/tags?tags=a&tags=zzz&tags=c`);
    const answered = res.json.project as Json;
    assert.deepEqual([res.status, answered.name, answered.tags, typeof answered.managed_scan_config], [200, name, ['b'], 'object']);
    assert.deepEqual((await readProject(name)).tags, ['b']);
    assert.deepEqual((await readProject('acme/payments-api')).tags, ['a']);
  });

  test('a project whose name ends in tags: GET reads it, DELETE …/tags changes it', async () => {
    assert.equal((await readProject('acme/tools/tags')).name, 'acme/tools/tags');
    assert.equal((await readProject('acme/tools/managed-scan')).name, 'acme/tools/managed-scan');
    assert.equal((await call('DELETE', 'acme/projects/acme/tools/tags/tags?tags=t')).status, 200);
    assert.deepEqual(project('acme/tools/tags').tags, []);
  });

  test('400 without tags, 404 unknown project or by id, 403 read-only (unchanged), 307 for %2F, 405', async () => {
    project(name).tags.splice(0, Infinity, 'keep');
    await refused('DELETE', `acme/projects/${path(name)}/tags`, undefined, 400, 'name the tags to remove as query parameters: ?tags=a&tags=b');
    await refused('DELETE', `acme/projects/${path(name)}/tags?tags=`, undefined, 400, 'tags must be non-empty');
    await refused('DELETE', 'acme/projects/acme/nope/tags?tags=keep', undefined, 404, 'project acme/nope not found');
    await refused('DELETE', `4242/projects/${path(name)}/tags?tags=keep`, undefined, 404, NO_DEPLOYMENT);
    platform.setReadOnly(true);
    await refused('DELETE', `acme/projects/${path(name)}/tags?tags=keep`, undefined, 403, READ_ONLY);
    assert.deepEqual(project(name).tags, ['keep']);
    platform.setReadOnly(false);
    const moved = await call('DELETE', 'acme/projects/acme%2Fplatform%2Fsub%2Fbilling-service/tags?tags=keep');
    assert.deepEqual(
      [moved.status, moved.headers.get('location')],
      [307, '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service/tags?tags=keep'],
    );
    await notAllowed('POST', `acme/projects/${path(name)}/tags`, 'GET, PUT, DELETE, PATCH');
    await notAllowed('DELETE', `acme/projects/${path(name)}`, 'GET, PATCH');
    await notAllowed('PUT', `acme/projects/${path(name)}/managed-scan`, 'GET, PATCH');
  });
});

void describe('PATCH projects/{name}', () => {
  const name = 'acme/payments-api';
  const patch = (body: unknown) => call('PATCH', `acme/projects/${path(name)}`, body);

  test("tags replace the project's; a full branch name becomes primary; scan settings change part by part", async () => {
    const before = structuredClone(project(name).managed_scan_config);
    const res = await patch({
      tags: ['x', 'y', 'x'],
      primary_branch: 'refs/heads/release/2.0',
      managed_scan_config: { diff_scan: { enabled: !before.diff_scan.enabled } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const answered = res.json.project as Json;
    assert.deepEqual([answered.tags, answered.primary_branch], [['x', 'y'], 'refs/heads/release/2.0']);
    assert.deepEqual(await readProject(name), answered);
    assert.deepEqual(
      [project(name).primary_branch, project(name).managed_scan_config],
      ['release/2.0', { diff_scan: { enabled: !before.diff_scan.enabled }, full_scan: before.full_scan }],
    );
    platform.setShape('spec');
    assert.equal((await readProject(name)).primary_branch, 'release/2.0');
  });

  test('"None" makes the default branch primary: left out in the service\'s shape, null in the spec\'s', async () => {
    const res = await patch({ primary_branch: 'None' });
    assert.deepEqual([res.status, project(name).primary_branch], [200, '']);
    assert.ok(!('primary_branch' in (res.json.project as Json)) && 'default_branch' in (res.json.project as Json));
    assert.ok(!('primary_branch' in (await readProject(name))));
    platform.setShape('spec');
    assert.equal((await readProject(name)).primary_branch, null);
    assert.equal(((await call('GET', 'acme/projects')).json.projects as Json[]).find((p) => p.name === name)?.primary_branch, null);
  });

  test('a PATCH on a name ending in tags changes that project', async () => {
    assert.equal((await call('PATCH', 'acme/projects/acme/tools/tags', { tags: ['renamed'] })).status, 200);
    assert.deepEqual(project('acme/tools/tags').tags, ['renamed']);
  });

  test('400 for each bad body, with nothing changed', async () => {
    project(name).tags.splice(0, Infinity, 'kept');
    const cases: [unknown, string | RegExp][] = [
      [{}, 'the body must set at least one of tags, primary_branch, managed_scan_config'],
      [{ tags: ['new'], name: 'x' }, 'unknown field "name" (allowed: tags, primary_branch, managed_scan_config)'],
      [{ tags: 'a' }, 'tags must be an array of non-empty strings'],
      [{ tags: ['a', ' '] }, 'tags must be an array of non-empty strings'],
      [{ tags: ['new'], primary_branch: 'main' }, /^primary_branch must be a full branch name/],
      [{ primary_branch: 'refs/heads/' }, /^primary_branch must be a full branch name/],
      [{ primary_branch: null }, /^primary_branch must be a full branch name/],
      [{ tags: ['new'], managed_scan_config: {} }, /^managed_scan_config must set diff_scan or full_scan/],
      [{ managed_scan_config: [] }, /^managed_scan_config must be an object/],
      [{ managed_scan_config: { diff_scan: {} } }, 'diff_scan must be {"enabled": true} or {"enabled": false}'],
      [{ managed_scan_config: { full_scan: { enabled: 'yes' } } }, 'full_scan must be {"enabled": true} or {"enabled": false}'],
      [{ managed_scan_config: { pr_scan: { enabled: true } } }, 'unknown field "pr_scan" in managed_scan_config (allowed: diff_scan, full_scan)'],
      ['{', 'the body is not JSON'],
      [['tags'], 'the body must be a JSON object'],
    ];
    const was = structuredClone(project(name));
    for (const [body, message] of cases) await refused('PATCH', `acme/projects/${path(name)}`, body, 400, message);
    assert.deepEqual(project(name), was);
  });

  test('404 unknown project or by id, 403 read-only with nothing changed', async () => {
    await refused('PATCH', 'acme/projects/acme/nope', { tags: ['a'] }, 404, 'project acme/nope not found');
    await refused('PATCH', `4242/projects/${path(name)}`, { tags: ['a'] }, 404, NO_DEPLOYMENT);
    const was = structuredClone(project(name));
    platform.setReadOnly(true);
    await refused('PATCH', `acme/projects/${path(name)}`, { tags: ['a'] }, 403, READ_ONLY);
    assert.deepEqual(project(name), was);
  });
});

void describe('PATCH projects/{name}/managed-scan', () => {
  const name = 'acme/web-frontend';
  const url = `acme/projects/${path(name)}/managed-scan`;
  const settings = () => project(name).managed_scan_config;

  test("the service's shape answers {}, the spec's the project; the project read shows the change", async () => {
    project(name).managed_scan_config = { diff_scan: { enabled: false }, full_scan: { enabled: false } };
    const res = await call('PATCH', url, { diff_scan: { enabled: true }, full_scan: { enabled: true } });
    assert.deepEqual([res.status, res.json], [200, {}]);
    assert.deepEqual((await readProject(name)).managed_scan_config, { diff_scan: { enabled: true }, full_scan: { enabled: true } });
    platform.setShape('spec');
    const spec = await call('PATCH', url, { full_scan: { enabled: false } });
    const answered = spec.json.project as Json;
    assert.deepEqual([spec.status, answered.name, answered.managed_scan_config], [200, name, { diff_scan: { enabled: true }, full_scan: { enabled: false } }]);
    platform.setShape('service');
    assert.deepEqual((await readProject(name)).managed_scan_config, { diff_scan: { enabled: true }, full_scan: {} });
  });

  test('400 for a bad body, 404 by id or unknown project, 403 read-only: nothing changes', async () => {
    const was = structuredClone(settings());
    await refused('PATCH', url, {}, 400, /^the body must set diff_scan or full_scan/);
    await refused('PATCH', url, { diff_scan: { enabled: 1 } }, 400, 'diff_scan must be {"enabled": true} or {"enabled": false}');
    await refused('PATCH', url, { diff_scan: { enabled: true, extra: 1 } }, 400, 'diff_scan must be {"enabled": true} or {"enabled": false}');
    await refused('PATCH', url, { diff_scan: { enabled: true }, tags: [] }, 400, 'unknown field "tags" in the body (allowed: diff_scan, full_scan)');
    await refused('PATCH', url, 'x', 400, 'the body is not JSON');
    await refused('PATCH', 'acme/projects/acme/nope/managed-scan', { diff_scan: { enabled: true } }, 404, 'project acme/nope not found');
    await refused('PATCH', `4242/projects/${path(name)}/managed-scan`, { diff_scan: { enabled: !was.diff_scan.enabled } }, 404, NO_DEPLOYMENT);
    platform.setReadOnly(true);
    await refused('PATCH', url, { diff_scan: { enabled: !was.diff_scan.enabled } }, 403, READ_ONLY);
    assert.deepEqual(settings(), was);
  });
});

void describe('DELETE ticketing/v2/tickets/{externalTicketId}', () => {
  const TICKET = 777_001;
  const ticket = (): WireExternalTicket => ({ id: TICKET, external_slug: 'SEC-1', url: 'https://acme.atlassian.net/browse/SEC-1', linked_issue_ids: [] });
  let linked: number[];

  beforeEach(() => {
    // Two code findings and a dependency finding carry the ticket, one more its usage does.
    for (const f of [data.sast[0], data.sast[1], data.sca[0]]) f.external_ticket = ticket();
    data.sca[1].usage = { ...data.sca[1].usage, external_ticket: ticket() };
    linked = [data.sast[0].id!, data.sast[1].id!, data.sca[0].id!, data.sca[1].id!];
  });

  test('unlinks the ticket from every finding that has it and names them; the findings lists show no ticket', async () => {
    const res = await call('DELETE', `4242/ticketing/v2/tickets/${TICKET}`);
    assert.deepEqual([res.status, res.json], [200, { issueIds: linked.map(String) }]);
    const listed = [
      ...((await call('GET', 'acme/findings?page_size=3000')).json.findings as Json[]),
      ...((await call('GET', 'acme/findings?issue_type=sca&page_size=3000')).json.findings as Json[]),
    ];
    for (const f of listed.filter((x) => linked.includes(x.id as number)))
      assert.deepEqual([f.external_ticket, (f.usage as Json | null)?.external_ticket ?? null], [null, null]);
    assert.equal(listed.filter((x) => linked.includes(x.id as number)).length, linked.length);
    await refused('DELETE', `4242/ticketing/v2/tickets/${TICKET}`, undefined, 404, 'ticket not found');
  });

  test('400 for an id not of digits, 404 by slug, 403 read-only and the tickets product refused: still linked; 405', async () => {
    await refused('DELETE', '4242/ticketing/v2/tickets/SEC-1', undefined, 400, "externalTicketId must be the ticket's numeric id");
    await refused('DELETE', `acme/ticketing/v2/tickets/${TICKET}`, undefined, 404, NO_DEPLOYMENT);
    platform.setReadOnly(true);
    await refused('DELETE', `4242/ticketing/v2/tickets/${TICKET}`, undefined, 403, READ_ONLY);
    platform.setReadOnly(false);
    platform.setProduct('tickets', 403);
    await refused('DELETE', `4242/ticketing/v2/tickets/${TICKET}`, undefined, 403, "this deployment's plan does not include tickets");
    assert.deepEqual([data.sast[0].external_ticket?.id, data.sca[1].usage?.external_ticket?.id], [TICKET, TICKET]);
    await notAllowed('GET', `4242/ticketing/v2/tickets/${TICKET}`, 'DELETE');
  });
});

void describe("a ticket created here, in the finding's activity", () => {
  test("is dated when it was created, not by the finding's age", async () => {
    const finding = data.sast.find((f) => !f.external_ticket && f.id !== undefined)!;
    const before = Date.now();
    const res = await call('POST', 'acme/tickets', { issue_type: 'sast', issue_ids: [finding.id], group_issues: false });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const story = await fetch(`${platform.url}/api/agent/deployments/${data.deployment.id}/issues/v2/${finding.id}`, {
      headers: { authorization: `Bearer ${platform.token}` },
    });
    const history = ((await story.json()) as { activityHistory: { date: string; historyType: string }[] }).activityHistory;
    const created = history.find((h) => h.historyType === 'HISTORY_TYPE_TICKET_CREATED');
    assert.ok(created, 'the ticket is in the activity');
    assert.ok(Date.parse(created.date) >= before - 1000, `dated now (${created.date}), not ${new Date(before).toISOString()} minus years`);
  });
});
