// Loading findings into a slot, through the real client against the local platform: paging,
// sharing one load between callers, newer queries winning, failures keeping what was shown.
import { FIRST_READ_PAGES } from '../../../src/core/services/answer-shapes';
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { SlotState } from '../../../src/core/services/slot-bindings';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { EMPTY_SELECTION, toQueryFilters } from '../../../src/core/services/filters';
import type { PlatformData } from '../../platform/generator';
import { generateDeployment } from '../../platform/generator';
import { queryOf, startHarness, until, type Harness } from './platform-harness';

const SLUG = 'acme';
const PAGE_SIZE = 100;

void describe('FindingsStore (real client, local platform)', () => {
  let h: Harness;
  let project: string;
  let allIds: number[];
  let highIds: number[];
  let lowIds: number[];
  let data: PlatformData;

  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 250, scaPerProject: 40, refsPerProject: 1 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
    const ids = (severity?: string): number[] =>
      data.sast
        .filter((f) => !severity || f.severity === severity)
        .map((f) => f.id ?? -1)
        .sort((a, b) => a - b);
    allIds = ids();
    highIds = ids('high');
    lowIds = ids('low');
    assert.equal(allIds.length, 250);
    assert.ok(highIds.length > 0 && lowIds.length > 0);
  });
  after(() => h.close());
  beforeEach(() => {
    h.server.faults.clear();
    h.server.setLatency(0);
  });

  const query = (filters: FindingsQuery['filters'] = {}): FindingsQuery => ({
    deploymentSlug: SLUG,
    issueType: 'sast',
    filters: { repos: [project], ...filters },
  });
  const service = (): FindingsStore => {
    const client = h.client();
    return new FindingsStore(() => client, { pageSize: PAGE_SIZE });
  };
  const sortedIds = (findings: readonly { id: number }[]): number[] => findings.map((f) => f.id).sort((a, b) => a - b);
  const findingsRequests = (mark: number): number => h.requestsSince(mark, '/findings').length;

  void test('loads every page of a slot, then reads as loaded', async () => {
    const s = service();
    const changes: string[] = [];
    s.onDidChange((slots) => changes.push(...slots));
    assert.deepEqual(s.state('p1'), { kind: 'idle' });
    const mark = h.mark();
    const result = await s.load('p1', query());
    assert.deepEqual(sortedIds(result.findings), allIds);
    assert.equal(result.skipped, 0);
    const pages = h.requestsSince(mark, '/findings').map((r) => queryOf(r));
    assert.deepEqual(
      pages.map((q) => q.get('page')),
      ['0', '1', '2', '3'],
    );
    assert.ok(pages.every((q) => q.get('page_size') === '100' && q.get('repos') === project));
    const state = s.state('p1');
    assert.equal(state.kind, 'loaded');
    assert.equal(state.kind === 'loaded' ? state.result : undefined, result);
    assert.deepEqual(
      changes,
      ['p1', 'p1', 'p1', 'p1', 'p1'],
      'one change when loading starts, one per page that brought findings (the count so far), one when they are in',
    );
  });

  void test('the same query again is answered from memory; force fetches again', async () => {
    const s = service();
    const first = await s.load('p1', query());
    const mark = h.mark();
    assert.equal(await s.load('p1', query()), first);
    assert.equal(findingsRequests(mark), 0);
    assert.equal(s.cached('p1', query()), first);
    const again = await s.load('p1', query(), { force: true });
    assert.notEqual(again, first);
    assert.equal(findingsRequests(mark), 4);
  });

  void test('two loads of the same query at once share one set of requests', async () => {
    const s = service();
    const mark = h.mark();
    const [a, b] = await Promise.all([s.load('p1', query()), s.load('p1', query(), { force: true })]);
    assert.equal(a, b);
    assert.deepEqual(sortedIds(a.findings), allIds);
    assert.equal(findingsRequests(mark), 4, 'pages 0, 1, 2 and the empty 3, once');
  });

  void test('a caller that stops waiting does not cancel the load another caller shares', async () => {
    const s = service();
    h.server.setLatency(20);
    const mark = h.mark();
    const impatient = new AbortController();
    const first = assert.rejects(s.load('p1', query(), { signal: impatient.signal }), (e: unknown) => PlatformError.is(e, 'cancelled'));
    const second = s.load('p1', query());
    impatient.abort();
    await first;
    assert.deepEqual(sortedIds((await second).findings), allIds);
    assert.equal(findingsRequests(mark), 4);
  });

  void test('a newer query for a slot supersedes a slower older one, whose answer never shows', async () => {
    const s = service();
    const seen: SlotState[] = [];
    s.onDidChange((slots) => seen.push(...slots.map((slot) => s.state(slot))));
    // The older query (low severities) is slow; the newer one (high) is quick.
    h.server.faults.inject({ kind: 'delay', ms: 150 }, { pathIncludes: 'severities=low' }, 5);
    const older = assert.rejects(s.load('p1', query({ severities: ['low'] })), (e: unknown) => PlatformError.is(e, 'cancelled'));
    await until(() => h.server.requests.some((r) => r.rawUrl.includes('severities=low')));
    const newer = await s.load('p1', query({ severities: ['high'] }));
    assert.deepEqual(sortedIds(newer.findings), highIds);
    await older;
    // Give the slow answer every chance to arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const state = s.state('p1');
    assert.equal(state.kind, 'loaded');
    assert.deepEqual(state.kind === 'loaded' ? sortedIds(state.result.findings) : [], highIds);
    for (const st of seen) {
      const shown = st.kind === 'loaded' ? st.result : st.kind === 'loading' ? st.previous : undefined;
      assert.ok(!shown || shown.query.filters.severities?.[0] === 'high', 'the low-severity answer was never shown');
    }
  });

  void test('different slots load independently', async () => {
    const s = service();
    const [lows, highs] = await Promise.all([s.load('a', query({ severities: ['low'] })), s.load('b', query({ severities: ['high'] }))]);
    assert.deepEqual(sortedIds(lows.findings), lowIds);
    assert.deepEqual(sortedIds(highs.findings), highIds);
  });

  void test('a failure after a success keeps the old findings, marked stale, and the next load fetches again', async () => {
    const s = service();
    const good = await s.load('p1', query());
    // Page 1 fails (500 is not retried): a partial answer (page 0 only) must not replace the good one.
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: 'page=1&' });
    await assert.rejects(s.load('p1', query(), { force: true }), (e: unknown) => PlatformError.is(e, 'server'));
    const state = s.state('p1');
    assert.equal(state.kind, 'loaded');
    if (state.kind !== 'loaded') return;
    assert.deepEqual(sortedIds(state.result.findings), allIds);
    assert.equal(state.result.loadedAt, good.loadedAt);
    assert.ok(PlatformError.is(state.result.staleBecause, 'server'));
    assert.equal(s.cached('p1', query()), undefined, 'a stale answer is not served as fresh');
    const mark = h.mark();
    const fresh = await s.load('p1', query());
    assert.equal(findingsRequests(mark), 4);
    assert.equal(fresh.staleBecause, undefined);
    assert.equal(s.state('p1').kind, 'loaded');
  });

  void test('a failure with nothing shown before reads as failed, with the error', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 401 }, { pathIncludes: 'issue_type=sast' }); // the code list (the AI list beside it may be refused)
    await assert.rejects(s.load('p1', query()), (e: unknown) => PlatformError.is(e, 'unauthorized'));
    const state = s.state('p1');
    assert.equal(state.kind, 'failed');
    assert.ok(state.kind === 'failed' && PlatformError.is(state.error, 'unauthorized'));
  });

  void test('a code list the deployment does not have (404) answers with no findings and says so, asked in one wave', async () => {
    const s = service();
    const mark = h.mark();
    // Every code request is refused (in either spelling of the branch, as a deployment without Code does).
    h.server.faults.inject({ kind: 'status', status: 404 }, { pathIncludes: 'issue_type=sast' }, 100);
    const result = await s.load('p1', query());
    assert.equal(result.findings.length, 0);
    assert.equal(result.unavailable?.status, 404);
    assert.equal(
      findingsRequests(mark),
      FIRST_READ_PAGES,
      'the first wave (pages 0 to 3) only: not retried, and not asked again in the other spelling of the branch',
    );
    assert.equal(s.state('p1').kind, 'loaded', 'a state, not an error');
    assert.equal(s.availability.unavailable('sast')?.status, 404);
    h.server.faults.clear();
    const again = await s.load('p1', query(), { force: true });
    assert.ok(again.findings.length > 0, 'the next load asks again: a deployment can gain a product');
    assert.equal(s.availability.unavailable('sast'), undefined);
  });

  void test('a transient 503 is retried and the load succeeds', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: '/findings' });
    assert.deepEqual(sortedIds((await s.load('p1', query())).findings), allIds);
  });

  void test('while a load runs, the previous findings are still there to show', async () => {
    const s = service();
    const first = await s.load('p1', query());
    h.server.setLatency(30);
    const pending = s.load('p1', query(), { force: true });
    const during = s.state('p1');
    assert.equal(during.kind, 'loading');
    assert.equal(during.kind === 'loading' ? during.previous : undefined, first);
    await pending;
  });

  void test('expire keeps findings shown but makes the next load fetch again, only for matching slots', async () => {
    const s = service();
    // Two slots with different queries (equal queries would share one answer).
    const other = query({ severities: ['high'] });
    await s.load('acme/a:sast', query());
    await s.load('other:sast', other);
    s.expire('acme/');
    assert.equal(s.state('acme/a:sast').kind, 'loaded');
    assert.equal(s.cached('acme/a:sast', query()), undefined);
    assert.ok(s.cached('other:sast', other));
    const mark = h.mark();
    await s.load('acme/a:sast', query());
    const expiredAsked = findingsRequests(mark);
    await s.load('other:sast', other);
    assert.ok(expiredAsked > 0, 'the expired answer is fetched again');
    assert.equal(findingsRequests(mark), expiredAsked, 'the other answer is not');
    assert.ok(s.cached('acme/a:sast', query()));
  });

  void test('clear aborts what is in flight and forgets every slot', async () => {
    const s = service();
    await s.load('done', query());
    h.server.faults.inject({ kind: 'hang' }, { pathIncludes: '/findings' });
    const mark = h.mark();
    const hanging = assert.rejects(s.load('p1', query({ severities: ['low'] })), (e: unknown) => PlatformError.is(e, 'cancelled'));
    await until(() => findingsRequests(mark) >= 1);
    const changes: string[] = [];
    s.onDidChange((slots) => changes.push(...slots));
    s.clear();
    await hanging;
    assert.deepEqual(s.state('p1'), { kind: 'idle' });
    assert.deepEqual(s.state('done'), { kind: 'idle' });
    assert.deepEqual(changes.sort(), ['done', 'p1']);
  });

  void test('dispose (window closing) aborts what is in flight and tells nobody afterwards', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'hang' }, { pathIncludes: '/findings' });
    const mark = h.mark();
    const hanging = assert.rejects(s.load('p1', query()), (e: unknown) => PlatformError.is(e, 'cancelled'));
    await until(() => findingsRequests(mark) >= 1);
    let heard = 0;
    s.onDidChange(() => heard++);
    s.dispose();
    await hanging;
    const after = heard;
    h.server.faults.clear();
    await s.load('p2', query());
    assert.equal(heard, after, 'listeners were dropped');
  });

  void test('a filter selection reaches the platform as the query of each issue type', async () => {
    const s = service();
    const selection = { ...EMPTY_SELECTION, severities: ['critical', 'high'], confidence: 'high', transitivities: ['direct'] };
    const scope = { repo: project };
    const mark = h.mark();
    const sca = await s.load('sca', { deploymentSlug: SLUG, issueType: 'sca', filters: toQueryFilters(selection, 'sca', scope) });
    const sast = await s.load('sast', { deploymentSlug: SLUG, issueType: 'sast', filters: toQueryFilters(selection, 'sast', scope) });
    const expectedSca = data.sca.filter((f) => ['critical', 'high'].includes(f.severity ?? '') && f.found_dependency?.transitivity === 'direct');
    const expectedSast = data.sast.filter((f) => ['critical', 'high'].includes(f.severity ?? '') && f.confidence === 'high');
    assert.ok(expectedSca.length > 0 && expectedSast.length > 0);
    assert.deepEqual(
      sortedIds(sca.findings),
      expectedSca.map((f) => f.id ?? -1).sort((a, b) => a - b),
    );
    assert.deepEqual(
      sortedIds(sast.findings),
      expectedSast.map((f) => f.id ?? -1).sort((a, b) => a - b),
    );
    assert.ok(sca.findings.every((f) => f.issueType === 'sca' && f.sca?.transitivity === 'direct'));
    const sent = h.requestsSince(mark, '/findings').map(queryOf);
    const scaRequest = sent.find((q) => q.get('issue_type') === 'sca');
    const sastRequest = sent.find((q) => q.get('issue_type') === 'sast');
    assert.equal(scaRequest?.get('confidence'), null, 'a code-only filter is not sent for supply-chain findings');
    assert.deepEqual(scaRequest?.getAll('transitivities'), ['direct']);
    assert.equal(sastRequest?.get('transitivities'), null, 'a supply-chain-only filter is not sent for code findings');
    assert.equal(sastRequest?.get('confidence'), 'high');
  });
});
