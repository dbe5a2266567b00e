/**
 * A 100 MB answer (a runaway server, a proxy streaming a file) must fail fast as an invalid
 * response without the extension host buffering it. "Fast" and "without buffering" are both
 * counted in bytes, which no machine changes: the client's sockets receive about the cap and no
 * more, so the rest of the body is never read, let alone held. The time it took and the growth
 * of the process's memory are told as diagnostics only: the time is the machine's, and the peak
 * RSS depends on when the garbage collector gets to run, later on a busy machine. Alone in its
 * file, so the memory it tells is this test's own (node --test runs each file in its own process).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PlatformClientOptions } from '../../../src/core/api/client';
import { countingAgent, expectFailure, startPlatform, type Platform } from './robustness-harness';
import { allFindings } from '../core/helpers/allPages';

const HUNDRED_MB = 100 * 1024 * 1024;
const MB = 1024 * 1024;
/**
 * What the sockets may receive beyond the cap: the headers, the small answer of page 1 and the
 * reads already under way when the client stops, a few 64 KiB chunks. Far below the 36 MiB the
 * body goes on past the default cap.
 */
const SLACK_MB = 1;

let p: Platform;

before(async () => {
  p = await startPlatform({ seed: 5, projects: 1, sastPerProject: 20, scaPerProject: 5, refsPerProject: 1 });
});
after(() => p.close());
beforeEach(() => {
  p.server.faults.clear();
  p.server.requests.length = 0;
});

/**
 * Runs one findings sync against a 100 MB body through an agent that counts the bytes its
 * sockets receive; returns the error, the bytes received, the peak RSS growth and the attempts
 * at page 0. The time it took is only told, as a diagnostic: how long reading the cap's bytes
 * takes is the machine's, not the client's.
 */
async function syncAgainstHugeBody(
  extra: Partial<PlatformClientOptions>,
): Promise<{ message: string; ms: number; receivedMb: number; peakGrowthMb: number; attempts: number }> {
  const { headersMs = 2_000, bodyMs = 2_000 } = p.options(extra).timeouts ?? {};
  const counting = countingAgent({ headersMs, bodyMs });
  const client = p.client({ ...extra, dispatcher: counting.agent });
  p.server.faults.inject({ kind: 'hugeBody', bytes: HUNDRED_MB }, { pathIncludes: '/findings' });
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const started = Date.now();
  try {
    const e = await expectFailure(
      allFindings(() => client.findings(p.slug, 'sast', {})),
      'invalidResponse',
    );
    const ms = Date.now() - started;
    // The bytes the client had read when it gave up.
    const received = counting.received();
    peak = Math.max(peak, process.memoryUsage().rss);
    // Page 1 goes out alongside page 0 (to see the list end) and is aborted; attempts are at page 0.
    const attempts = p.server.requests.filter((r) => r.path.endsWith('/findings') && new URLSearchParams(r.rawUrl.split('?')[1]).get('page') === '0').length;
    return { message: e.message, ms, receivedMb: received / MB, peakGrowthMb: (peak - baseline) / MB, attempts };
  } finally {
    clearInterval(sampler);
    await counting.agent.destroy();
  }
}

void describe('a 100 MB body', () => {
  void it('with a tight cap (8 MiB): fails once about the cap is read, holding only about the cap', async (t) => {
    const r = await syncAgainstHugeBody({ maxBodyBytes: 8 * MB });
    t.diagnostic(`8 MiB cap: failed after ${r.ms} ms and ${r.receivedMb.toFixed(2)} MiB received, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB`);
    assert.equal(r.attempts, 1, 'an oversized answer is not fetched again');
    assert.match(
      r.message,
      /^The platform's answer for the code findings of deployment \S+ is larger than 8 MiB, so it was not read\. Narrow the request with filters\.$/,
    );
    assert.ok(r.receivedMb > 8 && r.receivedMb < 8 + SLACK_MB, `stopped reading at the cap: ${r.receivedMb.toFixed(2)} MiB received`);
  });

  void it('with the default cap: fails fast, is not retried, and never holds the whole body', async (t) => {
    const r = await syncAgainstHugeBody({});
    t.diagnostic(`default cap: failed after ${r.ms} ms and ${r.receivedMb.toFixed(2)} MiB received, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB`);
    assert.equal(r.attempts, 1);
    assert.match(r.message, /is larger than 64 MiB, so it was not read\. Narrow the request with filters\.$/);
    // The other 36 MiB of the body are never read: the connection is dropped at the cap.
    assert.ok(r.receivedMb > 64 && r.receivedMb < 64 + SLACK_MB, `stopped reading at the cap: ${r.receivedMb.toFixed(2)} MiB of 100 received`);
  });

  void it('the platform answers normally afterwards (the connection was dropped, not reused mid-body)', async () => {
    const client = p.client();
    const all = await allFindings(() => client.findings(p.slug, 'sast', {}));
    assert.equal(all.findings.length, p.server.data.sast.length);
  });
});
