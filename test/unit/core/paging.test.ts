import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { checkPageSize, cursorPages, offsetPages, type OffsetPage } from '../../../src/core/api/paging';

/** A list of `total` numbers served in pages, each answered after a delay chosen per page. */
function offsetSource(total: number, pageSize: number, delayOf: (page: number) => number = () => 0) {
  const requested: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const aborted: number[] = [];
  const calls: Promise<unknown>[] = [];
  const fetch = async (page: number, signal: AbortSignal): Promise<OffsetPage<number[]>> => {
    requested.push(page);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayOf(page)));
      if (signal.aborted) {
        aborted.push(page);
      }
      const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - page * pageSize)) }, (_, i) => page * pageSize + i);
      return { value: items, rawCount: items.length };
    } finally {
      inFlight--;
    }
  };
  const fetchPage = (page: number, signal: AbortSignal): Promise<OffsetPage<number[]>> => {
    const call = fetch(page, signal);
    calls.push(call.catch(() => undefined));
    return call;
  };
  /** Resolves once every page asked for so far has been answered (or refused). */
  const settled = async (): Promise<void> => {
    // Pages asked for while waiting are waited for too.
    for (let seen = 0; seen < calls.length;) {
      const batch = calls.slice(seen);
      seen = calls.length;
      await Promise.all(batch);
    }
  };
  return { fetchPage, requested, aborted, maxInFlight: () => maxInFlight, settled };
}

async function collect<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) {
    out.push(page);
  }
  return out;
}

