/**
 * A 100 MB answer (a runaway server, a proxy streaming a file) must fail fast as an invalid
 * response without the extension host buffering it. Alone in its file, so the memory it measures
 * is this test's own (node --test runs each file in its own process).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { PlatformClientOptions } from '../../../src/core/api/client';
import { expectFailure, startPlatform, type Platform } from './robustness-harness';
import { allFindings } from '../core/helpers/allPages';

const HUNDRED_MB = 100 * 1024 * 1024;
const MB = 1024 * 1024;

let p: Platform;

before(async () => {
  p = await startPlatform({ seed: 5, projects: 1, sastPerProject: 20, scaPerProject: 5, refsPerProject: 1 });
});
after(() => p.close());
beforeEach(() => {
  p.server.faults.clear();
  p.server.requests.length = 0;
});

/** Runs one findings sync against a 100 MB body; returns the error, the time and the peak RSS growth. */
async function syncAgainstHugeBody(extra: Partial<PlatformClientOptions>): Promise<{ message: string; ms: number; peakGrowthMb: number; attempts: number }> {
  const client = p.client(extra);
  p.server.faults.inject({ kind: 'hugeBody', bytes: HUNDRED_MB }, { pathIncludes: '/findings' });
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const started = Date.now();
  try {
    const e = await expectFailure(allFindings(() => client.findings(p.slug, 'sast', {})), 'invalidResponse');
    const ms = Date.now() - started;
    peak = Math.max(peak, process.memoryUsage().rss);
    // Page 1 goes out alongside page 0 (to see the list end) and is aborted; attempts are at page 0.
    const attempts = p.server.requests.filter((r) => r.path.endsWith('/findings') && new URLSearchParams(r.rawUrl.split('?')[1]).get('page') === '0').length;
    return { message: e.message, ms, peakGrowthMb: (peak - baseline) / MB, attempts };
  } finally {
    clearInterval(sampler);
  }
}

void describe('a 100 MB body', () => {
  void it('with a tight cap (8 MiB): fails within a second or two, holding only about the cap', async (t) => {
    const r = await syncAgainstHugeBody({ maxBodyBytes: 8 * MB });
    t.diagnostic(`8 MiB cap: failed after ${r.ms} ms, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB`);
    assert.equal(r.attempts, 1, 'an oversized answer is not fetched again');
    assert.match(r.message, /^The platform's answer for the code findings of deployment \S+ is larger than 8 MiB, so it was not read\. Narrow the request with filters\.$/);
    assert.ok(r.ms < 3_000, `took ${r.ms} ms`);
    assert.ok(r.peakGrowthMb < 48, `RSS grew by ${r.peakGrowthMb.toFixed(1)} MB`);
  });

  void it('with the default cap: fails fast, is not retried, and never holds the whole body', async (t) => {
    const r = await syncAgainstHugeBody({});
    t.diagnostic(`default cap: failed after ${r.ms} ms, peak RSS growth ${r.peakGrowthMb.toFixed(1)} MB`);
    assert.equal(r.attempts, 1);
    assert.match(r.message, /is larger than 64 MiB, so it was not read\. Narrow the request with filters\.$/);
    assert.ok(r.ms < 5_000, `took ${r.ms} ms`);
    assert.ok(r.peakGrowthMb < 100, `RSS grew by ${r.peakGrowthMb.toFixed(1)} MB: the body was buffered`);
  });

  void it('the platform answers normally afterwards (the connection was dropped, not reused mid-body)', async () => {
    const client = p.client();
    const all = await allFindings(() => client.findings(p.slug, 'sast', {}));
    assert.equal(all.findings.length, p.server.data.sast.length);
  });
});
