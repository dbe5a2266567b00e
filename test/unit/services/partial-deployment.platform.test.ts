// A deployment that lacks products (Code, the AI analysis, Supply Chain, Secrets, policies, SBOM,
// tickets) or a token whose role may not write, through the real client and the local platform:
// each kind loads and fails on its own, a missing one is a state said once and calmly, and the
// messages blame the right thing.
import { FIRST_READ_PAGES } from '../../../src/core/services/answer-shapes';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError, WEB_API_SCOPE_HINT } from '../../../src/core/model/errors';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { PoliciesService } from '../../../src/core/services/policies-service';
import { TriageService } from '../../../src/core/services/triage-service';
import type { IssueType } from '../../../src/core/model/types';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { addAiAndSecrets } from '../../platform/secrets-and-ai';
import type { Product } from '../../platform/routes';
import { startHarness, type Harness } from './platform-harness';
import { checkProducts, productLine } from '../../../src/core/services/product-check';
import { loadEachKind } from '../../../src/core/services/each-kind';

const SLUG = 'acme';

void describe('a deployment without some products (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;
  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 40, scaPerProject: 12, refsPerProject: 1 });
    addAiAndSecrets(data, 6);
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());
  const restore = (): void => {
    h.server.restoreProducts();
    h.server.faults.clear();
    h.server.setMaxPageSize(undefined);
    h.server.setShape('service');
  };

  const store = (pageSize = 100): FindingsStore => new FindingsStore(() => h.client(), { pageSize, deploymentId: () => String(data.deployment.id) });
  const query = (issueType: IssueType): FindingsQuery => ({ deploymentSlug: SLUG, issueType, filters: { repos: [project], ref: 'main', dedup: true } });
  const loadAll = (s: FindingsStore) => Promise.all((['sast', 'sca', 'secrets'] as const).map((t) => s.load(t, query(t))));
  const kindOf: Record<Product, IssueType | undefined> = {
    code: 'sast',
    ai: undefined,
    sca: 'sca',
    secrets: 'secrets',
    policies: undefined,
    sbom: undefined,
    tickets: undefined,
    dependencies: undefined,
    'issue-v2': undefined,
    autofix: undefined,
  };

  for (const [product, status] of [
    ['secrets', 404],
    ['secrets', 403],
    ['sca', 404],
    ['sca', 403],
    ['sca', 400],
    ['code', 404],
    ['code', 403],
  ] as const) {
    void test(`${product} answering ${status}: that kind is "not available", asked once, and every other kind loads`, async (t) => {
      t.after(restore);
      h.server.setProduct(product, status);
      const s = store();
      const mark = h.mark();
      const results = await loadAll(s);
      const missing = kindOf[product];
      for (const result of results) {
        const kind = result.query.issueType;
        if (kind === missing) {
          // Without Code, the AI analysis's findings (a product of their own) may still come.
          assert.equal(result.findings.filter((f) => !f.ai).length, 0);
          assert.equal(result.unavailable?.status, status);
          assert.doesNotMatch(result.unavailable?.detail ?? '', /Web API access/, "a product's refusal never blames the token's scope");
          assert.equal(s.state(kind).kind, 'loaded', 'a state, not a failure');
        } else {
          assert.equal(result.unavailable, undefined);
          assert.ok(result.findings.length > 0, `${kind} findings still arrive`);
        }
      }
      const path = product === 'secrets' ? '/secrets' : `issue_type=${missing}&`;
      // One wave: the secrets list's one page, or the findings list's first wave (pages 0 to 3 at
      // once, a list never read); no retry, no second spelling of the branch.
      const asked = h.server.requests.slice(mark).filter((r) => r.rawUrl.includes(path));
      assert.equal(asked.length, product === 'secrets' ? 1 : FIRST_READ_PAGES, 'asked in one wave: no retry, no second spelling of the branch');
      if (product !== 'secrets') assert.deepEqual(asked.map((r) => new URL(r.rawUrl, 'http://x').searchParams.get('page')).sort(), ['0', '1', '2', '3']);
      assert.equal(s.availability.unavailable(missing ?? 'sast')?.status, status);
      assert.ok(!s.availability.offered().includes(missing ?? 'sast'), 'not offered');
      s.dispose();
    });
  }

  for (const status of [400, 403, 404]) {
    void test(`the AI analysis answering ${status}: code findings come without AI ones, the AI part says why`, async (t) => {
      t.after(restore);
      h.server.setProduct('ai', status);
      const s = store();
      const code = await s.load('c', query('sast'));
      assert.ok(code.findings.length > 0 && code.findings.every((f) => !f.ai));
      assert.equal(code.unavailable, undefined);
      assert.equal(code.ai && 'unavailable' in code.ai ? code.ai.unavailable.status : undefined, status);
      assert.deepEqual(s.availability.offered(), ['sast', 'sca', 'secrets']);
      s.dispose();
    });
  }

  void test('a product that comes back appears on the next load, and is offered again', async (t) => {
    t.after(restore);
    h.server.setProduct('secrets', 404);
    const s = store();
    assert.equal((await s.load('s', query('secrets'))).unavailable?.status, 404);
    h.server.setProduct('secrets', undefined);
    const again = await s.load('s', query('secrets'), { force: true });
    assert.equal(again.unavailable, undefined);
    assert.ok(again.findings.length > 0);
    assert.equal(s.availability.unavailable('secrets'), undefined);
    s.dispose();
  });

  void test('both spellings of the answer, short pages, a 429 and slow answers: the present kinds still load whole', async (t) => {
    t.after(restore);
    h.server.setShape('spec');
    h.server.setMaxPageSize(100);
    h.server.setProduct('secrets', 403);
    h.server.setProduct('ai', 400);
    h.server.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { pathIncludes: 'issue_type=sca' });
    h.server.faults.inject({ kind: 'delay', ms: 150 }, { pathIncludes: 'issue_type=sast' });
    const s = store(300);
    const [code, sca, secrets] = await loadAll(s);
    const expected = (type: 'sast' | 'sca') => data[type].filter((f) => f.repository?.name === project && f.ref === 'main').length;
    assert.equal(code.findings.length, expected('sast'), 'every code page, though each is shorter than asked');
    assert.equal(sca.findings.length, expected('sca'), 'the rate limit is ridden out');
    assert.equal(secrets.unavailable?.status, 403);
    s.dispose();
  });

  void test('a kind that fails for a while (503 after the retries) keeps what it showed, marked stale; the others update', async (t) => {
    t.after(restore);
    const s = store();
    const [, firstSca] = await loadAll(s);
    // Every request of the kind fails, its retries too (a wave of pages, each tried three times).
    h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: 'issue_type=sca' }, 100);
    const outcomes = await Promise.allSettled((['sast', 'sca', 'secrets'] as const).map((k) => s.load(k, query(k), { force: true })));
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    const sca = s.state('sca');
    assert.ok(sca.kind === 'loaded' && PlatformError.is(sca.result.staleBecause, 'server'), 'marked stale with the reason');
    assert.deepEqual(
      sca.kind === 'loaded' ? sca.result.findings.map((f) => f.id) : [],
      firstSca.findings.map((f) => f.id),
      'what was shown stays',
    );
    assert.equal(s.availability.unavailable('sca'), undefined, 'an outage is not a missing product');
    s.dispose();
  });

  void test('policies the deployment does not list are a state: no error, no policies', async (t) => {
    t.after(restore);
    h.server.setProduct('policies', 403);
    const policies = new PoliciesService(
      () => h.client(),
      () => String(data.deployment.id),
    );
    const listed = await policies.listPolicies();
    assert.deepEqual(listed.policies, []);
    assert.equal(listed.unavailable?.status, 403);
    policies.dispose();
  });

  void test("messages blame the right thing: the token's scope only for its own reads", async (t) => {
    t.after(restore);
    h.server.setProduct('sbom', 404);
    h.server.faults.inject({ kind: 'status', status: 404 }, { pathIncludes: '/projects' });
    const client = h.client();
    await assert.rejects(client.listProjects(SLUG), (e: unknown) => PlatformError.is(e, 'notFound') && e.message.includes(WEB_API_SCOPE_HINT));
    await assert.rejects(
      client.getSbomExportStatus(String(data.deployment.id), 'job'),
      (e: unknown) => PlatformError.is(e, 'notFound') && !e.message.includes(WEB_API_SCOPE_HINT) && /may not have that product/.test(e.message),
    );
  });

  void test('a role that may not write: triage is refused with the role named, rolled back, and the note kept', async (t) => {
    t.after(restore);
    h.server.setReadOnly(true);
    const s = store();
    const triage = new TriageService({ api: () => h.client(), store: s, deploymentSlug: () => SLUG, deploymentId: () => String(data.deployment.id) });
    const open = await s.load('c', query('sast'));
    const target = open.findings.find((f) => f.status === 'open');
    assert.ok(target);
    await assert.rejects(triage.triage('sast', [target.id], { state: 'ignored', reason: 'false_positive', note: 'typed by the user' }), (e: unknown) => {
      const { cause, note } = e as { cause?: unknown; note?: string };
      return PlatformError.is(cause, 'forbidden') && /token's role does not allow/.test((e as Error).message) && note === 'typed by the user';
    });
    assert.equal(s.finding(SLUG, 'sast', target.id)?.status, 'open', 'rolled back');
    const client = h.client();
    const refusedForRole = (e: unknown): boolean => PlatformError.is(e, 'forbidden') && /token's role does not allow/.test(e.message);
    await assert.rejects(client.addProjectTags(SLUG, project, ['team-a']), refusedForRole);
    await assert.rejects(client.createTickets(SLUG, { issueType: 'sast', ids: [target.id] }), refusedForRole);
    await assert.rejects(
      client.createSbomExport(String(data.deployment.id), {
        repositoryId: data.projects[0]?.id ?? 0,
        ref: 'main',
        outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
        cycloneDxVersion: '1.5',
        componentType: 'APPLICATION',
      }),
      refusedForRole,
    );
    s.dispose();
  });

  void test("Check Connection's products: each with its state, the missing ones with their status", async (t) => {
    t.after(restore);
    h.server.setProduct('secrets', 404);
    h.server.setProduct('ai', 400);
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: 'issue_type=sca' });
    const checks = await checkProducts(h.client(), { id: String(data.deployment.id), slug: SLUG, name: 'Acme' });
    assert.deepEqual(
      checks.map(productLine).map((l) => l.replace(/\(The platform.*\)$/, '(…)')),
      [
        'Code: available',
        'AI analysis: not available for this deployment (400)',
        'Supply Chain: failed (…)',
        'Secrets: not available for this deployment (404)',
        'Policies: available',
      ],
    );
  });

  void test('one-off readers (SARIF, the agent): each kind on its own, a failure a gap, all failing a failure', async (t) => {
    t.after(restore);
    const s = store();
    h.server.setProduct('secrets', 403);
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: 'issue_type=sca' });
    const loaded = await loadEachKind(s, ['sast', 'sca', 'secrets'], (k) => `x:${k}`, query, { oneOff: true });
    assert.deepEqual(
      loaded.results.map((r) => r.query.issueType),
      ['sast', 'secrets'],
    );
    assert.deepEqual(
      loaded.gaps.map((g) => [g.kind, 'unavailable' in g ? g.unavailable.status : 'failed']),
      [
        ['sca', 'failed'],
        ['secrets', 403],
      ],
    );
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: 'issue_type=sca' });
    await assert.rejects(
      loadEachKind(s, ['sca'], (k) => `y:${k}`, query, { oneOff: true }),
      (e: unknown) => PlatformError.is(e, 'server'),
    );
    s.dispose();
  });
});
