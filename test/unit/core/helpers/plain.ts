/**
 * Decoded objects keep absent optional fields as `undefined` properties (one shape for all
 * findings keeps them small), which deepStrictEqual would count. This drops them for comparing.
 */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(plain);
  }
  if (value instanceof Date || typeof value !== 'object' || value === null) {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, plain(v)]),
  );
}
