// Body-cursor paging and the inventory's requests, against scripted loopback servers: what each
// request's body holds, when a list ends (hasMore, or without it the cursor and the page), the
// loops and lies it refuses, the checks made before any request, and the retries of these POST
// reads (a POST that is not marked as a read is still never repeated).
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { bodyCursorPages, type BodyCursorPage } from '../../../src/core/api/body-cursor-paging';
import { PlatformClient } from '../../../src/core/api/client';
import { encodeDependencyFilter } from '../../../src/core/api/dependencies-requests';
import { isRetryable } from '../../../src/core/api/retry';
import { PlatformError } from '../../../src/core/model/errors';
import type { InventoryPage } from '../../../src/core/model/dependency';
import { sendJson, startLocalServer, type LocalServer, type SeenRequest } from './helpers/localServer';
import { client as httpClient, closeAll, rejectsWith, scripted, status } from './helpers/scriptedHttp';
import { said } from '../../../src/core/l10n';

const servers: LocalServer[] = [];
const clients: PlatformClient[] = [];
void afterEach(async () => {
  await Promise.all([...clients.splice(0).map((c) => c.close()), ...servers.splice(0).map((s) => s.close()), closeAll()]);
});

/** A server answering the n-th request with the n-th answer (the last repeats). */
async function answering(
  ...answers: ((req: SeenRequest, res: ServerResponse) => void)[]
): Promise<{ server: LocalServer; client: PlatformClient; bodies: () => Record<string, unknown>[] }> {
  let n = 0;
  const server = await startLocalServer((req, res) => answers[Math.min(n++, answers.length - 1)]?.(req, res));
  servers.push(server);
  const client = new PlatformClient({
    baseUrl: server.url,
    extensionVersion: '1',
    getToken: () => Promise.resolve('tok'),
    retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 3_000 },
    timeouts: { headersMs: 300, bodyMs: 300 },
  });
  clients.push(client);
  return { server, client, bodies: () => server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>) };
}

const page =
  (body: unknown) =>
  (_req: SeenRequest, res: ServerResponse): void =>
    sendJson(res, 200, body);
const lock = (path: string): Record<string, unknown> => ({ lockfilePath: path, numDependencies: 1 });
const repo = (id: number): Record<string, unknown> => ({ id, name: `r${id}`, numDependencies: 1 });

/** Every page of a list; the call is made inside, so a request refused before any page is a rejection. */
async function all<T>(call: () => AsyncIterable<InventoryPage<T>>): Promise<{ items: T[]; skipped: number; pages: number }> {
  const pages = call();
  const items: T[] = [];
  let skipped = 0;
  let count = 0;
  for await (const p of pages) {
    items.push(...p.items);
    skipped += p.skipped;
    count++;
  }
  return { items, skipped, pages: count };
}

