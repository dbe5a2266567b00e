import { setMaxListeners } from 'node:events';
import { PlatformError, cancelledError } from '../model/errors';
import { said, type Said } from '../l10n';

/** A safety net: no real list comes near it, a server bug that never ends the list will. */
export const DEFAULT_MAX_PAGES = 10_000;

/** One fetched offset page: its decoded value and how many raw items the service sent. */
export interface OffsetPage<P> {
  readonly value: P;
  /** Items in the raw page, before malformed ones were skipped: only an empty page ends the list. */
  readonly rawCount: number;
  /**
   * What identifies the page's content (e.g. its first and last ids). A server that ignores the
   * page number sends the same page again and again: two equal signatures in a row end the
   * list with an error instead of reading the same items up to the page cap.
   */
  readonly signature?: string;
}

export interface OffsetPagingOptions {
  readonly pageSize: number;
  /** Pages asked at once past the first wave, once the list is known to go on beyond it. */
  readonly concurrency: number;
  /**
   * Pages asked at once from page 0 (default 2, at most `concurrency`): as many as the list took last time plus one, so
   * a list that kept its length is read, end included, in one round trip.
   */
  readonly firstWave?: number;
  /** Told once the list is read whole: its pages with items. */
  readonly onEnd?: (shape: ListShape) => void;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/** How a list came: its pages with items. */
export interface ListShape {
  readonly pages: number;
}

/** Pages asked at once when nothing is known of a list. */
export const DEFAULT_FIRST_WAVE = 2;

/**
 * Offset paging (spec 4.7.1): pages 0, 1, 2, … until one comes back empty. A page shorter than
 * the page size does not end the list: some servers cap page sizes below what was asked (the
 * service's reference speaks of pages of 100), and one that filters a page after cutting it
 * sends short pages before the end; no answer proves either away, so the end is always the
 * empty page, asked in the same wave as the pages before it.
 *
 * The first wave (`firstWave` pages from 0) goes out at once. When the last page asked comes
 * back with items, the list is longer than expected and the next `concurrency` pages go out as
 * soon as it arrives. Pages are yielded strictly in order; nothing past the end is yielded, and
 * leaving the loop early aborts whatever is still in flight.
 */
export async function* offsetPages<P>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<OffsetPage<P>>,
  options: OffsetPagingOptions,
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const firstWave = Math.max(1, Math.floor(options.firstWave ?? Math.min(DEFAULT_FIRST_WAVE, concurrency)));
  const inner = linkedController(options.signal);
  // The last page that can hold items: the one before an empty page.
  let lastPage = Number.POSITIVE_INFINITY;
  const inFlight = new Map<number, Promise<OffsetPage<P>>>();
  let nextToRequest = 0;
  // Pages wanted so far (the first wave, widened when its last page has items), and how many
  // requests are out: never more than the first wave or `concurrency`, whichever is larger.
  let wanted = firstWave;
  let outstanding = 0;
  // The page the consumer waits for: requests run at most `bound` pages ahead of it.
  let consumerAt = 0;
  const bound = Math.max(firstWave, concurrency);
  let previousSignature: string | undefined;
  let pagesWithItems = 0;
  let done = false;

  const pump = (): void => {
    // Once the list is done (or left), an answer still arriving asks for nothing more.
    if (done) return;
    const limit = Math.min(wanted, consumerAt + bound, maxPages, lastPage + 1);
    while (nextToRequest < limit && outstanding < bound) request(nextToRequest++);
  };
  const request = (page: number): void => {
    outstanding++;
    const pending = fetchPage(page, inner.controller.signal)
      .then((result) => {
        if (result.rawCount === 0) lastPage = Math.min(lastPage, page - 1);
        // The last page wanted had items: the list goes on past what was expected.
        else if (page === wanted - 1) wanted = page + 1 + concurrency;
        return result;
      })
      .finally(() => {
        outstanding--;
        pump();
      });
    // Rejections are observed when the page's turn comes; this only keeps Node from
    // reporting them as unhandled while earlier pages are still being yielded.
    pending.catch(() => undefined);
    inFlight.set(page, pending);
  };

  try {
    pump();
    for (let page = 0; page <= Math.max(0, lastPage); page++) {
      if (page >= maxPages) {
        throw new PlatformError('invalidResponse', said('The platform kept sending pages beyond {0} pages; the list was cut off there.', maxPages));
      }
      consumerAt = page;
      // A page not asked yet (the one before it failed, or the window held it back) is asked in its turn.
      if (!inFlight.has(page)) wanted = Math.max(wanted, page + 1);
      pump();
      const pending = inFlight.get(page);
      // Only a cancelled list asks for nothing: the caller's abort is its outcome.
      if (!pending) throw cancelledError();
      inFlight.delete(page);
      const result = await pending;
      if (result.rawCount === 0 && page > 0) {
        break;
      }
      if (result.signature !== undefined && result.signature === previousSignature) {
        throw new PlatformError(
          'invalidResponse',
          said(
            'The platform sent page {0} with the same items as page {1}; the list was cut off there (the server seems to ignore the page number).',
            page,
            page - 1,
          ),
        );
      }
      previousSignature = result.signature;
      if (result.rawCount > 0) pagesWithItems++;
      yield result.value;
      if (result.rawCount === 0) {
        break;
      }
    }
    options.onEnd?.({ pages: pagesWithItems });
  } finally {
    done = true;
    inner.dispose();
  }
}

