/**
 * The HTTP layer over real loopback sockets: requests, status errors, redirects and body limits.
 * Each test scripts its own tiny server. Retries and timeouts are in http-retry.test.ts.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Agent } from 'undici';
import { PlatformError } from '../../../src/core/model/errors';
import { PlatformHttp } from '../../../src/core/api/http';
import { client, closeAll, get, ok, rejectsWith, scripted, status, TOKEN, type Step } from './helpers/scriptedHttp';
import { said } from '../../../src/core/l10n';

void afterEach(closeAll);

void describe('requests', () => {
  void it('sends token, user agent and accept, and parses JSON', async () => {
    const server = await scripted(ok);
    assert.deepEqual(await client(server.url).requestJson({ method: 'GET', path: '/api/v1/x', query: 'a=1&a=2', what: said('x') }), { ok: true });
    const [req] = server.requests;
    assert.equal(req?.url, '/api/v1/x?a=1&a=2');
    assert.equal(req?.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(req?.headers['user-agent'], 'appsec-findings/1.2.3');
    assert.equal(req?.headers.accept, 'application/json');
  });

  void it('reads UTF-8 text whose characters are split between chunks, and large ASCII pages', async () => {
    const text = JSON.stringify({ message: 'ünïcødé — 漢字 🙂'.repeat(3) });
    const bytes = Buffer.from(text, 'utf8');
    const big = JSON.stringify({ findings: Array.from({ length: 4000 }, (_, i) => ({ id: i, rule_name: `rule.${i}` })) });
    const server = await scripted(
      (_req, res) => {
        // One byte at a time: every multi-byte character arrives in pieces.
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        let i = 0;
        const next = (): void => {
          if (i >= bytes.length) return void res.end();
          res.write(bytes.subarray(i, ++i), () => setImmediate(next));
        };
        next();
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(big);
      },
    );
    const http = client(server.url);
    assert.deepEqual(await get(http), JSON.parse(text));
    assert.equal(((await get(http)) as { findings: unknown[] }).findings.length, 4000, 'a page above the size that waits for its own turn');
  });

  void it('reads a page of several MiB of multi-byte text that arrives in chunks cut inside characters', async () => {
    const page = { findings: Array.from({ length: 12_000 }, (_, i) => ({ id: i, rule_message: `ünïcødé — 漢字 🙂 ${i}`.repeat(8) })) };
    const bytes = Buffer.from(JSON.stringify(page), 'utf8');
    assert.ok(bytes.length > 3 * 1024 * 1024, `${bytes.length} bytes`);
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let at = 0;
      const next = (): void => {
        if (at >= bytes.length) return void res.end();
        const end = Math.min(at + 65_537, bytes.length);
        res.write(bytes.subarray(at, end), () => setImmediate(next));
        at = end;
      };
      next();
    });
    assert.deepEqual(await get(client(server.url)), page);
  });

  void it('sends a JSON body with its content type, below a base path', async () => {
    const server = await scripted(ok);
    await client(`${server.url}/prefix/`).requestJson({ method: 'POST', path: '/api/v1/y', body: { a: [1] }, what: said('y') });
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
    assert.throws(
      () => new PlatformHttp({ baseUrl: 'http://semgrep.dev', extensionVersion: '1', getToken: () => Promise.resolve(TOKEN) }),
      (e) => PlatformError.is(e, 'insecureUrl'),
    );
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

  void it('asks a dispatcher function at each request: a replaced and closed dispatcher is never used again', async () => {
    const server = await scripted(ok);
    const [first, second] = [new Agent(), new Agent()];
    let current = first;
    const http = client(server.url, { dispatcher: () => current });
    await get(http);
    // What the host does when the proxy or CA settings change, while this client lives on.
    current = second;
    await first.close();
    assert.deepEqual(await get(http), { ok: true });
    await http.close();
    assert.equal(second.closed, false, "a given dispatcher is its owner's to close");
    await second.close();
  });
});

void describe('status errors', () => {
  const cases: [number, PlatformError['reason']][] = [
    [400, 'badRequest'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [500, 'server'],
  ];
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

void describe('redirects', () => {
  const redirect =
    (code: number, location?: string): Step =>
    (_req, res) => {
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
    await client(server.url).requestJson({ method: 'POST', path: '/a', body: { x: 1 }, what: said('a') });
    assert.deepEqual(
      server.requests.map((r) => [r.method, r.url, r.body]),
      [
        ['POST', '/a', '{"x":1}'],
        ['POST', '/b', '{"x":1}'],
        ['GET', '/c', ''],
      ],
    );
    const put = await scripted(redirect(302, '/b'));
    await rejectsWith(client(put.url).requestJson({ method: 'PUT', path: '/a', body: {}, what: said('a') }), 'redirect');
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
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('{}');
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/problem+json' });
        res.end('{"a":1}');
      },
      (_req, res) => {
        res.removeHeader('content-type');
        res.end('[1]');
      },
    );
    const http = client(server.url);
    await rejectsWith(get(http), 'invalidResponse');
    assert.deepEqual(await get(http), { a: 1 });
    assert.deepEqual(await get(http), [1]);
  });

  void it('retries truncated JSON for a GET, then refuses it when it stays cut off', async () => {
    const server = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"findings":[{"id":1},');
    });
    const e = await rejectsWith(get(client(server.url)), 'invalidResponse');
    assert.match(e.message, /not valid JSON/);
    assert.equal(server.requests.length, 4, 'the first try and 3 retries');
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
