/**
 * Scripted loopback servers and a PlatformHttp with test-speed retries, shared by the HTTP tests.
 * Call `closeAll` from an afterEach hook.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { PlatformError } from '../../../../src/core/model/errors';
import { PlatformHttp, type PlatformHttpOptions } from '../../../../src/core/api/http';
import { sendJson, startLocalServer, type LocalServer, type SeenRequest } from './localServer';
import { said } from '../../../../src/core/l10n';

export const TOKEN = 'sgp_unit_test_token_1234';
export type Step = (req: SeenRequest, res: ServerResponse) => void;

const open: { close(): Promise<void> }[] = [];

export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((o) => o.close()));
}

/** A server answering the n-th request with the n-th step (the last step repeats). */
export async function scripted(...steps: Step[]): Promise<LocalServer> {
  let n = 0;
  const server = await startLocalServer((req, res) => {
    const step = steps[Math.min(n++, steps.length - 1)];
    step?.(req, res);
  });
  open.push(server);
  return server;
}

export function client(baseUrl: string, extra: Partial<PlatformHttpOptions> = {}): PlatformHttp {
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

export const get = (http: PlatformHttp, path = '/api/v1/deployments', signal?: AbortSignal): Promise<unknown> =>
  http.requestJson({ method: 'GET', path, what: said('the deployment list'), signal });

export const ok: Step = (_req, res) => sendJson(res, 200, { ok: true });
export const status =
  (code: number, body = '', headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(code, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
export const reset: Step = (_req, res) => res.socket?.destroy();
export const hang: Step = () => undefined;

/** Awaits a rejection with `reason`, and checks that the token shows nowhere in the error. */
export async function rejectsWith(promise: Promise<unknown>, reason: PlatformError['reason']): Promise<PlatformError> {
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