export interface CursorPage<P, C = string> {
  readonly value: P;
  /** The cursor of the next page; empty or absent at the end. */
  readonly nextCursor: C | undefined;
  /** Whether more follows, when the answer says so (the body-cursor lists); else a cursor and items mean more. */
  readonly hasMore?: boolean;
  readonly rawCount: number;
}

export interface CursorPagingOptions<C = string> {
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
  /** Names the list in errors: "the dependencies". */
  readonly what?: Said;
  /** How two cursors are compared (a cursor seen before would loop); the cursor itself by default. */
  readonly keyOf?: (cursor: C) => string;
}

/**
 * Cursor paging, the one loop for every list that pages by cursor (the query's `cursor`, spec
 * 4.7.2, and the inventory's body cursor): follows the answer's cursor while more follows. A
 * cursor seen before would loop forever, so it ends the list with an error, as do the page cap
 * and an answer that says more follows without a cursor to ask for it. An empty page ends the
 * list unless the answer says more follows. Every page with items is yielded, and the first one
 * always, so a caller learns the list was read.
 */
export async function* cursorPages<P, C = string>(
  fetchPage: (cursor: C | undefined, signal: AbortSignal | undefined) => Promise<CursorPage<P, C>>,
  options: CursorPagingOptions<C> = {},
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const keyOf = options.keyOf ?? ((cursor: C) => String(cursor));
  const seen = new Set<string>();
  let cursor: C | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw new PlatformError(
        'invalidResponse',
        options.what
          ? said('The platform kept sending pages of {0} beyond {1} pages; the list was cut off there.', options.what, maxPages)
          : said('The platform kept sending pages beyond {0} pages; the list was cut off there.', maxPages),
      );
    }
    const result = await fetchPage(cursor, options.signal);
    if (result.rawCount > 0 || page === 0) yield result.value;
    // An empty cursor is no cursor: the answer's way of saying the list ends.
    const next = result.nextCursor !== undefined && keyOf(result.nextCursor) !== '' ? result.nextCursor : undefined;
    const more = result.hasMore ?? (next !== undefined && result.rawCount > 0);
    if (!more) return;
    if (next === undefined) {
      throw new PlatformError(
        'invalidResponse',
        options.what
          ? said('The platform said more of {0} follows but sent no cursor to ask for it; the list was cut off there.', options.what)
          : said('The platform said more follows but sent no cursor to ask for it; the list was cut off there.'),
      );
    }
    const key = keyOf(next);
    if (seen.has(key)) {
      throw new PlatformError(
        'invalidResponse',
        options.what
          ? said('The platform sent the same cursor twice for {0}; the list was cut off there to avoid a loop.', options.what)
          : said('The platform sent the same cursor twice; the list was cut off there to avoid a loop.'),
      );
    }
    seen.add(key);
    cursor = next;
  }
}

/** The paging hints a caller gave, as `offsetPages` takes them. */
export function pageHintsOf(options: {
  readonly firstWave?: number;
  readonly onEnd?: (shape: ListShape) => void;
}): Pick<OffsetPagingOptions, 'firstWave' | 'onEnd'> {
  return {
    ...(options.firstWave === undefined ? {} : { firstWave: options.firstWave }),
    ...(options.onEnd ? { onEnd: options.onEnd } : {}),
  };
}

/** Validates a page size before any request goes out, as the service answers 400 otherwise. */
export function checkPageSize(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new PlatformError('badRequest', said('{0} must be a whole number from {1} to {2}, not {3}.', name, min, max, value));
  }
  return value;
}

/** An AbortController that also aborts when the caller's signal does. */
function linkedController(outer: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  // Each page in flight listens to it (undici adds a listener per request): a sync that asks for
  // every page at once has more than Node's default of ten, which is no leak.
  setMaxListeners(0, controller.signal);
  const onAbort = (): void => controller.abort(cancelledError());
  if (outer?.aborted) {
    onAbort();
  }
  outer?.addEventListener('abort', onAbort, { once: true });
  return {
    controller,
    dispose: () => {
      outer?.removeEventListener('abort', onAbort);
      controller.abort(cancelledError());
    },
  };
}
