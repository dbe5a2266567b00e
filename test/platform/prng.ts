/**
 * A tiny seeded PRNG (mulberry32) so generated deployments and random faults are reproducible:
 * the same seed always gives the same data, which keeps tests and benchmark runs comparable.
 */
const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  private state: number;

  constructor(seed: number) {
    // `>>> 0` folds any number (negative, fractional, huge) into a valid 32-bit state.
    this.state = Math.floor(seed) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by relative weight; `weighted([['a', 3], ['b', 1]])` gives 'a' three times as often. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** `length` lowercase hex digits. */
  hex(length: number): string {
    let out = '';
    // Byte-pair lookups: this runs several times per generated finding.
    while (out.length < length) {
      const v = Math.floor(this.next() * 0x100000000);
      out += HEX_PAIRS[v >>> 24] + HEX_PAIRS[(v >>> 16) & 255] + HEX_PAIRS[(v >>> 8) & 255] + HEX_PAIRS[v & 255];
    }
    return out.length === length ? out : out.slice(0, length);
  }
}