void describe('offsetPages', () => {
  void it('yields a single empty first page for an empty list (page 1 asked for alongside, unseen)', async () => {
    const source = offsetSource(0, 10);
    assert.deepEqual(await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4 })), [[]]);
    assert.deepEqual(source.requested.sort(), [0, 1]);
  });

  void it('a short first page is not the end: page 1 is read (asked at the same time), and its emptiness ends the list', async () => {
    const source = offsetSource(7, 10);
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4 }));
    assert.deepEqual(pages.flat().length, 7);
    assert.deepEqual(source.requested, [0, 1]);
    assert.equal(source.maxInFlight(), 2);
  });

  void it('handles an exact multiple of the page size (ends on an empty page, not yielded)', async () => {
    const source = offsetSource(30, 10);
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 1 }));
    assert.equal(pages.length, 3);
    assert.deepEqual(
      pages.flat(),
      Array.from({ length: 30 }, (_, i) => i),
    );
    assert.deepEqual(source.requested, [0, 1, 2, 3]);
  });

  void it('reads every item exactly once from a server that caps pages far below the page size asked for', async () => {
    // Asked for 10 a page, the server sends 2: every page is "short", none is the end.
    const source = offsetSource(23, 2);
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4 }));
    assert.deepEqual(
      pages.flat(),
      Array.from({ length: 23 }, (_, i) => i),
    );
    assert.equal(new Set(source.requested).size, source.requested.length);
    // Once page 1 had items, the window opened to the full concurrency.
    assert.equal(source.maxInFlight(), 4);
  });

  void it('fetches concurrently but yields in order, exactly, when later pages answer first', async () => {
    // Page 1 is slowest, page 4 fastest: a naive pager would yield them out of order.
    const source = offsetSource(95, 10, (page) => (page === 0 ? 0 : 40 - page * 8));
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4 }));
    assert.deepEqual(
      pages.flat(),
      Array.from({ length: 95 }, (_, i) => i),
    );
    assert.equal(source.maxInFlight(), 4);
    // Never more than concurrency pages beyond the empty one (page 10); none requested twice.
    assert.equal(new Set(source.requested).size, source.requested.length);
    assert.ok(Math.max(...source.requested) <= 10 + 3, String(source.requested));
  });

  void it('stops issuing pages once an empty page is known, and aborts the extra in-flight ones', async () => {
    const source = offsetSource(25, 10, (page) => (page >= 4 ? 50 : 0));
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4 }));
    assert.deepEqual(
      pages.flat(),
      Array.from({ length: 25 }, (_, i) => i),
    );
    await source.settled();
    // Page 6 may go out while page 3 (the empty one) is still on its way; nothing after that.
    assert.ok(
      source.requested.every((p) => p <= 6),
      String(source.requested),
    );
    assert.deepEqual(source.aborted.sort(), source.requested.filter((p) => p > 3).sort());
  });

  void it('asks the whole first wave at once: a list as long as last time is read, its end included, in one round trip', async () => {
    // 3 full pages and the empty page 3: all four asked before any answer.
    const source = offsetSource(30, 10, () => 20);
    const requestedBeforeAnswers: number[][] = [];
    const pages = offsetPages(source.fetchPage, { pageSize: 10, concurrency: 2, firstWave: 4 });
    const first = pages.next();
    requestedBeforeAnswers.push([...source.requested]);
    await first;
    const rest = await collect(pages);
    assert.deepEqual(requestedBeforeAnswers, [[0, 1, 2, 3]]);
    assert.equal(rest.flat().length, 20);
    assert.deepEqual(source.requested, [0, 1, 2, 3]);
  });

  void it("a list longer than the first wave asks the next pages as soon as the wave's last page comes with items", async () => {
    const source = offsetSource(55, 10, () => 10);
    const ended: unknown[] = [];
    const pages = await collect(offsetPages(source.fetchPage, { pageSize: 10, concurrency: 4, firstWave: 2, onEnd: (shape) => ended.push(shape) }));
    assert.equal(pages.flat().length, 55);
    assert.deepEqual(source.requested.slice(0, 6), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(ended, [{ pages: 6 }]);
  });

  void it('goes on past pages with skipped or fewer items, until an empty one', async () => {
    const counts = [10, 10, 3, 7, 0];
    const fetchPage = (page: number): Promise<OffsetPage<string>> => Promise.resolve({ value: `p${page}`, rawCount: counts[page] ?? 0 });
    const pages: string[] = [];
    for await (const p of offsetPages(fetchPage, { pageSize: 10, concurrency: 2 })) {
      pages.push(p);
    }
    assert.deepEqual(pages, ['p0', 'p1', 'p2', 'p3']);
  });

  void it('a server that ignores the page number (the same page again) ends with an error, not 10 000 requests', async () => {
    let requests = 0;
    const fetchPage = (): Promise<OffsetPage<number[]>> => {
      requests++;
      return Promise.resolve({ value: [1, 2, 3], rawCount: 3, signature: '1:3:3' });
    };
    await assert.rejects(
      collect(offsetPages(fetchPage, { pageSize: 10, concurrency: 4 })),
      (e) => PlatformError.is(e, 'invalidResponse') && /same items as page 0/.test(e.message),
    );
    assert.ok(requests <= 5, String(requests));
  });

  void it('surfaces an error of a page in its turn, without unhandled rejections', async () => {
    const fetchPage = async (page: number): Promise<OffsetPage<number>> => {
      await new Promise((resolve) => setTimeout(resolve, page === 1 ? 20 : 0));
      if (page === 2) {
        throw new PlatformError('server', 'boom');
      }
      return { value: page, rawCount: 10 };
    };
    const seen: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const p of offsetPages(fetchPage, { pageSize: 10, concurrency: 3 })) {
          seen.push(p);
        }
      })(),
      (e) => PlatformError.is(e, 'server'),
    );
    assert.deepEqual(seen, [0, 1]);
  });

  void it('ends with invalidResponse at the page cap', async () => {
    const fetchPage = (page: number): Promise<OffsetPage<number>> => Promise.resolve({ value: page, rawCount: 10 });
    await assert.rejects(
      collect(offsetPages((p) => fetchPage(p).then((r) => ({ ...r, value: [r.value] })), { pageSize: 10, concurrency: 2, maxPages: 5 })),
      (e) => PlatformError.is(e, 'invalidResponse'),
    );
  });

  void it('aborts in-flight pages when the consumer stops early', async () => {
    const source = offsetSource(1000, 10, (page) => (page === 0 ? 0 : 30));
    for await (const page of offsetPages(source.fetchPage, { pageSize: 10, concurrency: 3 })) {
      if (page[0] === 10) {
        break;
      }
    }
    await source.settled();
    assert.deepEqual(source.aborted.sort(), [2, 3]);
  });

  void it('passes the caller abort to in-flight pages', async () => {
    const controller = new AbortController();
    controller.abort();
    const signals: AbortSignal[] = [];
    const fetchPage = (_page: number, signal: AbortSignal): Promise<OffsetPage<number>> => {
      signals.push(signal);
      return Promise.reject(new PlatformError('cancelled', 'c'));
    };
    await assert.rejects(
      collect(offsetPages((p, s) => fetchPage(p, s).then((r) => ({ ...r, value: [r.value] })), { pageSize: 10, concurrency: 2, signal: controller.signal })),
      (e) => PlatformError.is(e, 'cancelled'),
    );
    assert.equal(signals[0]?.aborted, true);
  });
});

