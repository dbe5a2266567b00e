/** Cursors of the body- and query-cursored lists (policy rules, scans): opaque to clients. */
import { QueryError } from './query-params';

/** base64url of the offset, so a client cannot mistake it for a page number. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');
}

/** The offset a cursor names; anything malformed or past the end is a 400 (QueryError). */
export function decodeCursor(cursor: string, total: number): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^offset:(\d+)$/.exec(text);
  const offset = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(offset) || offset > total) throw new QueryError('invalid cursor');
  return offset;
}
