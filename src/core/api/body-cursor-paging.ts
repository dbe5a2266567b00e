/**
 * Body-cursor paging (docs/platform-api.md, "Dependencies"): the inventory's lists are POSTs
 * whose JSON body carries the page size, the cursor and the query; the answer carries the next
 * cursor and `hasMore`.
 */
import { PlatformError } from '../model/errors';
import { DEFAULT_MAX_PAGES } from './paging';

/** A cursor as the answer spelt it: the next request sends it back the same way. */
export interface BodyCursor {
  /** The cursor as text, which is how it is compared. */
  readonly text: string;
  /** The answer sent a JSON number (the repositories list does), so it goes back as one. */
  readonly numeric: boolean;
}

export interface BodyCursorPage<P> {
  readonly value: P;
  /** Absent when the answer had none (or an empty one). */
  readonly cursor: BodyCursor | undefined;
  /** Undefined when the answer left the flag out. */
  readonly hasMore: boolean | undefined;
  /** Items in the raw page, before malformed ones were skipped. */
  readonly rawCount: number;
}

export interface BodyCursorPagingOptions {
  readonly pageSize: number;
  /** The rest of every request's body (e.g. `{ dependencyFilter }`). */
  readonly query: Readonly<Record<string, unknown>>;
  /** Names the list in errors: "the dependencies". */
  readonly what: string;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/**
 * Reads pages until the answer's `hasMore` is false. The first request has no cursor; each next
 * one sends the cursor of the answer before it, beside `pageSize` and the query. An answer that
 * leaves `hasMore` out ends the list when it has no cursor or no items. A cursor seen before
 * would loop forever, so it ends the list with an error, as do the page cap and an answer that
 * says there is more without a cursor to ask for it. Every page is yielded, an empty first one
 * too, so a caller always learns the list was read.
 */
export async function* bodyCursorPages<P>(
  fetchPage: (body: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<BodyCursorPage<P>>,
  options: BodyCursorPagingOptions,
): AsyncGenerator<P, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const seen = new Set<string>();
  let cursor: BodyCursor | undefined;
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw new PlatformError('invalidResponse', `The platform kept sending pages of ${options.what} beyond ${maxPages} pages; the list was cut off there.`);
    }
    const body: Record<string, unknown> = { pageSize: options.pageSize, ...options.query };
    if (cursor) body.cursor = cursor.numeric ? Number(cursor.text) : cursor.text;
    const result = await fetchPage(body, options.signal);
    if (result.rawCount > 0 || page === 0) yield result.value;
    const more = result.hasMore ?? (result.cursor !== undefined && result.rawCount > 0);
    if (!more) return;
    if (!result.cursor) {
      throw new PlatformError('invalidResponse', `The platform said more of ${options.what} follows but sent no cursor to ask for it; the list was cut off there.`);
    }
    if (seen.has(result.cursor.text)) {
      throw new PlatformError('invalidResponse', `The platform sent the same cursor twice for ${options.what}; the list was cut off there to avoid a loop.`);
    }
    seen.add(result.cursor.text);
    cursor = result.cursor;
  }
}
