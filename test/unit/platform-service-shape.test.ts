// The local platform answers as the real service does by default (docs/platform-api.md): the
// flat findings list, snake_case rule lists and tickets, nulls, defaults left out, refs/heads/
// branches on projects; the spec's shapes stay a switch away; page sizes can be capped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDeployment, startPlatformServer, type PlatformData, type RunningPlatform } from '../platform';

type Json = Record<string, unknown>;
let platform: RunningPlatform;
let data: PlatformData;

async function getJson(path: string): Promise<Json> {
  const res = await fetch(`${platform.url}/api/v1/deployments/${path}`, { headers: { authorization: `Bearer ${platform.token}` } });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return (await res.json()) as Json;
}

const findings = async (query: string): Promise<Json[]> => (await getJson(`acme/findings?${query}`)).findings as Json[];

before(async () => {
  data = generateDeployment({ projects: 3, sastPerProject: 150, scaPerProject: 60, refsPerProject: 2 });
  platform = await startPlatformServer({ data });
});
after(() => platform.close());

void describe("the real service's shapes (the default)", () => {
  test('findings come as one flat list, for either issue type', async () => {
    for (const type of ['sast', 'sca']) {
      const body = await getJson(`acme/findings?issue_type=${type}&page_size=100`);
      assert.deepEqual(Object.keys(body), ['findings'], type);
      assert.equal((body.findings as Json[]).length, 100);
    }
  });

  test('every third finding lacks the deprecated rule_name and rule_message; rule.name is always there', async () => {
    const list = await findings('page_size=300');
    const without = list.filter((f) => !('rule_name' in f));
    assert.ok(without.length > 0);
    assert.ok(without.every((f) => (f.id as number) % 3 === 0 && !('rule_message' in f)));
    assert.ok(list.filter((f) => (f.id as number) % 3 !== 0).every((f) => typeof f.rule_name === 'string'));
    assert.ok(list.every((f) => typeof (f.rule as Json).name === 'string'));
  });

  test('rule lists, tickets and review comments in snake_case', async () => {
    const list = await findings('page_size=300');
    const rules = list.map((f) => f.rule as Json);
    assert.ok(rules.some((r) => Array.isArray(r.cwe_names) && Array.isArray(r.owasp_names) && Array.isArray(r.vulnerability_classes)));
    assert.ok(rules.every((r) => !('cweNames' in r) && !('owaspNames' in r) && !('vulnerabilityClasses' in r)));
    const ticket = list.map((f) => f.external_ticket as Json | null).find((t) => t !== null);
    assert.ok(ticket && typeof ticket.external_slug === 'string' && Array.isArray(ticket.linked_issue_ids) && !('externalSlug' in ticket));
    const comment = list.flatMap((f) => (f.review_comments as Json[] | undefined) ?? [])[0];
    assert.ok(comment && typeof comment.external_discussion_id === 'string' && typeof comment.external_note_id === 'number');
  });

  test('absent values are null; false, empty lists and empty strings are left out', async () => {
    const code = await findings('page_size=300&status=open');
    const untriaged = code.find((f) => f.triage_state === 'untriaged');
    assert.ok(untriaged);
    assert.deepEqual([untriaged.triaged_at, untriaged.triage_comment, untriaged.triage_reason], [null, null, null]);
    assert.ok(code.some((f) => f.external_ticket === null));
    assert.ok(code.every((f) => !Array.isArray(f.click_to_fix_prs) || (f.click_to_fix_prs as unknown[]).length > 0));
    const supply = await findings('issue_type=sca&page_size=300');
    assert.ok(
      supply.some((f) => f.usage === null),
      'a supply-chain finding without a usage has usage: null',
    );
    assert.ok(
      supply.some((f) => !('is_malicious' in f)),
      'is_malicious: false is left out',
    );
    assert.ok(supply.filter((f) => 'is_malicious' in f).every((f) => f.is_malicious === true));
    assert.ok(supply.every((f) => f.reachable_condition === null || typeof f.reachable_condition === 'string'));
    assert.ok(supply.some((f) => f.reachable_condition === null));
  });

  test('projects name branches refs/heads/<name>; scan settings leave enabled: false out', async () => {
    const list = (await getJson('acme/projects')).projects as Json[];
    assert.ok(list.every((p) => p.primary_branch === 'refs/heads/main' && String(p.default_branch).startsWith('refs/heads/')));
    const stored = data.projects[0];
    assert.ok(stored);
    stored.managed_scan_config = { diff_scan: { enabled: false }, full_scan: { enabled: true } };
    const one = (await getJson(`acme/projects/${stored.name.split('/').map(encodeURIComponent).join('/')}`)).project as Json;
    assert.deepEqual(one.managed_scan_config, { diff_scan: {}, full_scan: { enabled: true } });
  });

  test("the spec's shapes are a switch away", async () => {
    platform.setShape('spec');
    try {
      const body = await getJson('acme/findings?issue_type=sca&page_size=100');
      assert.deepEqual(Object.keys(body), ['scaFindings']);
      const project = ((await getJson('acme/projects')).projects as Json[])[0];
      assert.equal(project?.primary_branch, 'main');
    } finally {
      platform.setShape('service');
    }
  });
});

void describe('page sizes capped by the server', () => {
  async function readAll(what: 'findings' | 'projects', query: string): Promise<number[]> {
    const ids: number[] = [];
    for (let page = 0; page < 1000; page++) {
      const body = await getJson(`acme/${what}?${query}&page=${page}`);
      const items = body[what] as Json[];
      if (items.length === 0) return ids;
      ids.push(...items.map((f) => f.id as number));
    }
    throw new Error('no empty page');
  }

  for (const cap of [100, 2]) {
    test(`a cap of ${cap}: pages read until the empty one hold every item exactly once`, async () => {
      const all = await readAll('findings', 'issue_type=sca&page_size=3000');
      const allProjects = await readAll('projects', 'page_size=100');
      platform.setMaxPageSize(cap);
      try {
        const first = await findings('issue_type=sca&page_size=3000');
        assert.equal(first.length, cap, 'the page holds the cap, not what was asked');
        const capped = await readAll('findings', 'issue_type=sca&page_size=1000');
        assert.deepEqual(capped, all);
        assert.deepEqual(await readAll('projects', 'page_size=100'), allProjects);
        const res = await fetch(`${platform.url}/api/v1/deployments/acme/findings?page_size=99`, { headers: { authorization: `Bearer ${platform.token}` } });
        assert.equal(res.status, 400, 'page_size is still checked before the cap');
      } finally {
        platform.setMaxPageSize(undefined);
      }
    });
  }
});
