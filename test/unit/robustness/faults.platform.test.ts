/**
 * Every fault the local platform can inject, one request at a time, through the real
 * PlatformClient over real HTTP: is it retried as the policy says (a GET is retried on 429, 502,
 * 503, 504, network failures and timeouts; nothing else), does the call recover when the next
 * attempt succeeds, and what does the user read when the attempts run out.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PlatformClient, PlatformClientOptions } from '../../../src/core/api/client';
import type { RetryInfo } from '../../../src/core/api/retry';
import type { SbomExportRequest } from '../../../src/core/model/sbom';
import type { Fault } from '../../platform/index';
import { SECRET_TOKEN, expectFailure, rejectionGuard, startPlatform, type Platform } from './robustness-harness';
import { beforeTimer } from '../helpers/before-timer';

const RETRIES = 2;
/** A hostile proxy page that quotes the request, Authorization header included. */
const ECHOING_BODY = `<html><body>upstream failed for GET with Authorization: Bearer ${SECRET_TOKEN}</body></html>`;
/** Every message ends in something the user can do. */
const NEXT_STEP = /(Try again|try again|Check |check |Narrow the request|Sign in)/;

const SBOM_REQUEST = (repositoryId: number): SbomExportRequest => ({
  repositoryId,
  ref: 'main',
  outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
  cycloneDxVersion: '1.6',
  componentType: 'APPLICATION',
});

const RETRY_POLICY = { maxRetries: RETRIES, baseDelayMs: 1, maxDelayMs: 4, totalBudgetMs: 10_000 };

let p: Platform;
let client: PlatformClient;
const guard = rejectionGuard();

before(async () => {
  guard.install();
  p = await startPlatform({ seed: 11, projects: 6, sastPerProject: 30, scaPerProject: 10, refsPerProject: 1 });
  client = p.client({ retryPolicy: RETRY_POLICY });
});
after(async () => {
  try {
    await guard.check();
  } finally {
    guard.uninstall();
    await p.close();
  }
});
beforeEach(() => {
  p.server.faults.clear();
  p.server.requests.length = 0;
});

const listProjects = (c: PlatformClient = client): Promise<number[]> => c.listProjects(p.slug).then((list) => list.map((x) => x.id));
const allProjectIds = (): number[] => p.server.data.projects.map((x) => x.id);
// The project list fits in page 0; page 1 (asked alongside, to see the list end) is left alone,
// so the attempts counted are those at page 0.
const FIRST_PAGE = '/projects?page=0&';
const attempts = (): number => p.server.requests.filter((r) => r.rawUrl.includes(FIRST_PAGE)).length;
const inject = (fault: Fault, times = 1): void => p.server.faults.inject(fault, { pathIncludes: FIRST_PAGE }, times);
const status = (code: number, headers: Record<string, string> = {}): Fault => ({ kind: 'status', status: code, body: ECHOING_BODY, headers });

/**
 * A client like `client` (or with `extra`) that notes each retry: why, and the wait it chose
 * (it is told of every wait before it begins one). How long a call takes is the machine's; the
 * waits the client decides on and the attempts it makes are its own, so those are what the
 * tests bound from above.
 */
function notingClient(extra: Partial<PlatformClientOptions> = {}): { client: PlatformClient; retries: RetryInfo[] } {
  const retries: RetryInfo[] = [];
  return { client: p.client({ retryPolicy: RETRY_POLICY, ...extra, onRetry: (info) => retries.push(info) }), retries };
}

