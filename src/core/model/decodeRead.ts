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
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
}

/** An id kept as text (policy, rule, deployment ids): a number is converted, never rounded further. */
export function readIdString(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return String(value);
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
  if (typeof value !== 'string') {
    return undefined;
  }
  const m = TIMESTAMP.exec(value.trim());
  if (!m) {
    return undefined;
  }
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC rolls 31 February over into March; a rolled-over date is not the one that was sent.
  if (new Date(local).getUTCDate() !== day) {
    return undefined;
  }
  return new Date(local - zoneOffsetMs(m[8]));
}

/** The spec says UTC, so a timestamp without a zone is read as UTC. */
function zoneOffsetMs(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') {
    return 0;
  }
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  return sign * (hours * 60 + minutes) * 60_000;
}