void describe('body-cursor paging over HTTP', () => {
  void it('sends pageSize and the filter every time, no cursor first, then each cursor back as the type it came in', async () => {
    const { client, bodies, server } = await answering(
      page({ repositorySummaries: [repo(1)], cursor: 1, hasMore: true }),
      page({ repositorySummaries: [repo(2)], cursor: 2, hasMore: true }),
      page({ repositorySummaries: [repo(3)] }),
    );
    const got = await all(() => client.dependencyRepositories('42', { ecosystems: ['npm'] }, { pageSize: 1 }));
    assert.deepEqual(
      got.items.map((r) => r.id),
      ['1', '2', '3'],
    );
    assert.deepEqual(bodies(), [
      { pageSize: 1, dependencyFilter: { ecosystem: ['npm'] } },
      { pageSize: 1, dependencyFilter: { ecosystem: ['npm'] }, cursor: 1 },
      { pageSize: 1, dependencyFilter: { ecosystem: ['npm'] }, cursor: 2 },
    ]);
    assert.ok(server.requests.every((r) => r.method === 'POST' && r.url === '/api/v1/deployments/42/dependencies/repositories'));
    const strings = await answering(
      page({ lockfileSummaries: [lock('a')], cursor: '17', hasMore: true }),
      page({ lockfileSummaries: [lock('b')], hasMore: false }),
    );
    await all(() => strings.client.lockfiles('42', 'team/repo 1', {}));
    assert.equal(strings.bodies()[1]?.cursor, '17', 'a string cursor goes back as a string, even when it holds digits');
    assert.equal(strings.server.requests[0]?.url, '/api/v1/deployments/42/dependencies/repositories/team%2Frepo%201/lockfiles');
    assert.equal(strings.bodies()[0]?.pageSize, 1000, 'the default page size');
  });

  void it('stops at hasMore false even with a cursor, and reads on while hasMore is true even past an empty page', async () => {
    const stop = await answering(page({ dependencies: [], cursor: '9', hasMore: false }));
    assert.equal((await all(() => stop.client.dependencies('1', {}))).pages, 1, 'an empty first page is still a page');
    assert.equal(stop.server.requests.length, 1);
    const on = await answering(
      page({ lockfileSummaries: [], cursor: 'a', hasMore: true }),
      page({ lockfileSummaries: [lock('x')], cursor: 'b', hasMore: false }),
    );
    assert.deepEqual(
      (await all(() => on.client.lockfiles('1', '2', {}))).items.map((l) => l.path),
      ['x'],
    );
    assert.equal(on.server.requests.length, 2);
  });

  void it('without hasMore, reads until the cursor is absent or a page is empty', async () => {
    const byCursor = await answering(page({ lockfileSummaries: [lock('a')], cursor: 'c1' }), page({ lockfileSummaries: [lock('b')] }));
    assert.deepEqual(
      (await all(() => byCursor.client.lockfiles('1', '2', {}))).items.map((l) => l.path),
      ['a', 'b'],
    );
    assert.equal(byCursor.server.requests.length, 2);
    const byEmpty = await answering(page({ lockfileSummaries: [lock('a')], cursor: 'c1' }), page({ lockfileSummaries: [], cursor: 'c2' }));
    assert.equal((await all(() => byEmpty.client.lockfiles('1', '2', {}))).items.length, 1);
    assert.equal(byEmpty.server.requests.length, 2);
  });

  void it('refuses a repeated cursor and a "more" without a cursor, saying which list', async () => {
    const loop = await answering(page({ dependencies: [], cursor: 'same', hasMore: true }));
    const looped = await rejectsWith(
      all(() => loop.client.dependencies('1', {})),
      'invalidResponse',
    );
    assert.match(looped.message, /same cursor twice for the Supply Chain dependencies/);
    assert.equal(loop.server.requests.length, 2);
    const lost = await answering(page({ repositorySummaries: [repo(1)], hasMore: true }));
    assert.match(
      (
        await rejectsWith(
          all(() => lost.client.dependencyRepositories('1', {})),
          'invalidResponse',
        )
      ).message,
      /more of the Supply Chain repositories with dependencies follows but sent no cursor/,
    );
  });

  void it('stops at the page cap', async () => {
    let n = 0;
    const fetchPage = (): Promise<BodyCursorPage<number>> =>
      Promise.resolve({ value: n, cursor: { text: String(++n), numeric: false }, hasMore: true, rawCount: 1 });
    const seen: number[] = [];
    await assert.rejects(
      async () => {
        for await (const v of bodyCursorPages(fetchPage, { pageSize: 1, query: {}, what: said('the things'), maxPages: 3 })) seen.push(v);
      },
      (e: unknown) => PlatformError.is(e, 'invalidResponse') && /beyond 3 pages/.test(e.message),
    );
    assert.deepEqual(seen, [0, 1, 2]);
  });

  void it('counts what it skipped on every page', async () => {
    const { client } = await answering(
      page({ dependencies: [{ repositoryId: '1', package: { name: 'a' } }, 7, {}], cursor: '1', hasMore: true }),
      page({ dependencies: [null], hasMore: false }),
    );
    const got = await all(() => client.dependencies('1', {}));
    assert.deepEqual([got.items.length, got.skipped, got.pages], [1, 3, 2]);
  });
});