void describe('faults that are retried (GET)', () => {
  for (const code of [502, 503, 504]) {
    void it(`${code}: the next attempt's answer is used`, async () => {
      inject(status(code));
      assert.deepEqual(await listProjects(), allProjectIds());
      assert.equal(attempts(), 2);
    });

    void it(`${code}: after ${RETRIES + 1} attempts the user reads what failed and to try later, without the token`, async () => {
      inject(status(code), RETRIES + 1);
      const e = await expectFailure(listProjects(), 'server');
      assert.equal(attempts(), RETRIES + 1);
      assert.equal(e.status, code);
      assert.match(e.message, new RegExp(`^The platform failed to answer for the projects of deployment ${p.slug} \\(${code}\\)\\. Try again later\\.`));
      assert.ok(e.bodySnippet?.includes('Bearer [token]'), 'the echoed token is replaced in the snippet');
    });
  }

  void it('429 with Retry-After in seconds: waits that long, then the retry succeeds', async () => {
    const noting = notingClient();
    inject(status(429, { 'retry-after': '1' }));
    const started = Date.now();
    assert.deepEqual(await listProjects(noting.client), allProjectIds());
    const elapsed = Date.now() - started;
    assert.equal(attempts(), 2);
    assert.ok(elapsed >= 990, `waited ${elapsed} ms for Retry-After: 1`);
    // And no longer: the one wait it chose is the second asked for, nothing added.
    assert.deepEqual(
      noting.retries.map((r) => [r.error.status, r.delayMs]),
      [[429, 1_000]],
      'one retry, after the second asked for',
    );
  });

  void it('429 with Retry-After as an HTTP date: waits until that moment, then the retry succeeds', async () => {
    // A whole second (HTTP dates have no fractions), 0.3 to 1.3 s ahead.
    const target = Math.ceil((Date.now() + 300) / 1_000) * 1_000;
    const noting = notingClient();
    inject(status(429, { 'retry-after': new Date(target).toUTCString() }));
    const started = Date.now();
    assert.deepEqual(await listProjects(noting.client), allProjectIds());
    const ended = Date.now();
    assert.equal(attempts(), 2);
    assert.ok(ended >= target - 5, `retried ${target - ended} ms before the date`);
    // And no later: the one wait it chose ends at the date (counted from the answer, which came
    // after `started`).
    const waits = noting.retries.map((r) => r.delayMs);
    assert.equal(waits.length, 1);
    assert.ok((waits[0] ?? Infinity) <= target - started, `chose to wait ${waits[0]} ms for a date ${target - started} ms ahead of the call`);
  });

  void it('429 until the attempts run out: says the platform limits the rate and how long it asked to wait', async () => {
    const once = p.client({ retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 10_000 } });
    inject(status(429, { 'retry-after': '1' }), 2);
    const started = Date.now();
    const e = await expectFailure(listProjects(once), 'rateLimited');
    assert.ok(Date.now() - started >= 990, 'the one retry waited for Retry-After');
    assert.equal(attempts(), 2);
    assert.equal(e.retryAfterMs, 1_000);
    assert.match(e.message, /^The platform is limiting the request rate \(429\); it asks to wait 1 s\. Try again later\./);
  });

  void it('429 asking to wait beyond the retry budget: gives up at once and says how long', async () => {
    const noting = notingClient();
    inject(status(429, { 'retry-after': '120' }));
    const e = await beforeTimer(() => expectFailure(listProjects(noting.client), 'rateLimited'), 120_000, 'did not sit out the wait');
    assert.deepEqual(noting.retries, [], 'began no wait');
    assert.equal(attempts(), 1);
    assert.match(e.message, /it asks to wait 120 s\. Try again later\./);
  });

  void it('a latency spike beyond the headers timeout: the attempt is dropped and retried at once', async () => {
    const quick = notingClient({ timeouts: { headersMs: 150, bodyMs: 2_000 } });
    inject({ kind: 'delay', ms: 4_000 });
    const started = Date.now();
    assert.deepEqual(await listProjects(quick.client), allProjectIds());
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 150, `recovered after ${elapsed} ms, before the headers timeout`);
    // Not after the 4 s spike: an attempt that waited for the spike's answer would have used it
    // and made no second one. The retry came on the timeout, after a backoff of a few ms.
    assert.equal(attempts(), 2);
    assert.deepEqual(
      quick.retries.map((r) => [r.error.reason, r.delayMs <= RETRY_POLICY.maxDelayMs]),
      [['timeout', true]],
      'retried on the timeout, after a short backoff',
    );
  });

  void it('latency beyond the timeout on every attempt: a timeout error saying to check the network', async () => {
    const quick = p.client({
      timeouts: { headersMs: 150, bodyMs: 2_000 },
      retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 10_000 },
    });
    inject({ kind: 'delay', ms: 4_000 }, 2);
    const e = await expectFailure(listProjects(quick), 'timeout');
    assert.equal(attempts(), 2);
    assert.match(e.message, /^http:\/\/127\.0\.0\.1:\d+ did not answer in time \(UND_ERR_HEADERS_TIMEOUT\)\. Check the network or proxy, then try again\.$/);
  });

  void it('a connection reset mid-body: retried, and the whole list arrives', async () => {
    inject({ kind: 'reset' });
    assert.deepEqual(await listProjects(), allProjectIds());
    assert.equal(attempts(), 2);
  });

  void it('resets on every attempt: a network error saying to check the connection', async () => {
    inject({ kind: 'reset' }, RETRIES + 1);
    const e = await expectFailure(listProjects(), 'network');
    assert.equal(attempts(), RETRIES + 1);
    assert.match(e.message, /^Could not reach http:\/\/127\.0\.0\.1:\d+ \(UND_ERR_SOCKET\)\. Check the network connection and the proxy settings\.$/);
  });
});

