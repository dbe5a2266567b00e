/**
 * The paging iterators against thousands of generated page sequences (a fake page fetcher, no
 * HTTP): short, empty, full and over-full pages answered in any order, failing pages, repeated
 * and garbage cursors, cancellation and a consumer that stops early. Always: it ends (within the
 * page cap), every page is fetched and yielded at most once and in order, nothing before the end
 * is lost, and it ends with completion or a typed PlatformError.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PlatformError, cancelledError } from '../../../src/core/model/errors';
import { cursorPages, offsetPages } from '../../../src/core/api/paging';
import { decodeFindingsPageInSlices } from '../../../src/core/model/decodeFinding';
import { decodePolicyRulesPage } from '../../../src/core/model/decodePolicy';
import { StringInterner } from '../../../src/core/model/interner';
import { findingsBody, hugeString, policyRulesBody, sastFinding } from './malformed';

const SEED = 0xc0ffee;
const RUNS = 2_000;
/**
 * Page requests a pager may make in one run: far above every cap here (at most 12 pages), so
 * only a pager that never ends reaches it.
 */
const PAGE_BUDGET = 100;

type Ending = { kind: 'done' } | { kind: 'error'; reason: PlatformError['reason']; message: string };

/**
 * The fetcher, bounded in page requests: a pager that never ends fails the property once it has
 * asked for `PAGE_BUDGET` pages, instead of hanging. Counted in requests, not time, so a busy
 * machine changes nothing. (A pager that waits forever with nothing in flight leaves the event
 * loop empty, which node:test reports as a failure of its own.)
 */
function budgeted<A extends unknown[], R>(fetchPage: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let requests = 0;
  return (...args) => {
    if (++requests > PAGE_BUDGET)
      return Promise.reject(new assert.AssertionError({ message: `the pager did not end: it asked for more than ${PAGE_BUDGET} pages` }));
    return fetchPage(...args);
  };
}

/** Consumes `pages`, stopping after `stopAfter` pages if given; how it ended. */
async function drain<P>(pages: AsyncGenerator<P, void, undefined>, onPage: (page: P) => void, stopAfter?: number): Promise<Ending> {
  let n = 0;
  try {
    for await (const page of pages) {
      onPage(page);
      if (stopAfter !== undefined && ++n >= stopAfter) break;
    }
    return { kind: 'done' };
  } catch (e) {
    // The page budget's own failure, as it is.
    if (e instanceof assert.AssertionError) throw e;
    assert.ok(PlatformError.is(e), `ended with ${String(e)} instead of a PlatformError`);
    return { kind: 'error', reason: e.reason, message: e.message };
  }
}

const ticks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

