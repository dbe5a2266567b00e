import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopbackHost, parseBaseUrl } from '../../../src/core/api/baseUrl';
import { PlatformError, scrubSecret, truncateSnippet } from '../../../src/core/model/errors';
import { DEFAULT_RETRY_POLICY, backoffDelay, isRetryable, sleep } from '../../../src/core/api/retry';
import { errorForStatus, parseRetryAfter } from '../../../src/core/api/statusErrors';
import { errorCode, errorFromTransport, isTransientNetworkError } from '../../../src/core/api/transportErrors';
import { said } from '../../../src/core/l10n';
import { beforeTimer } from '../helpers/before-timer';

const TOKEN = 'sgp_secret_token_value';
const context = { what: said('project {0}', 'acme/api'), token: TOKEN };

void describe('PlatformError', () => {
  void it('is() checks the class and optionally the reason', () => {
    const e = new PlatformError('notFound', 'gone', { status: 404 });
    assert.equal(PlatformError.is(e), true);
    assert.equal(PlatformError.is(e, 'notFound'), true);
    assert.equal(PlatformError.is(e, 'server'), false);
    assert.equal(PlatformError.is(new Error('x')), false);
    assert.equal(e.name, 'PlatformError');
    assert.equal(e.status, 404);
  });

  void it('truncates snippets and scrubs the token in raw and URL-encoded form', () => {
    assert.equal(truncateSnippet('a\n   b'), 'a b');
    assert.equal(truncateSnippet('x'.repeat(400)).length, 301);
    assert.equal(scrubSecret(`Bearer ${TOKEN} and ${encodeURIComponent('a/b')}`, TOKEN), 'Bearer [token] and a%2Fb');
    assert.equal(scrubSecret('token=a%2Fb', 'a/b'), 'token=[token]');
    assert.equal(scrubSecret('abc', undefined), 'abc');
  });
});

void describe('errorForStatus', () => {
  const reasons: [number, string][] = [
    [400, 'badRequest'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'notFound'],
    [408, 'timeout'],
    [429, 'rateLimited'],
    [500, 'server'],
    [502, 'server'],
    [503, 'server'],
    [304, 'redirect'],
    [409, 'badRequest'],
    [422, 'badRequest'],
  ];
  for (const [status, reason] of reasons) {
    void it(`maps ${status} to ${reason}`, () => {
      const e = errorForStatus(status, '', undefined, context);
      assert.equal(e.reason, reason);
      assert.equal(e.status, status);
      assert.equal(e.bodySnippet, undefined);
    });
  }

  void it('says what to do for 401 and 404, and carries a scrubbed, truncated body', () => {
    const e401 = errorForStatus(401, `{"error":"bad token ${TOKEN}"}`, undefined, context);
    assert.match(e401.message, /Sign in again with a valid token/);
    assert.ok(!e401.message.includes(TOKEN));
    assert.ok(e401.bodySnippet?.includes('[token]'));
    const e404 = errorForStatus(404, 'x'.repeat(1000), undefined, context);
    assert.match(e404.message, /^Project acme\/api was not found \(404\)\. If the token was created without Web API access, create one with it enabled\./);
    assert.equal(e404.bodySnippet?.length, 301);
  });

  void it('names the wait of a 429', () => {
    const e = errorForStatus(429, '', 2500, context);
    assert.equal(e.retryAfterMs, 2500);
    assert.match(e.message, /wait 3 s/);
  });
});

void describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  void it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(['0'], now), 0);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 12:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now), 0);
  });
  void it('ignores absent and unreadable values', () => {
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter(' ', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-1', now), undefined);
  });
});

void describe('base URL', () => {
  void it('accepts https and loopback http, keeping a path prefix', () => {
    assert.deepEqual(parseBaseUrl('https://semgrep.dev/'), { origin: 'https://semgrep.dev', pathPrefix: '' });
    assert.deepEqual(parseBaseUrl(' https://proxy.example/semgrep// '), { origin: 'https://proxy.example', pathPrefix: '/semgrep' });
    assert.equal(parseBaseUrl('http://127.0.0.1:8080').origin, 'http://127.0.0.1:8080');
    assert.equal(parseBaseUrl('http://localhost:1').origin, 'http://localhost:1');
    assert.equal(parseBaseUrl('http://[::1]:1').origin, 'http://[::1]:1');
  });

  void it('refuses plain http elsewhere with insecureUrl', () => {
    for (const bad of ['http://semgrep.dev', 'http://10.0.0.1', 'http://localhost.evil.com', 'http://128.0.0.1']) {
      assert.throws(
        () => parseBaseUrl(bad),
        (e) => PlatformError.is(e, 'insecureUrl') && /https/.test(e.message),
        bad,
      );
    }
  });

  void it('refuses what is not an http(s) URL or carries credentials', () => {
    for (const bad of ['semgrep.dev', 'ftp://semgrep.dev', 'https://u:p@semgrep.dev', '']) {
      assert.throws(
        () => parseBaseUrl(bad),
        (e) => PlatformError.is(e, 'invalidUrl'),
        bad,
      );
    }
  });

  void it('knows loopback hosts', () => {
    assert.equal(isLoopbackHost('127.5.5.5'), true);
    assert.equal(isLoopbackHost('LOCALHOST'), true);
    assert.equal(isLoopbackHost('127.example.com'), false);
  });
});