void describe('cursorPages', () => {
  function cursorSource(pages: Record<string, { next?: string; items: number[] }>) {
    const requested: (string | undefined)[] = [];
    const fetchPage = (cursor: string | undefined) => {
      requested.push(cursor);
      const page = pages[cursor ?? ''];
      assert.ok(page, `unexpected cursor ${cursor}`);
      return Promise.resolve({ value: page.items, nextCursor: page.next, rawCount: page.items.length });
    };
    return { fetchPage, requested };
  }

  void it('follows cursors until an empty one', async () => {
    const source = cursorSource({ '': { next: 'b', items: [1, 2] }, b: { next: 'c', items: [3] }, c: { next: '', items: [4] } });
    assert.deepEqual((await collect(cursorPages(source.fetchPage))).flat(), [1, 2, 3, 4]);
    assert.deepEqual(source.requested, [undefined, 'b', 'c']);
  });

  void it('ends on an absent cursor and on an empty page, yielding the first page even if empty', async () => {
    assert.deepEqual(await collect(cursorPages(cursorSource({ '': { items: [] } }).fetchPage)), [[]]);
    const emptyLater = cursorSource({ '': { next: 'b', items: [1] }, b: { next: 'c', items: [] } });
    assert.deepEqual(await collect(cursorPages(emptyLater.fetchPage)), [[1]]);
    assert.deepEqual(emptyLater.requested, [undefined, 'b']);
  });

  void it('refuses a repeated cursor instead of looping', async () => {
    const source = cursorSource({ '': { next: 'b', items: [1] }, b: { next: 'c', items: [2] }, c: { next: 'b', items: [3] } });
    await assert.rejects(collect(cursorPages(source.fetchPage)), (e) => PlatformError.is(e, 'invalidResponse') && /same cursor twice/.test(e.message));
  });

  void it('ends with invalidResponse at the page cap', async () => {
    let n = 0;
    const fetchPage = () => Promise.resolve({ value: [n], nextCursor: `c${++n}`, rawCount: 1 });
    await assert.rejects(collect(cursorPages(fetchPage, { maxPages: 50 })), (e) => PlatformError.is(e, 'invalidResponse'));
    assert.equal(n, 50);
  });
});

void describe('checkPageSize', () => {
  void it('accepts the range and refuses anything else with badRequest', () => {
    assert.equal(checkPageSize(100, 100, 3000, 'page_size'), 100);
    assert.equal(checkPageSize(3000, 100, 3000, 'page_size'), 3000);
    for (const bad of [99, 3001, 150.5, Number.NaN]) {
      assert.throws(
        () => checkPageSize(bad, 100, 3000, 'page_size'),
        (e) => PlatformError.is(e, 'badRequest'),
      );
    }
  });
});
