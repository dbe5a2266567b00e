/**
 * A finding's `match_based_id` kept as a number. The same finding on two branches shares that id
 * (docs/platform-api.md, "The same finding on two branches"), which is how "new on this branch"
 * is told; but the id is a long hex string, and every finding would keep one (docs/performance.md,
 * "Memory"). Two independent 32-bit hashes folded into 53 bits cost one number: two different
 * ids collide with odds of about 1 in 10^15 per pair, far below one wrong answer in any
 * deployment's lifetime.
 */
export function matchKeyOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  // FNV-1a and a multiply-xorshift hash, both over UTF-16 code units, in one pass.
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ value.length;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  // 21 bits of one and 32 of the other: the largest integer a double holds exactly.
  return (a >>> 11) * 0x1_0000_0000 + (b >>> 0);
}