void describe('faults that are not retried', () => {
  void it('500: one attempt, the user reads what failed and to try later, without the token', async () => {
    inject(status(500));
    const e = await expectFailure(listProjects(), 'server');
    assert.equal(attempts(), 1);
    assert.equal(e.status, 500);
    assert.match(e.message, new RegExp(`^The platform failed to answer for the projects of deployment ${p.slug} \\(500\\)\\. Try again later\\.`));
    // Trying again, as told, works.
    assert.deepEqual(await listProjects(), allProjectIds());
  });

  void it('truncated JSON (a complete HTTP message): retried, as a GET cut off in transit is transient', async () => {
    inject({ kind: 'truncate' });
    assert.deepEqual(await listProjects(), allProjectIds());
    assert.equal(attempts(), 2);
  });

  void it('truncated JSON every time: retries run out, then an invalid response that may be cut off', async () => {
    inject({ kind: 'truncate' }, RETRIES + 1);
    const e = await expectFailure(listProjects(), 'invalidResponse');
    assert.equal(attempts(), RETRIES + 1);
    assert.match(e.message, /^The platform's answer for the projects of deployment \S+ is not valid JSON \(\d+ bytes; it may be cut off\)\. Try again\.$/);
    assert.deepEqual(await listProjects(), allProjectIds());
  });

  void it('an HTML page with status 200: one attempt, names the proxy or sign-in page and what to check', async () => {
    inject({ kind: 'html200' });
    const e = await expectFailure(listProjects(), 'invalidResponse');
    assert.equal(attempts(), 1);
    assert.match(
      e.message,
      /answered the projects of deployment \S+ with text\/html; charset=utf-8 instead of JSON\. A proxy or sign-in page may be answering instead of the platform: check the base URL and proxy settings\./,
    );
  });

  void it('JSON sent as another content type: one attempt, names the type and what to check', async () => {
    inject({ kind: 'wrongContentType' });
    const e = await expectFailure(listProjects(), 'invalidResponse');
    assert.equal(attempts(), 1);
    assert.match(e.message, /with text\/plain; charset=utf-8 instead of JSON\./);
    assert.match(e.message, NEXT_STEP, `no next step for the user in: ${e.message}`);
  });

  void it('a POST (SBOM export) is never repeated after a 503; a PUT (tags) is', async () => {
    const deploymentId = String(p.server.data.deployment.id);
    const project = p.server.data.projects[0];
    assert.ok(project);
    p.server.faults.inject(status(503), { method: 'POST' });
    const e = await expectFailure(client.createSbomExport(deploymentId, SBOM_REQUEST(project.id)), 'server');
    assert.match(e.message, /\(503\)\. Try again later\./);
    assert.equal(p.server.requests.filter((r) => r.method === 'POST').length, 1);
    p.server.faults.inject(status(503), { method: 'PUT' });
    const updated = await client.addProjectTags(p.slug, project.name, ['robust']);
    assert.ok(updated.tags.includes('robust'));
    assert.equal(p.server.requests.filter((r) => r.method === 'PUT').length, 2);
  });
});