void describe('checks before any request', () => {
  void it('refuses a page size outside 1..10 000, and a filter the service could not take', async () => {
    const { client, server } = await answering(page({}));
    for (const pageSize of [0, 10_001, 2.5])
      await rejectsWith(
        all(() => client.dependencies('1', {}, { pageSize })),
        'badRequest',
      );
    await rejectsWith(
      all(() => client.dependencyRepositories('1', { transitivity: ['indirect'] })),
      'badRequest',
    );
    await rejectsWith(
      all(() => client.lockfiles('1', '2', { licensePolicy: ['deny' as 'block'] })),
      'badRequest',
    );
    await rejectsWith(
      all(() => client.dependencies('1', { packages: [{ name: ' ' }] })),
      'badRequest',
    );
    const bound = await rejectsWith(
      all(() => client.dependencies('1', { packages: [{ name: 'lodash', lower: '4.17.0' }] })),
      'badRequest',
    );
    assert.match(bound.message, /must start with >= or >/);
    await rejectsWith(
      all(() => client.dependencies('1', { packages: [{ name: 'lodash', upper: '>=5' }] })),
      'badRequest',
    );
    assert.equal(server.requests.length, 0);
  });

  void it('encodes every field of the filter, and leaves out what is empty', () => {
    assert.deepEqual(
      encodeDependencyFilter({
        ecosystems: ['NPM', 'pypi'],
        licenses: ['MIT', ' '],
        licensePolicy: ['allow', 'comment', 'block'],
        lockfilePath: ' package-lock.json ',
        repositoryIds: ['370001'],
        transitivity: ['direct', 'transitive', 'unknown'],
        includeArchived: true,
        packages: [
          { name: 'lodash', exact: true, version: '4.17.20' },
          { name: 'express', lower: '>=4.0.0', upper: '<4.19.2', exact: false },
        ],
      }),
      {
        ecosystem: ['npm', 'pypi'],
        license: ['MIT'],
        licensePolicySettings: ['LICENSE_POLICY_SETTING_ALLOW', 'LICENSE_POLICY_SETTING_COMMENT', 'LICENSE_POLICY_SETTING_BLOCK'],
        lockfilePath: 'package-lock.json',
        repositoryId: ['370001'],
        transitivity: ['DIRECT', 'TRANSITIVE', 'UNKNOWN_TRANSITIVITY'],
        packageFilters: [
          { name: 'lodash', exactNameMatch: true, exactVersion: '4.17.20' },
          { name: 'express', versionLowerBound: '>=4.0.0', versionUpperBound: '<4.19.2' },
        ],
        includeArchived: true,
      },
    );
    assert.deepEqual(encodeDependencyFilter({ ecosystems: [], licenses: [], lockfilePath: '', packages: [], includeArchived: false }), {});
  });
});

void describe("retries of the inventory's POST reads", () => {
  void it('a read POST is retried on 429, 502, 503, 504 and a timeout, with the same body; any other POST is not', async () => {
    const server = await scripted(status(429, '', { 'retry-after': '0' }), status(502), status(503), status(504), (_req, res) => sendJson(res, 200, { ok: 1 }));
    const http = httpClient(server.url, { retryPolicy: { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 5_000 } });
    assert.deepEqual(await http.requestJson({ method: 'POST', path: '/api/x', body: { pageSize: 1 }, what: said('x'), idempotent: true }), { ok: 1 });
    assert.deepEqual(
      server.requests.map((r) => r.body),
      Array(5).fill('{"pageSize":1}'),
    );
    const timeout = new PlatformError('timeout', 't');
    const cutOff = new PlatformError('invalidResponse', 'cut', { cause: new SyntaxError('end') });
    assert.deepEqual(
      [isRetryable(timeout, 'POST', true), isRetryable(cutOff, 'POST', true), isRetryable(timeout, 'POST'), isRetryable(cutOff, 'POST')],
      [true, true, false, false],
    );
    const plain = await scripted(status(503));
    await rejectsWith(httpClient(plain.url).requestJson({ method: 'POST', path: '/api/x', body: {}, what: said('x') }), 'server');
    assert.equal(plain.requests.length, 1);
  });

  void it("the client's lists mark their POSTs as reads: a 503 and a 429 are retried with the same cursor", async () => {
    const { client, bodies } = await answering(
      page({ dependencies: [{ repositoryId: '1', package: { name: 'a' } }], cursor: '5', hasMore: true }),
      (_req, res) => sendJson(res, 503, { error: 'busy' }),
      (_req, res) => sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '0' }),
      page({ dependencies: [{ repositoryId: '1', package: { name: 'b' } }], hasMore: false }),
    );
    assert.deepEqual(
      (await all(() => client.dependencies('1', {}))).items.map((d) => d.name),
      ['a', 'b'],
    );
    assert.deepEqual(
      bodies().map((b) => b.cursor),
      [undefined, '5', '5', '5'],
    );
  });
});
