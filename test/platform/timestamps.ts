/**
 * The real service sends timestamps in two shapes (see shared/api-notes.md), so generated data
 * mixes both and the server must read both back (for ordering and the `since` filter).
 */
export type TimestampStyle = 'iso' | 'python';

/** `iso`: 2024-05-01T12:00:00.123Z; `python`: 2020-11-18 23:28:12.391807+00:00. */
export function formatTimestamp(ms: number, style: TimestampStyle): string {
  const iso = new Date(ms).toISOString();
  if (style === 'iso') return iso;
  // Python's isoformat() has microseconds; derive the extra digits from the value so they look real.
  const micros = String(Math.abs(Math.floor(ms / 1000) * 7919 + ms) % 1000).padStart(3, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${micros}+00:00`;
}

/** Milliseconds since the epoch, or NaN when the text is neither shape. */
export function parseTimestamp(text: string | undefined): number {
  if (!text) return NaN;
  // ISO text parses as is (the common, fast case); the Python shape needs a 'T' separator and
  // at most millisecond precision first.
  if (text.charCodeAt(10) !== 32) return Date.parse(text);
  return Date.parse(text.replace(' ', 'T').replace(/(\.\d{3})\d+/, '$1'));
}