void describe('offset paging (findings, projects)', () => {
  const pageSpec = fc.record({
    kind: fc.constantFrom('full', 'full', 'full', 'short', 'empty', 'over', 'error'),
    shortBy: fc.integer({ min: 1, max: 4 }),
    ticks: fc.integer({ min: 0, max: 3 }),
  });
  const scenario = fc.record({
    pages: fc.array(pageSpec, { maxLength: 14 }),
    pageSize: fc.integer({ min: 1, max: 5 }),
    concurrency: fc.integer({ min: 1, max: 5 }),
    firstWave: fc.option(fc.integer({ min: 1, max: 6 }), { freq: 2 }),
    maxPages: fc.integer({ min: 1, max: 12 }),
    abortAtFetch: fc.option(fc.integer({ min: 1, max: 8 }), { freq: 4 }),
    stopAfter: fc.option(fc.integer({ min: 1, max: 6 }), { freq: 4 }),
  });

  void it(`${RUNS} page sequences: ends within the cap, each page once and in order, nothing lost, a typed ending`, async () => {
    let yieldedPages = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const outer = new AbortController();
        const fetched: number[] = [];
        const signals = new Map<number, AbortSignal>();
        const settled = new Set<number>();
        let inFlight = 0;
        let maxInFlight = 0;
        const rawCount = (page: number): number => {
          const spec = s.pages[page];
          if (!spec || spec.kind === 'empty') return 0;
          if (spec.kind === 'short') return Math.max(0, s.pageSize - spec.shortBy);
          return spec.kind === 'over' ? s.pageSize + spec.shortBy : s.pageSize;
        };
        const fetchPage = async (page: number, signal: AbortSignal): Promise<{ value: number[]; rawCount: number }> => {
          fetched.push(page);
          signals.set(page, signal);
          if (s.abortAtFetch !== null && fetched.length === s.abortAtFetch) outer.abort();
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            await ticks(s.pages[page]?.ticks ?? 0);
            if (signal.aborted) throw cancelledError();
            if (s.pages[page]?.kind === 'error') throw new PlatformError('server', `page ${page} failed (503). Try again later.`, { status: 503 });
            const count = rawCount(page);
            return { value: Array.from({ length: count }, (_, i) => page * 100 + i), rawCount: count };
          } finally {
            inFlight--;
            settled.add(page);
          }
        };

        const yielded: number[][] = [];
        const ending = await drain(
          offsetPages(budgeted(fetchPage), {
            pageSize: s.pageSize,
            concurrency: s.concurrency,
            maxPages: s.maxPages,
            signal: outer.signal,
            ...(s.firstWave === null ? {} : { firstWave: s.firstWave }),
          }),
          (items) => yielded.push(items),
          s.stopAfter ?? undefined,
        );
        // Whatever is still running once the pager is done has been told to stop.
        for (const [page, signal] of signals) assert.ok(settled.has(page) || signal.aborted, `page ${page} still running, not aborted`);
        yieldedPages += yielded.length;

        // Fetching: each page once, never beyond the cap, never more at once than allowed.
        assert.equal(new Set(fetched).size, fetched.length, `a page was fetched twice: ${fetched.join(',')}`);
        assert.ok(
          fetched.every((p) => p < s.maxPages),
          'a page beyond the cap was fetched',
        );
        const allowed = Math.max(s.concurrency, s.firstWave ?? 0);
        assert.ok(maxInFlight <= allowed, `${maxInFlight} pages in flight, concurrency ${s.concurrency}, first wave ${s.firstWave}`);

        // The expected list: pages up to the first empty one (a short page does not end it); an
        // error or the cap ends it early.
        const expected: number[][] = [];
        let expectedEnding: Ending['kind'] | PlatformError['reason'] = 'done';
        for (let page = 0; ; page++) {
          if (page >= s.maxPages) {
            expectedEnding = 'invalidResponse';
            break;
          }
          if (s.pages[page]?.kind === 'error') {
            expectedEnding = 'server';
            break;
          }
          const count = rawCount(page);
          if (count > 0 || page === 0) expected.push(Array.from({ length: count }, (_, i) => page * 100 + i));
          if (count === 0) break;
        }
        // Items: each at most once, pages in order, a prefix of the expected list (all of it unless cut short).
        const items = yielded.flat();
        assert.equal(new Set(items).size, items.length, 'an item was yielded twice');
        assert.deepEqual(yielded, expected.slice(0, yielded.length), 'pages out of order, or lost');
        const cutShort = s.abortAtFetch !== null || s.stopAfter !== null;
        if (!cutShort) {
          assert.deepEqual(yielded, expected);
          assert.equal(ending.kind === 'done' ? 'done' : ending.reason, expectedEnding, JSON.stringify(ending));
        } else if (ending.kind === 'error') {
          assert.ok(ending.reason === 'cancelled' || ending.reason === expectedEnding, `ended with ${ending.reason}`);
        }
        if (ending.kind === 'error' && ending.reason === 'invalidResponse') assert.match(ending.message, /beyond \d+ pages; the list was cut off there/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // The generator's own check: most sequences yield pages, so the properties were exercised.
    assert.ok(yieldedPages > RUNS * 0.8, `only ${yieldedPages} pages yielded in all`);
  });

  void it('pages of malformed findings answers: ends within the cap with completion or a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(findingsBody(sastFinding), { maxLength: 8 }), fc.integer({ min: 1, max: 4 }), async (bodies, concurrency) => {
        const interner = new StringInterner();
        const fetched: number[] = [];
        const ending = await drain(
          offsetPages(
            budgeted(async (page: number) => {
              fetched.push(page);
              await ticks(page % 2);
              // Past the generated pages the list is over: answered as an empty page.
              const decoded = await decodeFindingsPageInSlices(bodies[page] ?? { sastFindings: { findings: [] } }, 'sast', interner, () => Promise.resolve());
              return { value: decoded.findings, rawCount: decoded.rawCount };
            }),
            { pageSize: 3, concurrency, maxPages: 6 },
          ),
          () => undefined,
        );
        assert.equal(new Set(fetched).size, fetched.length);
        assert.ok(fetched.every((p) => p < 6));
        if (ending.kind === 'error') assert.equal(ending.reason, 'invalidResponse');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

void describe('cursor paging (policy rules)', () => {
  const nextCursor = fc.oneof(
    { weight: 4, arbitrary: fc.constant<'fresh'>('fresh') },
    { weight: 1, arbitrary: fc.constantFrom<'absent' | 'empty' | 'repeat' | 'repeatFirst'>('absent', 'empty', 'repeat', 'repeatFirst') },
    {
      weight: 1,
      arbitrary: fc.oneof(fc.constantFrom(' ', '\u0000', 'null', 'undefined', '0', '-1', '%00', '../'), hugeString).map((text) => ({ garbage: text })),
    },
  );
  const pageSpec = fc.record({ rawCount: fc.integer({ min: 0, max: 3 }), next: nextCursor, fails: fc.boolean(), ticks: fc.integer({ min: 0, max: 2 }) });
  const scenario = fc.record({
    pages: fc.array(pageSpec, { maxLength: 14 }).map((pages) => pages.map((p) => ({ ...p, fails: p.fails && p.ticks === 2 }))),
    maxPages: fc.integer({ min: 1, max: 12 }),
    abortAt: fc.option(fc.integer({ min: 1, max: 8 }), { freq: 5 }),
  });

  void it(`${RUNS} cursor sequences: each cursor followed once, loops and the cap end with a typed error`, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const controller = new AbortController();
        const asked: (string | undefined)[] = [];
        const handed: string[] = [];
        /** The cursor page `page` hands out, given those handed out before it. */
        const cursorFor = (page: number, before: readonly string[]): string | undefined => {
          const next = s.pages[page]?.next ?? 'absent';
          if (next === 'absent') return undefined;
          if (next === 'empty') return '';
          if (next === 'repeat') return before.at(-1) ?? `c${page}`;
          if (next === 'repeatFirst') return before[0] ?? `c${page}`;
          if (next === 'fresh') return `c${page}`;
          // Garbage is still a cursor; only its repetition would betray a loop.
          return `${next.garbage}${page}`;
        };
        const fetchPage = async (
          cursor: string | undefined,
          signal: AbortSignal | undefined,
        ): Promise<{ value: number; nextCursor: string | undefined; rawCount: number }> => {
          const page = asked.length;
          asked.push(cursor);
          if (s.abortAt !== null && page + 1 === s.abortAt) controller.abort();
          await ticks(s.pages[page]?.ticks ?? 0);
          if (signal?.aborted) throw cancelledError();
          if (s.pages[page]?.fails) throw new PlatformError('network', 'Could not reach the platform. Check the network connection and the proxy settings.');
          const nextCursor = cursorFor(page, handed);
          if (nextCursor) handed.push(nextCursor);
          return { value: page, nextCursor, rawCount: s.pages[page]?.rawCount ?? 0 };
        };
        const yielded: number[] = [];
        const ending = await drain(cursorPages(budgeted(fetchPage), { maxPages: s.maxPages, signal: controller.signal }), (p) => yielded.push(p));

        // The first request has no cursor; each later one sends the cursor the page before handed out.
        assert.ok(asked.length <= s.maxPages, `${asked.length} pages fetched, cap ${s.maxPages}`);
        assert.equal(asked[0], undefined);
        const sentCursors = asked.slice(1);
        assert.equal(new Set(sentCursors).size, sentCursors.length, 'a cursor was followed twice (a loop)');
        assert.deepEqual(sentCursors, handed.slice(0, sentCursors.length));

        // The expected walk: stop at the end, at an empty page, at a failure, a loop or the cap.
        const expected: number[] = [];
        const before: string[] = [];
        let expectedEnding: Ending['kind'] | PlatformError['reason'] = 'done';
        for (let page = 0; ; page++) {
          if (page >= s.maxPages) {
            expectedEnding = 'invalidResponse';
            break;
          }
          if (s.pages[page]?.fails) {
            expectedEnding = 'network';
            break;
          }
          const rawCount = s.pages[page]?.rawCount ?? 0;
          if (rawCount > 0 || page === 0) expected.push(page);
          const next = cursorFor(page, before);
          if (!next || rawCount === 0) break;
          if (before.includes(next)) {
            expectedEnding = 'invalidResponse';
            break;
          }
          before.push(next);
        }
        assert.deepEqual(yielded, expected.slice(0, yielded.length), 'pages out of order, twice, or lost');
        const endedAs = ending.kind === 'done' ? 'done' : ending.reason;
        if (s.abortAt === null) {
          assert.deepEqual(yielded, expected);
          assert.equal(endedAs, expectedEnding, JSON.stringify(ending));
        } else {
          assert.ok(endedAs === expectedEnding || endedAs === 'cancelled', `ended as ${endedAs}`);
        }
        if (ending.kind === 'error' && ending.reason === 'invalidResponse') assert.match(ending.message, /same cursor twice|beyond \d+ pages/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  void it('pages of malformed policy rule answers: ends within the cap with completion or a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(policyRulesBody, { maxLength: 10 }), async (bodies) => {
        let calls = 0;
        const ending = await drain(
          cursorPages(
            budgeted(async () => {
              await ticks(calls % 2);
              const page = decodePolicyRulesPage(bodies[calls++] ?? {});
              return { value: page.rules, nextCursor: page.nextCursor, rawCount: page.rawCount };
            }),
            { maxPages: 8 },
          ),
          () => undefined,
        );
        assert.ok(calls <= 8);
        if (ending.kind === 'error') assert.equal(ending.reason, 'invalidResponse');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
