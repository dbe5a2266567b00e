/**
 * Retries, backoff, Retry-After, timeouts and cancellation of the HTTP layer, over real
 * loopback sockets with test-speed retry policies.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { client, closeAll, get, hang, ok, rejectsWith, reset, scripted, status, TOKEN, type Step } from './helpers/scriptedHttp';
import { said } from '../../../src/core/l10n';
import { beforeTimer } from '../helpers/before-timer';

void afterEach(closeAll);

void describe('retries', () => {
  void it('retries 502, 503, 504 and 429 on GET until success', async () => {
    const server = await scripted(status(502), status(503), status(504), status(429), ok);
    const http = client(server.url, { retryPolicy: { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 5_000 } });
    assert.deepEqual(await get(http), { ok: true });
    assert.equal(server.requests.length, 5);
  });

  void it('tells the log of each retry: what, which attempt, the reason and the wait (never the token)', async () => {
    const server = await scripted(status(503), status(429, '', { 'retry-after': '0' }), ok);
    const told: string[] = [];
    const http = client(server.url, {
      retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 },
      onRetry: (r) => told.push(`${r.what} ${r.method} ${r.attempt}/${r.maxAttempts} ${r.error.status ?? ''} ${r.delayMs}`),
    });
    await get(http);
    assert.equal(told.length, 2);
    assert.match(told[0] ?? '', /^The deployment list GET 1\/4 503 [01]$/);
    assert.equal(told[1], 'The deployment list GET 2/4 429 0');
    assert.ok(told.every((line) => !line.includes(TOKEN)));
  });

  void it('gives up after the retry cap with the last error', async () => {
    const server = await scripted(status(503));
    await rejectsWith(get(client(server.url)), 'server');
    assert.equal(server.requests.length, 4);
  });

  void it('never retries the POST, and does not retry a 500', async () => {
    const server = await scripted(status(502));
    await rejectsWith(client(server.url).requestJson({ method: 'POST', path: '/p', body: {}, what: said('p') }), 'server');
    assert.equal(server.requests.length, 1);
    const other = await scripted(status(500), ok);
    await rejectsWith(get(client(other.url)), 'server');
    assert.equal(other.requests.length, 1);
  });

  void it('retries the PUT on 503', async () => {
    const server = await scripted(status(503), ok);
    await client(server.url).requestJson({ method: 'PUT', path: '/t', body: { tags: ['a'] }, what: said('t') });
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1]?.body, '{"tags":["a"]}');
  });

  void it('honours Retry-After in seconds', async () => {
    const server = await scripted(status(429, '', { 'retry-after': '1' }), ok);
    const started = Date.now();
    await get(client(server.url));
    assert.ok(Date.now() - started >= 950, `waited only ${Date.now() - started} ms`);
  });

  void it('honours Retry-After as an HTTP date', async () => {
    const date = 'Wed, 01 May 2024 12:00:00 GMT';
    const server = await scripted(status(503, '', { 'retry-after': date }), ok);
    const start = Date.now();
    const fakeNow = (): number => Date.parse(date) - 150 + (Date.now() - start);
    await get(client(server.url, { now: fakeNow }));
    assert.ok(Date.now() - start >= 140, `waited only ${Date.now() - start} ms`);
    assert.equal(server.requests.length, 2);
  });

  void it('gives up at once when Retry-After exceeds the budget, carrying the wait', async () => {
    const server = await scripted(status(429, 'slow down', { 'retry-after': '120' }));
    const e = await rejectsWith(get(client(server.url)), 'rateLimited');
    assert.equal(e.retryAfterMs, 120_000);
    assert.match(e.message, /wait 120 s/);
    assert.equal(server.requests.length, 1);
  });

  void it('uses the injected random source for jitter', async () => {
    const server = await scripted(status(503), ok);
    let calls = 0;
    await get(client(server.url, { random: () => (calls++, 0) }));
    assert.equal(calls, 1);
  });

  void it('retries a connection reset and a body cut mid-stream', async () => {
    const cut: Step = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 5);
    };
    const server = await scripted(reset, cut, ok);
    assert.deepEqual(await get(client(server.url)), { ok: true });
    assert.equal(server.requests.length, 3);
  });

  void it('reports network for a refused connection after retrying', async () => {
    const server = await scripted(ok);
    const url = server.url;
    await server.close();
    const e = await rejectsWith(get(client(url, { retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 1_000 } })), 'network');
    assert.match(e.message, /ECONNREFUSED/);
  });
});

void describe('timeouts and cancellation', () => {
  void it('times out a hanging GET, retrying it once per the policy', async () => {
    const server = await scripted(hang);
    const http = client(server.url, { timeouts: { headersMs: 100 }, retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 } });
    await rejectsWith(get(http), 'timeout');
    assert.equal(server.requests.length, 2);
  });

  void it('does not retry a timed-out PUT', async () => {
    const server = await scripted(hang);
    const http = client(server.url, { timeouts: { headersMs: 100 } });
    await rejectsWith(http.requestJson({ method: 'PUT', path: '/t', body: {}, what: said('t') }), 'timeout');
    assert.equal(server.requests.length, 1);
  });

  void it('times out a body that stalls', async () => {
    const stall: Step = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"a":');
    };
    const server = await scripted(stall);
    await rejectsWith(get(client(server.url, { timeouts: { bodyMs: 100 }, retryPolicy: { maxRetries: 0 } })), 'timeout');
  });

  void it('cancels a request in flight promptly', async () => {
    const server = await scripted(hang);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    // Not when the headers timeout would have ended it.
    await beforeTimer(
      () => rejectsWith(get(client(server.url, { timeouts: { headersMs: 10_000 } }), undefined, controller.signal), 'cancelled'),
      10_000,
      'cancelled on the abort',
    );
    assert.equal(server.requests.length, 1);
  });

  void it('cancels during a backoff wait promptly', async () => {
    const server = await scripted(status(503, '', { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await beforeTimer(
      () => rejectsWith(get(client(server.url, { retryPolicy: { totalBudgetMs: 60_000 } }), undefined, controller.signal), 'cancelled'),
      30_000,
      'cancelled during the 30 s wait, not after it',
    );
    assert.equal(server.requests.length, 1);
  });

  void it('does not start when already cancelled', async () => {
    const server = await scripted(ok);
    await rejectsWith(get(client(server.url), undefined, AbortSignal.abort()), 'cancelled');
    assert.equal(server.requests.length, 0);
  });

  void it('does not send when cancelled while the token was fetched', async () => {
    const server = await scripted(ok);
    const controller = new AbortController();
    const getToken = (): Promise<string> => {
      controller.abort();
      return Promise.resolve(TOKEN);
    };
    await rejectsWith(get(client(server.url, { getToken }), undefined, controller.signal), 'cancelled');
    assert.equal(server.requests.length, 0);
  });
});
