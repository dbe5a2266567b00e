/**
 * Keeps one copy of each repeated string. JSON.parse makes a fresh string for every occurrence,
 * so 100 000 findings of a few dozen rules would otherwise hold 100 000 copies of each rule's
 * name and message. One interner lives for one sync and is dropped with it.
 *
 * Small immutable values that repeat as a whole (a finding's policy, its list of fix versions)
 * are shared the same way through {@link StringInterner.shared}.
 */
export class StringInterner {
  private readonly strings = new Map<string, string>();
  private readonly values = new Map<string, unknown>();

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) {
      return known;
    }
    this.strings.set(value, value);
    return value;
  }

  /** Interns when given a string, passes `undefined` through. */
  optional(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.intern(value);
  }

  /**
   * The value made for `key` the first time it was asked for. The value is frozen, because every
   * finding that shares it would see a change.
   */
  shared<T extends object>(key: string, make: () => T): Readonly<T> {
    const known = this.values.get(key) as Readonly<T> | undefined;
    if (known !== undefined) {
      return known;
    }
    const value = Object.freeze(make());
    this.values.set(key, value);
    return value;
  }

  /** Distinct strings held (for tests and diagnostics). */
  get size(): number {
    return this.strings.size;
  }
}
