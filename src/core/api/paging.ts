import { PlatformError, cancelledError } from '../model/errors';

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
  /** Pages in flight at once once the list is known to go on past its first page. */
  readonly concurrency: number;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/**
 * Offset paging (spec 4.7.1): pages 0, 1, 2, … until one comes back empty. A page shorter than
 * the page size does not end the list: some servers cap page sizes below what was asked (the
 * service's reference speaks of pages of 100), so only an empty page is proof of the end.
 *
 * Pages 0 and 1 are asked for together (most lists end there, and the empty page 1 then costs
 * no extra round trip); once a list is known to be longer, up to `concurrency` pages are in
 * flight. Pages are yielded strictly in order; nothing past the empty page is yielded, and
 * leaving the loop early aborts whatever is still in flight.
 */
export async function* offsetPages<P>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<OffsetPage<P>>,
  options: OffsetPagingOptions,
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const inner = linkedController(options.signal);
  // The lowest page known to be empty; nothing after it is requested.
  let lastPage = Number.POSITIVE_INFINITY;
  // Known once page 0 came back full or any later page had items: then the window opens wide.
  let long = false;
  const inFlight = new Map<number, Promise<OffsetPage<P>>>();
  let nextToRequest = 0;
  let previousSignature: string | undefined;

  const request = (page: number): void => {
    const pending = fetchPage(page, inner.controller.signal).then((result) => {
      if (result.rawCount === 0) {
        lastPage = Math.min(lastPage, page);
      } else if (page > 0 || result.rawCount >= options.pageSize) {
        long = true;
      }
      return result;
    });
    // Rejections are observed when the page's turn comes; this only keeps Node from
    // reporting them as unhandled while earlier pages are still being yielded.
    pending.catch(() => undefined);
    inFlight.set(page, pending);
  };

  try {
    for (let page = 0; page <= lastPage; page++) {
      if (page >= maxPages) {
        throw new PlatformError('invalidResponse', `The platform kept sending pages beyond ${maxPages} pages; the list was cut off there.`);
      }
      // Until the list is known to be long, only pages 0 and 1 go out.
      const limit = long ? page + concurrency : Math.max(page + 1, Math.min(2, concurrency));
      while (nextToRequest < limit && nextToRequest <= lastPage && nextToRequest < maxPages) {
        request(nextToRequest++);
      }
      const pending = inFlight.get(page);
      /* c8 ignore next 3 -- the loop above always requests the current page */
      if (!pending) {
        break;
      }
      inFlight.delete(page);
      const result = await pending;
      if (result.rawCount === 0 && page > 0) {
        break;
      }
      if (result.signature !== undefined && result.signature === previousSignature) {
        throw new PlatformError('invalidResponse', `The platform sent page ${page} with the same items as page ${page - 1}; the list was cut off there (the server seems to ignore the page number).`);
      }
      previousSignature = result.signature;
      yield result.value;
      if (result.rawCount === 0) {
        break;
      }
    }
  } finally {
    inner.dispose();
  }
}

export interface CursorPage<P> {
  readonly value: P;
  /** The cursor of the next page; empty or absent at the end. */
  readonly nextCursor: string | undefined;
  readonly rawCount: number;
}

export interface CursorPagingOptions {
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/**
 * Cursor paging (spec 4.7.2): follows `cursor` until it is empty. A cursor seen before would
 * loop forever, so it ends the list with an error, as does the page cap. An empty page ends it
 * too, whatever the cursor says.
 */
export async function* cursorPages<P>(
  fetchPage: (cursor: string | undefined, signal: AbortSignal | undefined) => Promise<CursorPage<P>>,
  options: CursorPagingOptions = {},
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw new PlatformError('invalidResponse', `The platform kept sending pages beyond ${maxPages} pages; the list was cut off there.`);
    }
    const result = await fetchPage(cursor, options.signal);
    if (result.rawCount > 0 || page === 0) {
      yield result.value;
    }
    if (!result.nextCursor || result.rawCount === 0) {
      return;
    }
    if (seen.has(result.nextCursor)) {
      throw new PlatformError('invalidResponse', 'The platform sent the same page cursor twice; the list was cut off there to avoid a loop.');
    }
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}

/** Validates a page size before any request goes out, as the service answers 400 otherwise. */
export function checkPageSize(value: number, min: number, max: number, name: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new PlatformError('badRequest', `${name} must be a whole number from ${min} to ${max}, not ${value}.`);
  }
  return value;
}

/** An AbortController that also aborts when the caller's signal does. */
function linkedController(outer: AbortSignal | undefined): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
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
