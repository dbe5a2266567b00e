// Every kind of finding the platform holds, through the real client and the local platform:
// secrets (their own cursor-paged list, narrowed to the shown branch, triaged as `secrets`) and
// AI code findings (asked for with the code findings, marked, with their likely impact).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeSecretsPage } from '../../../src/core/model/decodeSecret';
import { StringInterner } from '../../../src/core/model/interner';
import type { Finding } from '../../../src/core/model/types';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { decodeSnapshot, encodeSnapshot } from '../../../src/core/services/findings-snapshot';
import { EMPTY_SELECTION, localFilterOf, toQueryFilters } from '../../../src/core/services/filters';
import { TriageService } from '../../../src/core/services/triage-service';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { addAiAndSecrets } from '../../platform/secrets-and-ai';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('secrets and AI code findings (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;
  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 40, scaPerProject: 5, refsPerProject: 2 });
    addAiAndSecrets(data, 12);
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());

  const store = (): FindingsStore => new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
  const query = (issueType: 'sast' | 'secrets', extra: object = {}): FindingsQuery => ({
    deploymentSlug: SLUG,
    issueType,
    filters: { repos: [project], ref: 'main', dedup: true, ...extra },
  });

  void test('secrets come page by page (cursor), only the shown branch, placed at the line their link names', async () => {
    const client = h.client();
    const all: Finding[] = [];
    const mark = h.mark();
    for await (const page of client.secrets(String(data.deployment.id), { repos: [project] }, { pageSize: 5 })) all.push(...page.findings);
    const expected = data.secrets.filter((s) => s.repository.name === project);
    assert.equal(all.length, expected.length);
    const sent = h.requestsSince(mark, '/secrets');
    assert.equal(sent.length, Math.ceil(expected.length / 5), 'one request per page, the last one ends the list');
    assert.equal(sent[1]?.rawUrl.includes('cursor=5'), true, 'the next page is asked for with the cursor given');
    assert.ok(
      sent.every((r) => r.path === `/api/v1/deployments/${data.deployment.id}/secrets`),
      'the list takes the deployment id',
    );
    for (const finding of all) {
      const wire = expected.find((s) => Number(s.id) === finding.id);
      assert.ok(wire);
      const line = /#L(\d+)$/.exec(wire.findingPathUrl ?? '')?.[1];
      assert.deepEqual(finding.location, { filePath: wire.findingPath, line: line ? Number(line) : 1 });
      assert.equal(finding.secret?.service, wire.type);
      assert.equal(finding.secret?.validation, wire.validationState.replace('VALIDATION_STATE_', '').toLowerCase());
      assert.equal(finding.severity, wire.severity.replace('SEVERITY_', '').toLowerCase());
      assert.equal(finding.status, 'open');
    }
    assert.ok(all.some((f) => f.location?.line === 1) && all.some((f) => (f.location?.line ?? 0) > 1), 'both kinds of link are covered');
    const loaded = await store().load('s', query('secrets'));
    assert.deepEqual(
      loaded.findings.map((f) => f.id).sort(),
      expected
        .filter((s) => s.ref === 'main')
        .map((s) => Number(s.id))
        .sort(),
      'the store keeps the shown branch only',
    );
  });

  void test('a secret item that carried its value (the platform sends none) keeps nothing of it', () => {
    const leaked = 'AKIAIOSFODNN7EXAMPLE-wJalrXUtnFEMI';
    const page = decodeSecretsPage(
      {
        findings: [
          {
            id: '77',
            type: 'AWS',
            findingPath: '.env',
            findingPathUrl: 'https://x/blob/c/.env#L3',
            secret: leaked,
            value: leaked,
            rawValue: leaked,
            severity: 'SEVERITY_HIGH',
            status: 'FINDING_STATUS_OPEN',
            validationState: 'VALIDATION_STATE_CONFIRMED_VALID',
          },
        ],
      },
      new StringInterner(),
    );
    assert.equal(page.findings.length, 1);
    assert.ok(!JSON.stringify(page.findings).includes(leaked));
    assert.deepEqual(page.findings[0]?.location, { filePath: '.env', line: 3 });
    const bad = decodeSecretsPage({ findings: [{ id: 'not-a-number', findingPath: 'a' }, { id: '5' }, null] }, new StringInterner());
    assert.deepEqual([bad.findings.length, bad.skipped], [0, 3], 'no integer id or no path: skipped and counted');
  });

  void test("secrets filters are sent in the list's own spelling; statuses it lacks are applied here", async () => {
    const selection = { ...EMPTY_SELECTION, status: 'open', severities: ['critical', 'high'], validationStates: ['confirmed_valid'] };
    const filters = toQueryFilters(selection, 'secrets', { repo: project, ref: 'main', dedup: true });
    const mark = h.mark();
    const result = await store().load('s', { deploymentSlug: SLUG, issueType: 'secrets', filters });
    const url = new URL(h.requestsSince(mark, '/secrets')[0]?.rawUrl ?? '', 'http://x');
    assert.equal(url.searchParams.get('status'), 'FINDING_STATUS_OPEN');
    assert.deepEqual(url.searchParams.getAll('severity'), ['SEVERITY_CRITICAL', 'SEVERITY_HIGH']);
    assert.deepEqual(url.searchParams.getAll('validationState'), ['VALIDATION_STATE_CONFIRMED_VALID']);
    assert.ok(result.findings.every((f) => f.secret?.validation === 'confirmed_valid' && ['critical', 'high'].includes(f.severity)));
    assert.equal(toQueryFilters(selection, 'sast', { repo: project }).validationStates, undefined, 'never sent with code findings');
    const reviewing = await store().load('r', query('secrets', { status: 'reviewing' }));
    assert.deepEqual(reviewing.findings, [], 'a status secrets do not have: none, not all');
  });

  void test('code findings come with the AI code findings, marked, with their likely impact', async () => {
    const mark = h.mark();
    const result = await store().load('c', query('sast'));
    const ai = result.findings.filter((f) => f.ai);
    const expected = data.ai_sast.filter((f) => f.repository?.name === project && f.ref === 'main');
    assert.ok(expected.length > 0);
    assert.deepEqual(ai.map((f) => f.id).sort(), expected.map((f) => f.id).sort());
    assert.ok(ai.every((f) => f.issueType === 'sast' && f.ai?.impact && expected.some((e) => e.ai_impact === f.ai?.impact)));
    // Its one page, then the empty page that ends an offset-paged list (as for every list).
    assert.equal(h.server.requests.slice(mark).filter((r) => r.rawUrl.includes('issue_type=ai_sast')).length, 2, 'the AI list is asked for, page by page');
    const onlyAi = localFilterOf({ ...EMPTY_SELECTION, aiFindings: 'only' });
    const noAi = localFilterOf({ ...EMPTY_SELECTION, aiFindings: 'exclude' });
    assert.equal(result.findings.filter((f) => onlyAi?.(f)).length, ai.length);
    assert.equal(result.findings.filter((f) => noAi?.(f)).length, result.findings.length - ai.length);
    const detail = await h.client().findingDetail(SLUG, ai[0]);
    assert.equal(detail?.ai?.impact, ai[0]?.ai?.impact, 'the details are found in the AI list');
  });

  void test('a platform that refuses AI findings still shows the code findings, and says why', async () => {
    const s = store();
    h.server.faults.inject({ kind: 'status', status: 400 }, { pathIncludes: 'issue_type=ai_sast' });
    const result = await s.load('c', query('sast', { severities: ['high'] }));
    assert.ok(result.findings.length > 0);
    assert.ok(result.findings.every((f) => !f.ai));
    assert.deepEqual(result.ai && 'unavailable' in result.ai ? result.ai.unavailable.status : undefined, 400);
    assert.equal(result.unavailable, undefined, 'the code findings themselves are there');
    assert.equal(s.availability.unavailable('ai')?.status, 400);
    assert.deepEqual(s.availability.offered(), ['sast', 'sca', 'secrets'], 'the AI analysis is not offered');
  });

  void test('an AI list that fails for a while keeps the AI findings shown before, marked, and the code findings update', async () => {
    const s = store();
    const first = await s.load('c', query('sast'));
    const earlierAi = first.findings
      .filter((f) => f.ai)
      .map((f) => f.id)
      .sort();
    assert.ok(earlierAi.length > 0);
    h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: 'issue_type=ai_sast' }, 5);
    const again = await s.load('c', query('sast'), { force: true });
    assert.deepEqual(
      again.findings
        .filter((f) => f.ai)
        .map((f) => f.id)
        .sort(),
      earlierAi,
      'the AI findings shown before stay',
    );
    assert.ok(again.ai && 'failedBecause' in again.ai && PlatformError.is(again.ai.failedBecause, 'server'), 'the outage is not hidden');
    assert.equal(again.ai && 'since' in again.ai ? again.ai.since?.getTime() : undefined, first.loadedAt.getTime(), 'marked with when they were loaded');
    assert.notEqual(again.loadedAt, first.loadedAt, 'the code findings are a new answer');
    assert.equal(s.availability.unavailable('ai'), undefined, 'an outage is not a missing product');
  });

  void test('a secret is triaged as a secret, and shows ignored at once', async () => {
    const client = h.client();
    const s = store();
    const service = new TriageService({ api: () => client, store: s, deploymentSlug: () => SLUG, deploymentId: () => String(data.deployment.id) });
    const open = await s.load('s', query('secrets', { status: 'open' }));
    const target = open.findings[0];
    assert.ok(target);
    const mark = h.mark();
    await service.triage('secrets', [target.id], { state: 'ignored', reason: 'false_positive', note: 'test key' });
    const body = JSON.parse(h.requestsSince(mark, '/triage')[0]?.body ?? '{}') as Record<string, unknown>;
    assert.deepEqual(body, {
      issue_type: 'secrets',
      issue_ids: [target.id],
      new_triage_state: 'ignored',
      new_triage_reason: 'false_positive',
      new_note: 'test key',
    });
    assert.equal(
      s.peek(query('secrets', { status: 'open' }))?.findings.some((f) => f.id === target.id),
      false,
      'gone from the open view',
    );
    const again = await s.load('i', query('secrets', { status: 'ignored' }), { force: true });
    assert.ok(
      again.findings.some((f) => f.id === target.id),
      'the platform agrees',
    );
  });

  void test('a snapshot keeps AI and secret facts', async () => {
    const results = [await store().load('c', query('sast')), await store().load('s', query('secrets'))];
    const back = decodeSnapshot(encodeSnapshot(results));
    assert.ok(back);
    assert.deepEqual(
      back[0]?.findings.filter((f) => f.ai).map((f) => [f.id, f.ai?.impact]),
      results[0]?.findings.filter((f) => f.ai).map((f) => [f.id, f.ai?.impact]),
    );
    // Compared as JSON: a place read back may spell an absent column as `undefined`.
    const facts = (list: readonly Finding[] | undefined): string =>
      JSON.stringify(list?.map((f) => [f.issueType, f.id, f.secret, f.location, f.lineOfCodeUrl]));
    assert.equal(facts(back[1]?.findings), facts(results[1]?.findings));
  });
});
