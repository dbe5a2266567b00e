// Tags typed into the "Tag Project…" box, and the deployment's projects through the real client against the local platform: every page of
// the list, details loaded once, tags merged from the platform's answer, failures kept stale.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { ProjectsService, parseTags } from '../../../src/core/services/projects-service';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { queryOf, startHarness, until, type Harness } from './platform-harness';

void describe('parseTags', () => {
  void test('comma-separated tags are trimmed, de-duplicated and kept in the order typed', () => {
    assert.deepEqual(parseTags(' team-payments, pci ,team-payments,  prod '), ['team-payments', 'pci', 'prod']);
  });

  void test('empty entries between commas are ignored', () => {
    assert.deepEqual(parseTags(',a,, ,b,'), ['a', 'b']);
  });

  void test('the characters a tag may have', () => {
    assert.deepEqual(parseTags('v1.2, owner:alice, team/sub, me@corp, c++, snake_case, Ünïcode, 東京'), [
      'v1.2',
      'owner:alice',
      'team/sub',
      'me@corp',
      'c++',
      'snake_case',
      'Ünïcode',
      '東京',
    ]);
  });

  void test('nothing typed asks for at least one tag, with an example', () => {
    for (const input of ['', '   ', ',', ' , ,']) {
      assert.equal(parseTags(input), 'Type at least one tag, e.g. "team-payments, pci".', JSON.stringify(input));
    }
  });

  void test('a tag with a character it cannot have is refused, naming the tag', () => {
    for (const bad of ['has space', 'semi;colon', 'quote"d', '-leading-dash', '.hidden', 'tab\there', 'emoji🔥']) {
      const result = parseTags(`ok, ${bad}`);
      assert.equal(typeof result, 'string', bad);
      assert.ok((result as string).startsWith(`"${bad}" has characters a tag cannot have.`), `${bad}: ${String(result)}`);
    }
  });

  void test('a tag longer than 100 characters is refused, quoted short', () => {
    assert.deepEqual(parseTags('a'.repeat(100)), ['a'.repeat(100)]);
    assert.equal(parseTags('a'.repeat(101)), `"${'a'.repeat(20)}…" is longer than 100 characters.`);
  });

  void test('at most 50 tags at once (after de-duplication)', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    assert.deepEqual(parseTags(fifty.join(',')), fifty);
    assert.equal(parseTags([...fifty, 't50'].join(',')), 'At most 50 tags at once.');
    assert.deepEqual(parseTags([...fifty, ...fifty].join(',')), fifty);
  });
});

const PROJECTS = 230;

