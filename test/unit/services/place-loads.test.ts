// When the Projects tree loads a findings slot, and when it must not: against the real
// FindingsStore over a platform whose answers the test releases one by one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding, FindingFilters } from '../../../src/core/model/types';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import type { FindingsPage } from '../../../src/core/model/decodeFinding';
import type { PlatformApi } from '../../../src/core/services/platform-api';
import { PlaceLoads } from '../../../src/core/services/place-loads';
import { sastFinding } from './finding-fixtures';

interface Request {
  readonly filters: FindingFilters;
  respond(findings: Finding[]): void;
  fail(error: Error): void;
}

/**
 * A platform that holds every findings request until the test answers it; the AI code findings
 * that follow each code findings list are answered at once (there are none).
 */
function heldPlatform(): { api: PlatformApi; requests: Request[] } {
  const requests: Request[] = [];
  const api = {
    findings(_slug: string, issueType: string, filters: FindingFilters, options?: { signal?: AbortSignal }): AsyncIterable<FindingsPage> {
      if (issueType === 'ai_sast')
        return { [Symbol.asyncIterator]: () => [{ findings: [], skipped: 0 }][Symbol.iterator]() as unknown as AsyncIterator<FindingsPage> };
      let settle!: (outcome: Finding[] | Error) => void;
      const answer = new Promise<Finding[] | Error>((resolve) => (settle = resolve));
      options?.signal?.addEventListener('abort', () => settle(new Error('aborted')));
      requests.push({ filters, respond: (findings) => settle(findings), fail: (error) => settle(error) });
      return (async function* () {
        const outcome = await answer;
        if (outcome instanceof Error) throw outcome;
        yield { findings: outcome, skipped: 0 };
      })();
    },
  } as unknown as PlatformApi;
  return { api, requests };
}

const SLOT = 'tree:acme/api:sast';
const query = (ref = 'main'): FindingsQuery => ({ deploymentSlug: 'acme', issueType: 'sast', filters: { repos: ['acme/api'], ref, dedup: true } });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup(): { loads: PlaceLoads; findings: FindingsStore; requests: Request[]; started: string[] } {
  const { api, requests } = heldPlatform();
  const findings = new FindingsStore(() => api);
  const started: string[] = [];
  const loads = new PlaceLoads({ findings, onLoadStarted: (slot) => started.push(slot) });
  return { loads, findings, requests, started };
}

void describe('PlaceLoads', () => {
  void test('a shown slot loads once; showing it again while loading or loaded asks nothing more', async () => {
    const { loads, requests, started } = setup();
    loads.ensure(SLOT, query());
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 1);
    assert.deepEqual(started, [SLOT]);
    assert.deepEqual(loads.view(SLOT, query()), { loading: true, cancelled: false, result: undefined });
    requests[0]?.respond([sastFinding({})]);
    assert.equal(await loads.settle(SLOT), true);
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 1);
    assert.equal(loads.view(SLOT, query()).result?.findings.length, 1);
    assert.equal(await loads.settle(SLOT), false);
  });

  void test('other filters (or ref) load anew; the old answer is not shown for them', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query('main'));
    requests[0]?.respond([sastFinding({})]);
    await loads.settle(SLOT);
    loads.ensure(SLOT, query('develop'));
    assert.equal(requests.length, 2);
    assert.equal(requests[1]?.filters.ref, 'develop');
    assert.equal(loads.view(SLOT, query('develop')).result, undefined);
  });

  void test('a failure stays shown (no retry loop) until the next epoch', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query());
    requests[0]?.fail(new Error('HTTP 502'));
    await loads.settle(SLOT);
    const failed = loads.view(SLOT, query());
    assert.equal(failed.loading, false);
    assert.equal((failed.error as Error).message, 'HTTP 502');
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 1, 'the redraw a failure causes must not load again');
    loads.nextEpoch({ force: false });
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 2);
  });

  void test('a failed refresh keeps the old findings, marked stale', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query());
    requests[0]?.respond([sastFinding({})]);
    await loads.settle(SLOT);
    loads.nextEpoch({ force: true });
    loads.ensure(SLOT, query());
    requests[1]?.fail(new Error('timeout'));
    await loads.settle(SLOT);
    const stale = loads.view(SLOT, query());
    assert.equal(stale.result?.findings.length, 1);
    assert.equal((stale.result?.staleBecause as Error).message, 'timeout');
  });

  void test('a failure for other filters is an error for these, not their findings', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query('main'));
    requests[0]?.respond([sastFinding({})]);
    await loads.settle(SLOT);
    loads.ensure(SLOT, query('develop'));
    requests[1]?.fail(new Error('HTTP 400'));
    await loads.settle(SLOT);
    const view = loads.view(SLOT, query('develop'));
    assert.equal(view.result, undefined);
    assert.equal((view.error as Error).message, 'HTTP 400');
  });

  void test('expired slots (a refresh) load again when shown; fresh ones only with force', async () => {
    const { loads, findings, requests } = setup();
    loads.ensure(SLOT, query());
    requests[0]?.respond([sastFinding({})]);
    await loads.settle(SLOT);
    loads.nextEpoch({ force: false });
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 1, 'fresh: no new request');
    findings.expire();
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 2, 'expired: loaded again');
    assert.equal(loads.view(SLOT, query()).result?.findings.length, 1, 'the old findings stay shown meanwhile');
    requests[1]?.respond([]);
    await loads.settle(SLOT);
    loads.nextEpoch({ force: true });
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 3, 'force: loaded again');
  });

  void test('cancel: the slot says so and stays cancelled until Load Again or a forced reload', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query());
    assert.equal(loads.cancel(SLOT), true);
    assert.equal(loads.cancel(SLOT), false, 'nothing left to cancel');
    await tick();
    assert.equal(loads.view(SLOT, query()).cancelled, true);
    loads.nextEpoch({ force: false });
    loads.ensure(SLOT, query());
    assert.equal(requests.length, 1);
    loads.nextEpoch({ force: true });
    loads.ensure(SLOT, query());
    assert.equal(loads.view(SLOT, query()).cancelled, false);
    // Cancelling aborted the request; the forced load asks again, and its answer is shown.
    assert.equal(requests.length, 2);
    requests[1]?.respond([sastFinding({}), sastFinding({})]);
    await loads.settle(SLOT);
    assert.equal(loads.view(SLOT, query()).result?.findings.length, 2);
  });

  void test('cancelAll cancels only pending loads', async () => {
    const { loads, requests } = setup();
    loads.ensure('tree:a:sast', query());
    loads.ensure('tree:b:sast', query('b'));
    requests[0]?.respond([sastFinding({})]);
    await loads.settle('tree:a:sast');
    assert.deepEqual(loads.cancelAll(), ['tree:b:sast']);
  });

  void test('start with force refetches at once (Retry)', async () => {
    const { loads, requests } = setup();
    loads.ensure(SLOT, query());
    requests[0]?.fail(new Error('x'));
    await loads.settle(SLOT);
    loads.start(SLOT, query(), true);
    assert.equal(requests.length, 2);
    assert.equal(loads.view(SLOT, query()).loading, true);
    loads.dispose();
  });
});
