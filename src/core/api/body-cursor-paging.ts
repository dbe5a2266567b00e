/**
 * Body-cursor paging (docs/platform-api.md, "Dependencies"): the inventory's lists are POSTs
 * whose JSON body carries the page size, the cursor and the query; the answer carries the next
 * cursor and `hasMore`.
 */
import { cursorPages } from './paging';
import type { Said } from '../l10n';

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
  readonly what: Said;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/**
 * Reads pages until the answer's `hasMore` is false (`cursorPages` is the loop). The first request
 * has no cursor; each next one sends the cursor of the answer before it, beside `pageSize` and the
 * query. An answer that leaves `hasMore` out ends the list when it has no cursor or no items.
 */
export function bodyCursorPages<P>(
  fetchPage: (body: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<BodyCursorPage<P>>,
  options: BodyCursorPagingOptions,
): AsyncGenerator<P, void, undefined> {
  return cursorPages<P, BodyCursor>(
    async (cursor, signal) => {
      const body: Record<string, unknown> = { pageSize: options.pageSize, ...options.query };
      if (cursor) body.cursor = cursor.numeric ? Number(cursor.text) : cursor.text;
      const result = await fetchPage(body, signal);
      return {
        value: result.value,
        nextCursor: result.cursor,
        rawCount: result.rawCount,
        ...(result.hasMore === undefined ? {} : { hasMore: result.hasMore }),
      };
    },
    { what: options.what, maxPages: options.maxPages, signal: options.signal, keyOf: (cursor) => cursor.text },
  );
}