void describe('ProjectsService (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: PROJECTS, sastPerProject: 0, scaPerProject: 0 });
    h = await startHarness({ data });
  });
  after(() => h.close());
  beforeEach(() => {
    h.server.faults.clear();
    h.server.setLatency(0);
  });

  const service = (slug: () => string | undefined = () => 'acme'): ProjectsService => {
    const client = h.client();
    return new ProjectsService(() => client, slug);
  };
  const names = (list: readonly { name: string }[]): string[] => list.map((p) => p.name).sort();
  const listRequests = (mark: number): number => h.requestsSince(mark, '').filter((r) => r.path === '/api/v1/deployments/acme/projects').length;

  void test('loads every page of the project list', async () => {
    const s = service();
    let changes = 0;
    s.onDidChange(() => changes++);
    const mark = h.mark();
    const projects = await s.load();
    assert.equal(projects.length, PROJECTS);
    assert.deepEqual(names(projects), names(data.projects));
    const pages = h.requestsSince(mark, '/projects').map((r) => queryOf(r).get('page'));
    assert.deepEqual(pages.sort(), ['0', '1'], 'one page of 3 000 holds all 230, and page 1, asked alongside it, is the empty end');
    assert.equal(s.state.kind, 'loaded');
    assert.equal(s.projects, projects);
    assert.equal(s.find('acme/labs/proto+grpc gateway')?.name, 'acme/labs/proto+grpc gateway');
    assert.equal(s.find('acme/nope'), undefined);
    assert.equal(changes, 2, 'loading, then loaded');
  });

  void test('a second load is answered from memory; concurrent loads share one; force fetches again', async () => {
    const s = service();
    const mark = h.mark();
    const [a, b] = await Promise.all([s.load(), s.load({ force: true })]);
    assert.equal(a, b);
    assert.equal(listRequests(mark), 2);
    assert.equal(await s.load(), a);
    assert.equal(listRequests(mark), 2);
    await s.load({ force: true });
    assert.equal(listRequests(mark), 4, 'again the page it took and its end');
  });

  void test('a deployment that refuses pages of 3 000 (400) is read 100 at a time, from then on', async (t) => {
    t.after(() => h.server.setProjectsPageLimit(undefined));
    h.server.setProjectsPageLimit(100);
    const s = service();
    const mark = h.mark();
    assert.deepEqual(names(await s.load()), names(data.projects));
    const sizes = h.requestsSince(mark, '/projects').map((r) => queryOf(r).get('page_size'));
    assert.equal(sizes.filter((size) => size === '3000').length, sizes.indexOf('100'), 'refused first, then read at the documented default');
    const again = h.mark();
    await s.load({ force: true });
    assert.ok(
      h.requestsSince(again, '/projects').every((r) => queryOf(r).get('page_size') === '100'),
      'not asked at 3 000 again',
    );
  });

  void test("the workspace's projects show before the list: remembered ones at once, others read one by one beside it", async () => {
    const s = service();
    const remembered = { id: 1, name: 'acme/remembered', tags: [] };
    s.adoptKnown([remembered]);
    // A slow list (a large organization): the workspace's projects do not wait for it.
    h.server.faults.inject({ kind: 'delay', ms: 300 }, { pathIncludes: '/projects?page' }, 2);
    const listing = s.load();
    assert.deepEqual(s.state.kind === 'loading' ? s.state.known : undefined, [remembered], 'shown while the list loads');
    assert.equal(s.find('acme/remembered'), remembered, 'and found, for the branch its folder shows');
    const reading = s.readKnown([data.projects[3].name, 'acme/not-a-project']);
    await reading;
    assert.equal(s.state.kind, 'loading', 'read before the list answered');
    assert.deepEqual(
      s.known.map((p) => p.name),
      [data.projects[3].name, 'acme/remembered'],
      'the one the deployment has, read; the unknown name left out',
    );
    await listing;
    assert.equal(s.find('acme/remembered'), undefined, 'once listed, only the list counts');
  });

  void test('without a deployment nothing is asked', async () => {
    const s = service(() => undefined);
    const mark = h.mark();
    assert.deepEqual(await s.load(), []);
    assert.equal(h.mark(), mark);
    await assert.rejects(s.loadDetails('acme/payments-api'), /Not signed in/);
    await assert.rejects(s.addTags('acme/payments-api', ['x']), /Not signed in/);
  });

  void test('while reloading, the previous list is still shown', async () => {
    const s = service();
    const first = await s.load();
    h.server.setLatency(20);
    const pending = s.load({ force: true });
    assert.equal(s.state.kind, 'loading');
    assert.equal(s.projects, first);
    await pending;
  });

  void test('a failure after a success keeps the old list, marked stale; the next load fetches again', async () => {
    const s = service();
    const first = await s.load();
    h.server.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/projects?page=1' });
    await assert.rejects(s.load({ force: true }), (e: unknown) => PlatformError.is(e, 'server'));
    const state = s.state;
    assert.equal(state.kind, 'loaded');
    assert.ok(state.kind === 'loaded' && PlatformError.is(state.staleBecause, 'server'));
    assert.equal(s.projects, first, 'the whole old list, not the first page of the failed load');
    const mark = h.mark();
    const again = await s.load();
    assert.equal(listRequests(mark), 2, 'a stale list is fetched again without force');
    assert.equal(again.length, PROJECTS);
    assert.equal(s.state.kind === 'loaded' ? s.state.staleBecause : 'x', undefined);
  });

  void test('a failure with no list before reads as failed', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 404 }, { pathIncludes: '/projects' });
    await assert.rejects(s.load(), (e: unknown) => PlatformError.is(e, 'notFound'));
    assert.equal(s.state.kind, 'failed');
    assert.deepEqual(s.projects, []);
  });

  void test('project details (managed scan settings) are fetched once, for concurrent callers too', async () => {
    const s = service();
    const name = 'acme/platform/sub/billing-service';
    const stored = data.projects.find((p) => p.name === name);
    assert.ok(stored);
    const mark = h.mark();
    const [a, b] = await Promise.all([s.loadDetails(name), s.loadDetails(name)]);
    const c = await s.loadDetails(name);
    assert.equal(a, b);
    assert.equal(a, c);
    assert.deepEqual(a.managedScanConfig, {
      diffScanEnabled: stored.managed_scan_config.diff_scan.enabled,
      fullScanEnabled: stored.managed_scan_config.full_scan.enabled,
    });
    const asked = h.requestsSince(mark, '/projects/');
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.path, '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service');
  });

  void test('details are fetched again after the list is reloaded', async () => {
    const s = service();
    const name = 'acme/payments-api';
    await s.loadDetails(name);
    await s.load({ force: true });
    const mark = h.mark();
    await s.loadDetails(name);
    assert.equal(h.requestsSince(mark, '/projects/').length, 1);
  });

  void test('a failed details load is not remembered: the next call asks again', async () => {
    const s = service();
    const mark = h.mark();
    await assert.rejects(s.loadDetails('acme/no-such-project'), (e: unknown) => PlatformError.is(e, 'notFound'));
    await assert.rejects(s.loadDetails('acme/no-such-project'), (e: unknown) => PlatformError.is(e, 'notFound'));
    assert.equal(h.requestsSince(mark, '/projects/').length, 2);
  });

  void test('a caller that stops waiting for details does not cancel them for another caller', async () => {
    const s = service();
    h.server.setLatency(30);
    const impatient = new AbortController();
    const first = assert.rejects(s.loadDetails('acme/web-frontend', impatient.signal));
    const second = s.loadDetails('acme/web-frontend');
    impatient.abort();
    await first;
    assert.equal((await second).name, 'acme/web-frontend');
  });

  void test("adding tags merges them with the project's tags and updates the list and the details", async () => {
    const s = service();
    const name = 'acme/labs/proto+grpc gateway';
    const stored = data.projects.find((p) => p.name === name);
    assert.ok(stored);
    const before = [...stored.tags];
    await s.load();
    let changes = 0;
    s.onDidChange(() => changes++);
    const mark = h.mark();
    const updated = await s.addTags(name, ['team:labs', 'grpc']);
    const put = h.requestsSince(mark, '/tags');
    assert.equal(put.length, 1);
    assert.equal(put[0]?.method, 'PUT');
    assert.deepEqual(JSON.parse(put[0]?.body ?? 'null'), { tags: ['team:labs', 'grpc'] });
    assert.deepEqual([...updated.tags].sort(), [...before, 'team:labs', 'grpc'].sort());
    assert.deepEqual(s.find(name)?.tags, updated.tags);
    assert.equal(changes, 1);
    // The other projects are untouched.
    assert.deepEqual(s.find('acme/payments-api')?.tags, data.projects.find((p) => p.name === 'acme/payments-api')?.tags);
    // Details now come from the answer, without another request.
    const mark2 = h.mark();
    assert.equal(await s.loadDetails(name), updated);
    assert.equal(h.mark(), mark2);
  });

  void test('adding tags that fails changes nothing shown', async () => {
    const s = service();
    await s.load();
    const before = s.find('acme/web-frontend')?.tags;
    h.server.faults.inject({ kind: 'status', status: 400 }, { pathIncludes: '/tags' });
    await assert.rejects(s.addTags('acme/web-frontend', ['x']), (e: unknown) => PlatformError.is(e, 'badRequest'));
    assert.equal(s.find('acme/web-frontend')?.tags, before);
    assert.equal(s.state.kind === 'loaded' ? s.state.staleBecause : 'x', undefined);
  });

  void test('clear (sign-out) aborts a load, and the old list does not come back', async () => {
    const s = service();
    await s.load();
    h.server.faults.inject({ kind: 'hang' }, { pathIncludes: '/projects' });
    const mark = h.mark();
    const pending = assert.rejects(s.load({ force: true }), (e: unknown) => PlatformError.is(e, 'cancelled'));
    await until(() => listRequests(mark) >= 1);
    s.clear();
    await pending;
    assert.deepEqual(s.state, { kind: 'idle' });
    assert.deepEqual(s.projects, []);
  });
});
