/**
 * The HTTP layer over real loopback sockets: statuses, retries, timeouts, cancellation,
 * redirects and body limits. Each test scripts its own tiny server.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, afterEach, describe, it } from 'node:test';
import { Agent } from 'undici';
import { PlatformError } from '../../../src/core/api/errors';
import { PlatformHttp, type PlatformHttpOptions } from '../../../src/core/api/http';
import { sendJson, startLocalServer, type LocalServer, type SeenRequest } from './helpers/localServer';

const TOKEN = 'sgp_unit_test_token_1234';
type Step = (req: SeenRequest, res: ServerResponse) => void;

const open: { close(): Promise<void> }[] = [];
void afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

/** A server answering the n-th request with the n-th step (the last step repeats). */
async function scripted(...steps: Step[]): Promise<LocalServer> {
  let n = 0;
  const server = await startLocalServer((req, res) => {
    const step = steps[Math.min(n++, steps.length - 1)];
    step?.(req, res);
  });
  open.push(server);
  return server;
}

function client(baseUrl: string, extra: Partial<PlatformHttpOptions> = {}): PlatformHttp {
  const http = new PlatformHttp({
    baseUrl,
    extensionVersion: '1.2.3',
    getToken: () => Promise.resolve(TOKEN),
    retryPolicy: { maxRetries: 3, baseDelayMs: 2, maxDelayMs: 10, totalBudgetMs: 5_000 },
    timeouts: { connectMs: 1_000, headersMs: 400, bodyMs: 400 },
    ...extra,
  });
  open.push(http);
  return http;
}

const get = (http: PlatformHttp, path = '/api/v1/deployments', signal?: AbortSignal): Promise<unknown> =>
  http.requestJson({ method: 'GET', path, what: 'The deployment list', signal });

const ok: Step = (_req, res) => sendJson(res, 200, { ok: true });
const status = (code: number, body = '', headers: Record<string, string> = {}): Step => (_req, res) => {
  res.writeHead(code, { 'content-type': 'text/plain', ...headers });
  res.end(body);
};
const reset: Step = (_req, res) => res.socket?.destroy();
const hang: Step = () => undefined;

async function rejectsWith(promise: Promise<unknown>, reason: PlatformError['reason']): Promise<PlatformError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(PlatformError.is(e), `not a PlatformError: ${String(e)}`);
    assert.equal(e.reason, reason, e.message);
    assert.ok(!e.message.includes(TOKEN) && !(e.bodySnippet ?? '').includes(TOKEN), 'token leaked');
    return e;
  }
  assert.fail('expected a rejection');
}

