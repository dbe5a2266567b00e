/**
 * Strict readers of query parameters. A malformed value is a 400 (QueryError), as the real
 * service answers, so a client bug shows up in tests instead of being silently tolerated.
 */
export class QueryError extends Error {}

/** Repeated keys (`severities=a&severities=b`) are how arrays arrive; empty values are dropped. */
export function list(params: URLSearchParams, name: string): string[] | undefined {
  const values = params.getAll(name).filter((v) => v !== '');
  return values.length > 0 ? values : undefined;
}

export function integer(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw new QueryError(`${name} must be an integer`);
  const value = Number(raw);
  if (value < min || value > max) throw new QueryError(`${name} must be between ${min} and ${max}`);
  return value;
}

export function boolean(params: URLSearchParams, name: string): boolean | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  throw new QueryError(`${name} must be true or false`);
}

export function number(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new QueryError(`${name} must be a number`);
  return value;
}
