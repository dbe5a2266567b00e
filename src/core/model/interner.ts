import type { Finding, TicketLink } from './types';

type FindingPolicy = NonNullable<Finding['policy']>;

/**
 * Keeps one copy of each repeated string. JSON.parse makes a fresh string for every occurrence,
 * so 100 000 findings of a few dozen rules would otherwise hold 100 000 copies of each rule's
 * name and message. One interner lives for one sync and is dropped with it.
 *
 * Small immutable values that repeat as a whole are shared the same way: a finding's policy
 * through {@link StringInterner.policy}, its ticket through {@link StringInterner.ticket}, its
 * list of fix versions through {@link StringInterner.shared}.
 */
export class StringInterner {
  private readonly strings = new Map<string, string>();
  private readonly values = new Map<string, unknown>();
  /** The policies seen under each id (nearly always one). */
  private readonly policies = new Map<number, Readonly<FindingPolicy>[]>();
  /** The tickets seen under each id (nearly always one). */
  private readonly tickets = new Map<number, Readonly<TicketLink>[]>();

  intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) {
      return known;
    }
    this.strings.set(value, value);
    return value;
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

  /**
   * One frozen policy object per distinct id, name and slug. Thousands of findings name the same
   * few policies, so the usual case is one lookup by id and two short comparisons; no key string
   * is built, so no two different policies can ever be taken for one another.
   */
  policy(id: number, name: string, slug: string): Readonly<FindingPolicy> {
    let known = this.policies.get(id);
    if (known === undefined) {
      known = [];
      this.policies.set(id, known);
    }
    for (const policy of known) {
      if (policy.name === name && policy.slug === slug) {
        return policy;
      }
    }
    // Another name under a known id only when a policy is renamed during a sync: a short list.
    const policy = Object.freeze({ id, name: this.intern(name), slug: this.intern(slug) });
    known.push(policy);
    return policy;
  }

  /**
   * One frozen ticket per distinct id, key and link: the findings a grouped ticket tracks share it,
   * the object and its link's text. A ticket without an id shares its strings only.
   */
  ticket(id: number | undefined, slug: string | undefined, url: string | undefined): Readonly<TicketLink> {
    if (id === undefined) return Object.freeze({ slug: this.internOptional(slug), url: this.internOptional(url) });
    let known = this.tickets.get(id);
    if (known === undefined) {
      known = [];
      this.tickets.set(id, known);
    }
    // Compared as text, so a ticket seen before costs no lookup of its strings.
    for (const ticket of known) {
      if (ticket.slug === slug && ticket.url === url) return ticket;
    }
    const ticket = Object.freeze({ id, slug: this.internOptional(slug), url: this.internOptional(url) });
    known.push(ticket);
    return ticket;
  }

  private internOptional(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.intern(value);
  }

  /** Distinct strings held (for tests and diagnostics). */
  get size(): number {
    return this.strings.size;
  }
}