void describe('requests', () => {
  void it('sends token, user agent and accept, and parses JSON', async () => {
    const server = await scripted(ok);
    assert.deepEqual(await client(server.url).requestJson({ method: 'GET', path: '/api/v1/x', query: 'a=1&a=2', what: 'x' }), { ok: true });
    const [req] = server.requests;
    assert.equal(req?.url, '/api/v1/x?a=1&a=2');
    assert.equal(req?.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(req?.headers['user-agent'], 'appsec-findings/1.2.3');
    assert.equal(req?.headers.accept, 'application/json');
  });

  void it('sends a JSON body with its content type, below a base path', async () => {
    const server = await scripted(ok);
    await client(`${server.url}/prefix/`).requestJson({ method: 'POST', path: '/api/v1/y', body: { a: [1] }, what: 'y' });
    assert.equal(server.requests[0]?.url, '/prefix/api/v1/y');
    assert.equal(server.requests[0]?.headers['content-type'], 'application/json');
    assert.equal(server.requests[0]?.body, '{"a":[1]}');
  });

  void it('refuses to send anything without a token', async () => {
    const server = await scripted(ok);
    await rejectsWith(get(client(server.url, { getToken: () => Promise.resolve(undefined) })), 'unauthorized');
    assert.equal(server.requests.length, 0);
  });

  void it('refuses a non-loopback http base URL at construction', () => {
    assert.throws(() => new PlatformHttp({ baseUrl: 'http://semgrep.dev', extensionVersion: '1', getToken: () => Promise.resolve(TOKEN) }), (e) => PlatformError.is(e, 'insecureUrl'));
  });

  void it('uses an injected dispatcher and leaves closing it to its owner', async () => {
    const server = await scripted(ok);
    const agent = new Agent();
    let dispatched = 0;
    const counting = agent.compose((dispatch) => (opts, handler) => {
      dispatched++;
      return dispatch(opts, handler);
    });
    const http = client(server.url, { dispatcher: counting });
    await get(http);
    await http.close();
    assert.equal(dispatched, 1);
    assert.equal(agent.closed, false);
    await agent.close();
  });
});

void describe('status errors', () => {
  const cases: [number, PlatformError['reason']][] = [[400, 'badRequest'], [401, 'unauthorized'], [403, 'forbidden'], [404, 'notFound'], [500, 'server']];
  for (const [code, reason] of cases) {
    void it(`${code} → ${reason}, once, with a scrubbed body snippet`, async () => {
      const server = await scripted((req, res) => status(code, `denied for ${String(req.headers.authorization)}`)(req, res));
      const e = await rejectsWith(get(client(server.url)), reason);
      assert.equal(e.status, code);
      assert.equal(e.bodySnippet, 'denied for Bearer [token]');
      assert.match(e.message, /Bearer \[token\]/);
      assert.equal(server.requests.length, 1);
    });
  }

  void it('404 tells about the Web API scope', async () => {
    const server = await scripted(status(404));
    const e = await rejectsWith(get(client(server.url)), 'notFound');
    assert.match(e.message, /Web API access/);
  });
});

void describe('retries', () => {
  void it('retries 502, 503, 504 and 429 on GET until success', async () => {
    const server = await scripted(status(502), status(503), status(504), status(429), ok);
    const http = client(server.url, { retryPolicy: { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 5_000 } });
    assert.deepEqual(await get(http), { ok: true });
    assert.equal(server.requests.length, 5);
  });

  void it('gives up after the retry cap with the last error', async () => {
    const server = await scripted(status(503));
    await rejectsWith(get(client(server.url)), 'server');
    assert.equal(server.requests.length, 4);
  });

  void it('never retries the POST, and does not retry a 500', async () => {
    const server = await scripted(status(502));
    await rejectsWith(client(server.url).requestJson({ method: 'POST', path: '/p', body: {}, what: 'p' }), 'server');
    assert.equal(server.requests.length, 1);
    const other = await scripted(status(500), ok);
    await rejectsWith(get(client(other.url)), 'server');
    assert.equal(other.requests.length, 1);
  });

  void it('retries the PUT on 503', async () => {
    const server = await scripted(status(503), ok);
    await client(server.url).requestJson({ method: 'PUT', path: '/t', body: { tags: ['a'] }, what: 't' });
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
    await rejectsWith(http.requestJson({ method: 'PUT', path: '/t', body: {}, what: 't' }), 'timeout');
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
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await rejectsWith(get(client(server.url, { timeouts: { headersMs: 10_000 } }), undefined, controller.signal), 'cancelled');
    assert.ok(Date.now() - started < 1_000);
  });

  void it('cancels during a backoff wait promptly', async () => {
    const server = await scripted(status(503, '', { 'retry-after': '30' }));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await rejectsWith(get(client(server.url, { retryPolicy: { totalBudgetMs: 60_000 } }), undefined, controller.signal), 'cancelled');
    assert.ok(Date.now() - started < 1_000);
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

void describe('redirects', () => {
  const redirect = (code: number, location?: string): Step => (_req, res) => {
    res.writeHead(code, location ? { location } : {});
    res.end();
  };

  void it('follows a same-origin 307 keeping the token (the %2F project case)', async () => {
    const server = await scripted(redirect(307, '/api/v1/deployments/acme/projects/a/b'), ok);
    await get(client(server.url), '/api/v1/deployments/acme/projects/a%2Fb');
    assert.equal(server.requests[1]?.url, '/api/v1/deployments/acme/projects/a/b');
    assert.equal(server.requests[1]?.headers.authorization, `Bearer ${TOKEN}`);
  });

  void it('refuses a redirect to another origin, which never sees the token', async () => {
    const other = await scripted(ok);
    const server = await scripted(redirect(302, `${other.url.replace('127.0.0.1', 'localhost')}/steal`));
    const e = await rejectsWith(get(client(server.url)), 'redirect');
    assert.match(e.message, /another site/);
    assert.equal(other.requests.length, 0);
  });

  void it('refuses more than 5 redirects and a redirect without Location', async () => {
    const loop = await scripted(redirect(308, '/again'));
    await rejectsWith(get(client(loop.url)), 'redirect');
    assert.equal(loop.requests.length, 6);
    const nowhere = await scripted(redirect(301));
    await rejectsWith(get(client(nowhere.url)), 'redirect');
  });

  void it('keeps a POST body through 307, turns 303 into GET, refuses a 302 of a PUT', async () => {
    const server = await scripted(redirect(307, '/b'), redirect(303, '/c'), ok);
    await client(server.url).requestJson({ method: 'POST', path: '/a', body: { x: 1 }, what: 'a' });
    assert.deepEqual(server.requests.map((r) => [r.method, r.url, r.body]), [['POST', '/a', '{"x":1}'], ['POST', '/b', '{"x":1}'], ['GET', '/c', '']]);
    const put = await scripted(redirect(302, '/b'));
    await rejectsWith(client(put.url).requestJson({ method: 'PUT', path: '/a', body: {}, what: 'a' }), 'redirect');
  });

  void it('reports an unfollowed 3xx as redirect', async () => {
    const server = await scripted(status(304));
    await rejectsWith(get(client(server.url)), 'redirect');
  });
});

void describe('response bodies', () => {
  void it('refuses an HTML page sent with 200', async () => {
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><body>Sign in to the proxy</body></html>');
    });
    const e = await rejectsWith(get(client(server.url)), 'invalidResponse');
    assert.match(e.message, /text\/html/);
    assert.match(e.message, /proxy/);
  });

  void it('refuses another non-JSON content type, accepts +json and a missing type', async () => {
    const server = await scripted(
      (_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('{}'); },
      (_req, res) => { res.writeHead(200, { 'content-type': 'application/problem+json' }); res.end('{"a":1}'); },
      (_req, res) => { res.removeHeader('content-type'); res.end('[1]'); },
    );
    const http = client(server.url);
    await rejectsWith(get(http), 'invalidResponse');
    assert.deepEqual(await get(http), { a: 1 });
    assert.deepEqual(await get(http), [1]);
  });

  void it('refuses truncated JSON without retrying it', async () => {
    const server = await scripted((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"findings":[{"id":1},'); });
    const e = await rejectsWith(get(client(server.url)), 'invalidResponse');
    assert.match(e.message, /not valid JSON/);
    assert.equal(server.requests.length, 1);
  });

  void it('refuses a body whose declared length exceeds the cap without reading it', async () => {
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
      res.write('[');
    });
    const e = await rejectsWith(get(client(server.url, { maxBodyBytes: 1024 })), 'invalidResponse');
    assert.match(e.message, /larger than 1024 bytes/);
  });

  void it('stops reading a streamed body at the cap', async () => {
    let written = 0;
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (written < 200 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    });
    await rejectsWith(get(client(server.url, { maxBodyBytes: 1024 * 1024 })), 'invalidResponse');
    assert.ok(written < 50 * 1024 * 1024, `server wrote ${written} bytes`);
  });
});

void after(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});
