/**
 * Small readers for untrusted JSON. Each returns `undefined` for a missing or ill-typed value
 * instead of throwing: one odd field must not cost the whole finding (tolerant reader).
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** A string, or undefined. Empty strings count as absent: the service sends "" for "none". */
export function readString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function readBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function readNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * An integer id that survives as a JS number. Above 2^53 JSON.parse has already rounded it, so
 * it may name another record: such an id is refused rather than trusted. Digit strings are
 * accepted too, since some payloads quote their numbers.
 */
export function readSafeInteger(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? value : undefined;
  }
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** An id kept as text (policy, rule, deployment ids): a number is converted, never rounded further. */
export function readIdString(value: unknown): string | undefined {
  // A number beyond 2^53 was already rounded by JSON.parse: it would name another object.
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  return readString(value);
}

/** The strings of an array; anything else in it is left out. A missing array is empty. */
export function readStringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

// `2024-05-01T12:00:00.123Z` and `2020-11-18 23:28:12.391807+00:00`, with or without fraction
// or zone. Parsed by hand: Date.parse of the space-separated form is not guaranteed by the spec.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A timestamp of either form the service sends, or undefined when it is not a real instant. */
export function readTimestamp(value: unknown): Date | undefined {
  const ms = readTimestampMs(value);
  return ms === undefined ? undefined : new Date(ms);
}

/** As {@link readTimestamp}, in epoch milliseconds (no Date made: every finding has one). */
export function readTimestampMs(value: unknown): number | undefined {
  if (typeof value !== 'string') {
    return undefined;
  }
  // Every finding has a timestamp: the usual shapes are read without a regex or any garbage.
  const fast = fastTimestampMs(value);
  if (fast !== NOT_FAST) {
    return Number.isNaN(fast) ? undefined : fast;
  }
  return timestampMsByPattern(value);
}

/** `fastTimestampMs` could not decide: the pattern decides. */
const NOT_FAST = -Infinity;

/**
 * Epoch ms of `YYYY-MM-DD[T ]hh:mm[:ss[.fff…]][Z|±hh[[:]mm]]` exactly as {@link TIMESTAMP} reads
 * it; NaN when such text is not a real instant; {@link NOT_FAST} for any other text (spaces,
 * lower-case letters, anything unusual), which the pattern then reads.
 */
function fastTimestampMs(s: string): number {
  const n = s.length;
  if (n < 16 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58) {
    return NOT_FAST;
  }
  const sep = s.charCodeAt(10);
  if (sep !== 84 && sep !== 32) {
    return NOT_FAST;
  }
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0) {
    return NOT_FAST;
  }
  let i = 16;
  let second = 0;
  let millis = 0;
  if (i < n && s.charCodeAt(i) === 58) {
    second = digits(s, i + 1, 2);
    if (second < 0) {
      return NOT_FAST;
    }
    i += 3;
    const dot = i < n ? s.charCodeAt(i) : 0;
    if (dot === 46 || dot === 44) {
      const from = ++i;
      // The first three digits are the milliseconds; more are read and dropped.
      for (let code = s.charCodeAt(i); i < n && code >= 48 && code <= 57; code = s.charCodeAt(++i)) {
        if (i - from < 3) {
          millis = millis * 10 + (code - 48);
        }
      }
      const count = i - from;
      if (count === 0) {
        return NOT_FAST;
      }
      millis *= count === 1 ? 100 : count === 2 ? 10 : 1;
    }
  }
  let offsetMs = 0;
  if (i < n) {
    const zone = s.charCodeAt(i);
    if (zone === 90 && i + 1 === n) {
      // Z
    } else if (zone === 43 || zone === 45) {
      const hours = digits(s, i + 1, 2);
      let minutes = 0;
      if (hours < 0) {
        return NOT_FAST;
      }
      if (i + 3 < n) {
        const from = s.charCodeAt(i + 3) === 58 ? i + 4 : i + 3;
        minutes = from + 2 === n ? digits(s, from, 2) : -1;
        if (minutes < 0) {
          return NOT_FAST;
        }
      }
      offsetMs = (zone === 45 ? -1 : 1) * (hours * 60 + minutes) * 60_000;
    } else {
      return NOT_FAST;
    }
  }
  return instantMs(year, month, day, hour, minute, second, millis, offsetMs);
}

/** The value of `count` ASCII digits at `from`, or -1 when they are not all digits. */
function digits(s: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const code = s.charCodeAt(i);
    if (!(code >= 48 && code <= 57)) {
      return -1;
    }
    value = value * 10 + (code - 48);
  }
  return value;
}

function timestampMsByPattern(value: string): number | undefined {
  const m = TIMESTAMP.exec(value.trim());
  if (!m) {
    return undefined;
  }
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const ms = instantMs(year, month, day, hour, minute, second, millis, zoneOffsetMs(m[8]));
  return Number.isNaN(ms) ? undefined : ms;
}

/** Epoch ms of a UTC wall time less its zone offset, or NaN when the fields name no real time. */
function instantMs(year: number, month: number, day: number, hour: number, minute: number, second: number, millis: number, offsetMs: number): number {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return Number.NaN;
  }
  // Date.UTC rolls 31 February over into March; a rolled-over date is not the one that was sent.
  // (Date.UTC reads years 0–99 as 1900–1999, so their length of February is that year's.)
  if (day > 28 && day > daysInMonth(year <= 99 ? 1900 + year : year, month)) {
    return Number.NaN;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMs;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The spec says UTC, so a timestamp without a zone is read as UTC. */
function zoneOffsetMs(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') {
    return 0;
  }
  const sign = zone.startsWith('-') ? -1 : 1;
  const hhmm = zone.slice(1).replace(':', '');
  const hours = Number(hhmm.slice(0, 2));
  const minutes = Number(hhmm.slice(2) || '0');
  return sign * (hours * 60 + minutes) * 60_000;
}
