/**
 * Refreshes that overlap share one set of requests; an older answer never replaces a newer one;
 * cancelling stops the requests at once and leaves neither a rejection nobody handles nor an open
 * socket behind. Real client, real local platform, sockets counted in an undici Agent of our own.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/model/errors';
import type { Severity } from '../../../src/core/model/types';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { queryKey, type FindingsQuery, type FindingsResult } from '../../../src/core/services/findings-query';
import { ProjectsService } from '../../../src/core/services/projects-service';
import { countingAgent, eventually, expectFailure, rejectionGuard, startPlatform, tcpSockets, type CountingAgent, type Platform } from './robustness-harness';
import { allFindings } from '../core/helpers/allPages';

const PAGE_SIZE = 100;
const TIMEOUTS = { headersMs: 5_000, bodyMs: 5_000 };
const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];

let p: Platform;
let project: string;
let counting: CountingAgent;
const guard = rejectionGuard();

before(async () => {
  p = await startPlatform({ seed: 77, projects: 2, sastPerProject: 450, scaPerProject: 30, refsPerProject: 1 });
  project = p.server.data.projects[0]?.name ?? '';
});
after(() => p.close());
beforeEach(() => {
  p.server.faults.clear();
  p.server.setLatency(0);
  p.server.requests.length = 0;
  counting = countingAgent(TIMEOUTS);
  guard.install();
});
afterEach(async () => {
  try {
    await guard.check();
  } finally {
    guard.uninstall();
    await counting.agent.close();
  }
  assert.equal(counting.open(), 0, 'sockets left open after the agent closed');
});

const client = (concurrency = 1): ReturnType<Platform['client']> => p.client({ dispatcher: counting.agent, timeouts: TIMEOUTS, concurrency });
const query = (severity?: Severity): FindingsQuery => ({
  deploymentSlug: p.slug,
  issueType: 'sast',
  filters: { repos: [project], ...(severity ? { severities: [severity] } : {}) },
});
// Of the code findings list (each code load also asks for the AI code findings, once, after it).
const findingsRequests = (): number => p.server.requests.filter((r) => r.path.endsWith('/findings') && !r.rawUrl.includes('issue_type=ai_sast')).length;
const idsOf = (severity?: Severity): number[] =>
  p.server.data.sast
    .filter((f) => f.repository?.name === project && (!severity || f.severity === severity))
    .map((f) => f.id ?? -1)
    .sort((a, b) => a - b);
const sortedIds = (r: FindingsResult): number[] => r.findings.map((f) => f.id).sort((a, b) => a - b);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

void describe('overlapping refreshes', () => {
  void it('a second refresh while the first is on the wire shares its requests (one per page)', async () => {
    const service = new FindingsStore(() => client(), { pageSize: PAGE_SIZE });
    p.server.setLatency(30);
    const first = service.load('slot', query());
    await eventually(() => findingsRequests() >= 1, 'the first page requested');
    const second = service.load('slot', query(), { force: true });
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a, b, 'both callers get the one result');
    assert.deepEqual(sortedIds(a), idsOf());
    // Every page with findings, then the empty one that ends the list: each once.
    assert.equal(findingsRequests(), Math.ceil(idsOf().length / PAGE_SIZE) + 1, 'each page requested once');
    service.dispose();
  });

  void it('two project list refreshes at once share one set of requests', async () => {
    const service = new ProjectsService(
      () => client(),
      () => p.slug,
    );
    p.server.setLatency(20);
    const [a, b] = await Promise.all([service.load(), service.load({ force: true })]);
    assert.equal(a, b);
    assert.equal(a.length, p.server.data.projects.length);
    // The list fits in page 0; page 1 (empty) ends it. Two refreshes, still one request each.
    assert.equal(p.server.requests.filter((r) => r.path.endsWith('/projects')).length, 2);
    service.dispose();
  });
});

void describe('an older answer never replaces a newer one', () => {
  void it('switching back to the filter still shown, while another is loading, keeps it shown', async () => {
    const service = new FindingsStore(() => client(), { pageSize: PAGE_SIZE });
    const low = await service.load('slot', query('low'));
    // The user picks "high" (slow to answer), then goes back to "low" before it arrives.
    p.server.faults.inject({ kind: 'delay', ms: 60 }, { pathIncludes: 'severities=high' });
    const high = service.load('slot', query('high')).catch((e: unknown) => (PlatformError.is(e) ? e.reason : e));
    await eventually(() => p.server.requests.some((r) => r.rawUrl.includes('severities=high')), 'high requested');
    const back = await service.load('slot', query('low'));
    assert.deepEqual(sortedIds(back), sortedIds(low));
    await high;
    await sleep(80);
    const state = service.state('slot');
    const shownSeverity = state.kind === 'loaded' ? state.result.query.filters.severities?.[0] : state.kind;
    assert.equal(shownSeverity, 'low', 'the answer for "high", chosen before "low", replaced it');
    service.dispose();
  });

  void it('for any order in which the answers of quick successive queries arrive', async () => {
    const api = client();
    const expected = new Map(SEVERITIES.map((s) => [s, idsOf(s)]));
    // A run: up to five queries issued on one slot in a row, each answered after its own delay.
    const step = fc.record({ severity: fc.constantFrom(...SEVERITIES), delayMs: fc.integer({ min: 0, max: 30 }), gapMs: fc.integer({ min: 0, max: 20 }) });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 5 }), async (steps) => {
        p.server.faults.clear();
        const service = new FindingsStore(() => api, { pageSize: PAGE_SIZE });
        // The query objects in the order the user chose them; a result carries the one it answers.
        const issued: FindingsQuery[] = [];
        const shown: number[] = [];
        service.onDidChange(() => {
          const state = service.state('slot');
          const result = state.kind === 'loaded' ? state.result : state.kind === 'loading' ? state.previous : undefined;
          // Equal queries share one answer: it stands for the latest choice of that query.
          const at = result ? issued.map(queryKey).lastIndexOf(queryKey(result.query)) : -1;
          if (at >= 0 && shown.at(-1) !== at) shown.push(at);
        });
        try {
          const loads: Promise<unknown>[] = [];
          for (const s of steps) {
            // The delay applies to this query's next request only (FIFO among equal matches).
            p.server.faults.inject({ kind: 'delay', ms: s.delayMs }, { pathIncludes: `severities=${s.severity}` });
            const q = query(s.severity);
            issued.push(q);
            loads.push(
              service.load('slot', q).catch((e: unknown) => {
                if (!PlatformError.is(e, 'cancelled')) throw e;
              }),
            );
            await sleep(s.gapMs);
          }
          await Promise.all(loads);
          await sleep(40); // every delayed answer has had the time to arrive
          const last = steps.at(-1)?.severity;
          const state = service.state('slot');
          const story = `queries ${steps.map((s) => `${s.severity}(+${s.delayMs}ms, then ${s.gapMs}ms)`).join(' → ')}; shown ${shown.map((i) => steps[i]?.severity).join(' → ')}`;
          assert.equal(state.kind, 'loaded', story);
          assert.equal(
            state.kind === 'loaded' ? state.result.query.filters.severities?.[0] : undefined,
            last,
            `the last choice is not what is shown: ${story}`,
          );
          assert.deepEqual(state.kind === 'loaded' ? sortedIds(state.result) : [], expected.get(last ?? 'low'));
          // What was shown never went back to the answer of a query chosen before the one shown.
          assert.ok(
            shown.every((at, i) => i === 0 || at > (shown[i - 1] ?? -1)),
            `an older answer came back: ${story}`,
          );
        } finally {
          service.dispose();
        }
      }),
      { numRuns: 20, seed: 31_337 },
    );
  });
});

void describe('cancelling', () => {
  void it('aborting a paged sync stops its requests at once and leaves no socket busy', async () => {
    const api = client(4);
    // Answers far slower than any machine's scheduling: a call that ends at all did not wait for them.
    p.server.setLatency(3_000);
    const controller = new AbortController();
    const sync = allFindings(() => api.findings(p.slug, 'sast', {}, { pageSize: PAGE_SIZE, signal: controller.signal }));
    await eventually(() => counting.sent('/findings') >= 2, 'later pages requested concurrently');
    controller.abort();
    const sentAtAbort = counting.sent('/findings');
    await expectFailure(sync, 'cancelled');
    await sleep(150); // time for a request the sync might still send (none may be)
    assert.equal(counting.sent('/findings'), sentAtAbort, 'no request was sent after the abort');
    await eventually(() => counting.busy() === 0, 'no request left running in the agent');
    // The sockets of the requests cut short are destroyed rather than handed back half-read.
    assert.ok(counting.closed() >= 1, `none of ${counting.opened()} sockets was closed`);
  });

  void it('cancelling a slot whose request hangs ends the load, keeps what was shown, frees the socket', async () => {
    const service = new FindingsStore(() => client(), { pageSize: PAGE_SIZE });
    const shown = await service.load('slot', query('high'));
    p.server.faults.inject({ kind: 'hang' }, { pathIncludes: '/findings' });
    const refresh = service.load('slot', query('low'));
    await eventually(() => counting.busy() === 1, 'the hanging request is on the wire');
    const closedBefore = counting.closed();
    assert.equal(service.cancel('slot'), true);
    await expectFailure(refresh, 'cancelled');
    const state = service.state('slot');
    assert.equal(state.kind, 'loaded');
    assert.equal(state.kind === 'loaded' ? state.result : undefined, shown, 'the earlier findings stay, not marked stale');
    // Its socket is destroyed (a later request never queues behind the unanswered one).
    // (The other pages of the load's wave answered; their sockets may close with it.)
    await eventually(() => counting.busy() === 0 && counting.closed() > closedBefore, 'the hanging socket closed');
    const next = await service.load('slot', query('low'));
    assert.deepEqual(sortedIds(next), idsOf('low'));
    service.dispose();
  });

  void it('clearing every slot mid-load (sign-out) aborts all requests and ends every load as cancelled', async () => {
    const service = new FindingsStore(() => client(2), { pageSize: PAGE_SIZE });
    p.server.setLatency(30);
    const outcomes = [...SEVERITIES.map((s) => service.load(`slot-${s}`, query(s))), service.load('all', query())].map((load) =>
      load.then(
        () => 'loaded',
        (e: unknown) => (PlatformError.is(e) ? e.reason : String(e)),
      ),
    );
    await eventually(() => counting.busy() >= 3 && findingsRequests() >= 3, 'loads on the wire');
    service.clear();
    const sentAtClear = counting.sent('/findings');
    // Each caller learns its load was cancelled (which the views keep silent), none sees findings.
    assert.deepEqual(await Promise.all(outcomes), ['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled']);
    await eventually(() => counting.busy() === 0, 'every request aborted');
    await sleep(100); // time for a request a load might still send (none may be)
    assert.equal(counting.sent('/findings'), sentAtClear, 'nothing requested after the clear');
    for (const s of [...SEVERITIES.map((x) => `slot-${x}`), 'all']) assert.deepEqual(service.state(s), { kind: 'idle' });
    service.dispose();
  });

  void it("with the client's own agent: after abort and close, no TCP socket of the sync is left in the process", async () => {
    const baseline = tcpSockets();
    const own = new PlatformClient(p.options({ timeouts: TIMEOUTS, concurrency: 4 }));
    p.server.setLatency(40);
    const controller = new AbortController();
    const sync = allFindings(() => own.findings(p.slug, 'sast', {}, { pageSize: PAGE_SIZE, signal: controller.signal }));
    await eventually(() => tcpSockets() > baseline, 'connections opened');
    controller.abort();
    await expectFailure(sync, 'cancelled');
    await own.close();
    // Client ends and the platform's ends of the same connections alike.
    await eventually(() => tcpSockets() === baseline, `TCP sockets back to ${baseline} (now ${tcpSockets()})`);
  });
});