void describe('transport errors', () => {
  const origin = 'https://semgrep.dev';
  const withCode = (code: string): Error => Object.assign(new Error(`failed ${code}`), { code });

  void it('classifies timeouts, certificate problems and network failures', () => {
    assert.equal(errorFromTransport(withCode('UND_ERR_HEADERS_TIMEOUT'), origin, undefined).reason, 'timeout');
    const cert = errorFromTransport(withCode('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), origin, undefined);
    assert.equal(cert.reason, 'certificate');
    assert.match(cert.message, /caBundlePath/);
    assert.equal(errorFromTransport(withCode('ECONNRESET'), origin, undefined).reason, 'network');
    assert.equal(errorFromTransport('weird', origin, undefined).reason, 'network');
  });

  void it('reports cancelled when the signal aborted, and passes PlatformErrors through', () => {
    const controller = new AbortController();
    controller.abort();
    assert.equal(errorFromTransport(withCode('UND_ERR_ABORTED'), origin, controller.signal).reason, 'cancelled');
    const own = new PlatformError('invalidResponse', 'x');
    assert.equal(errorFromTransport(own, origin, controller.signal), own);
  });

  void it('finds codes along cause chains and aggregate errors', () => {
    assert.equal(errorCode({ cause: { cause: { code: 'ECONNREFUSED' } } }), 'ECONNREFUSED');
    assert.equal(errorCode(new AggregateError([withCode('ECONNREFUSED')])), 'ECONNREFUSED');
    assert.equal(errorCode('x'), undefined);
  });

  void it('does not treat an unknown host as transient', () => {
    assert.equal(isTransientNetworkError(errorFromTransport(withCode('ENOTFOUND'), origin, undefined)), false);
    assert.equal(isTransientNetworkError(errorFromTransport(withCode('ECONNREFUSED'), origin, undefined)), true);
  });
});

void describe('retry rules', () => {
  const status = (s: number): PlatformError => errorForStatus(s, '', undefined, context);

  void it('retries 429/502/503/504 for GET and PUT, never for POST', () => {
    for (const s of [429, 502, 503, 504]) {
      assert.equal(isRetryable(status(s), 'GET'), true);
      assert.equal(isRetryable(status(s), 'PUT'), true);
      assert.equal(isRetryable(status(s), 'POST'), false);
    }
    for (const s of [400, 401, 404, 500]) {
      assert.equal(isRetryable(status(s), 'GET'), false);
    }
  });

  void it('retries a timeout only for GET', () => {
    const timeout = new PlatformError('timeout', 't');
    assert.equal(isRetryable(timeout, 'GET'), true);
    assert.equal(isRetryable(timeout, 'PUT'), false);
  });

  void it('uses full jitter below a doubling ceiling', () => {
    const env = { policy: DEFAULT_RETRY_POLICY, random: () => 0.999, now: () => 0 };
    assert.equal(backoffDelay(0, env), 499);
    assert.equal(backoffDelay(3, env), 3996);
    assert.equal(backoffDelay(10, env), 14985);
    assert.equal(backoffDelay(2, { ...env, random: () => 0 }), 0);
  });

  void it('sleep rejects at once when already aborted, and promptly when aborted later', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(sleep(10_000, controller.signal), (e) => PlatformError.is(e, 'cancelled'));
    const later = new AbortController();
    setTimeout(() => later.abort(), 20);
    await beforeTimer(
      () => assert.rejects(sleep(10_000, later.signal), (e) => PlatformError.is(e, 'cancelled')),
      10_000,
      'rejected on the abort, not at the end of the wait',
    );
    await sleep(1, undefined);
  });
});
