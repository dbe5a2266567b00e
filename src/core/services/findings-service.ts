/**
 * Loads findings for one slot (project × issue type × ref) and keeps the last good answer.
 * - Same query already in flight: callers share it (overlapping refreshes coalesce).
 * - A newer query for a slot supersedes and aborts the older one; an older answer that still
 *   arrives is dropped, never shown over the newer one.
 * - A failed load keeps what was shown before, marked stale with the error; it never replaces
 *   it with a partial result (pages are collected first and swapped in whole).
 * - A branch is asked for in the spelling the deployment's findings use (`main` or
 *   `refs/heads/main`): while that is not known, an empty answer is asked again in the other
 *   spelling, and the one that answered is remembered per deployment.
 */
import { cancelledError } from '../api/errors';
import { Emitter, type Disposable } from '../events';
import { StringInterner } from '../model/interner';
import { spellRef, spellingOf, type RefSpelling } from '../model/refs';
import type { Finding, FindingFilters, IssueType } from '../model/types';
import type { PlatformApi } from './platform-api';

export interface FindingsQuery {
  readonly deploymentSlug: string;
  readonly issueType: IssueType;
  readonly filters: FindingFilters;
}

export interface FindingsResult {
  readonly query: FindingsQuery;
  readonly findings: readonly Finding[];
  /** Malformed findings the decoder skipped (logged by the caller). */
  readonly skipped: number;
  readonly loadedAt: Date;
  /** Set when a later load failed: these findings are what was shown before. */
  readonly staleBecause?: unknown;
}

export type SlotState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly previous?: FindingsResult }
  | { readonly kind: 'loaded'; readonly result: FindingsResult }
  | { readonly kind: 'failed'; readonly error: unknown };

interface InFlight {
  readonly key: string;
  readonly controller: AbortController;
  readonly promise: Promise<FindingsResult>;
}

export const queryKey = (q: FindingsQuery): string => JSON.stringify([q.deploymentSlug, q.issueType, q.filters]);

export class FindingsService implements Disposable {
  private readonly results = new Map<string, FindingsResult>();
  private readonly failures = new Map<string, unknown>();
  /** Slots whose answer is still shown but must be fetched again on the next load. */
  private readonly expired = new Set<string>();
  private readonly inFlight = new Map<string, InFlight>();
  /** Per deployment, the branch spelling its findings answered to (absent until one answered). */
  private readonly refSpellings = new Map<string, RefSpelling>();
  private readonly changed = new Emitter<string>();
  /** Fires with the slot whose state changed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly api: () => PlatformApi, private readonly pageSize = 1000) {}

  state(slot: string): SlotState {
    const result = this.results.get(slot);
    if (this.inFlight.has(slot)) return { kind: 'loading', previous: result };
    if (result) return { kind: 'loaded', result };
    const error = this.failures.get(slot);
    return error === undefined ? { kind: 'idle' } : { kind: 'failed', error };
  }

  /** The findings of a slot if it was loaded with exactly this query. */
  cached(slot: string, query: FindingsQuery): FindingsResult | undefined {
    const result = this.results.get(slot);
    return result && !this.expired.has(slot) && queryKey(result.query) === queryKey(query) && !result.staleBecause ? result : undefined;
  }

  /** Marks slots (all, or those starting with `prefix`) for refetch, keeping their findings shown meanwhile. */
  expire(prefix = ''): void {
    for (const slot of this.results.keys()) if (slot.startsWith(prefix)) this.expired.add(slot);
  }

  /**
   * Loads `query` into `slot`. `force` refetches even when the cached answer has this query.
   * The caller's `signal` stops waiting; the request itself is aborted only when superseded
   * or when the slot is cleared, since another caller may share it.
   */
  async load(slot: string, query: FindingsQuery, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<FindingsResult> {
    const key = queryKey(query);
    const cached = this.cached(slot, query);
    if (cached && !options.force) {
      // Back to a query whose answer is cached while another is loading: that load must not land over it.
      if (this.inFlight.has(slot) && this.inFlight.get(slot)?.key !== key) this.cancel(slot);
      return cached;
    }
    let flight = this.inFlight.get(slot);
    if (!flight || flight.key !== key) {
      flight?.controller.abort();
      flight = this.start(slot, key, query);
    }
    return options.signal ? raceAbort(flight.promise, options.signal) : flight.promise;
  }

  private start(slot: string, key: string, query: FindingsQuery): InFlight {
    const controller = new AbortController();
    const promise = this.fetchAll(query, controller.signal).then(
      (result) => {
        if (this.inFlight.get(slot)?.promise !== promise) return result; // superseded: drop it
        this.inFlight.delete(slot);
        this.expired.delete(slot);
        this.results.set(slot, result);
        this.failures.delete(slot);
        this.changed.fire(slot);
        return result;
      },
      (error: unknown) => {
        if (this.inFlight.get(slot)?.promise === promise) {
          this.inFlight.delete(slot);
          const previous = this.results.get(slot);
          if (previous) this.results.set(slot, { ...previous, staleBecause: error });
          else this.failures.set(slot, error);
          this.changed.fire(slot);
        }
        throw error;
      },
    );
    // Nobody may be awaiting a superseded flight; keep its rejection from going unhandled.
    promise.catch(() => undefined);
    const flight = { key, controller, promise };
    this.inFlight.set(slot, flight);
    this.changed.fire(slot);
    return flight;
  }

  private async fetchAll(query: FindingsQuery, signal: AbortSignal): Promise<FindingsResult> {
    const ref = query.filters.ref;
    if (ref === undefined || spellingOf(ref) === undefined) return this.fetchFiltered(query, query.filters, signal);
    const slug = query.deploymentSlug;
    const known = this.refSpellings.get(slug);
    const first = known ?? 'short';
    const result = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, first) }, signal);
    if (result.findings.length > 0 || result.skipped > 0) {
      this.refSpellings.set(slug, first);
      return result;
    }
    if (known) return result;
    const other: RefSpelling = first === 'short' ? 'full' : 'short';
    const retried = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, other) }, signal);
    if (retried.findings.length > 0 || retried.skipped > 0) this.refSpellings.set(slug, other);
    return retried;
  }

  /** Every page of one query, sent with `filters` (the query's own, or its ref spelled otherwise). */
  private async fetchFiltered(query: FindingsQuery, filters: FindingFilters, signal: AbortSignal): Promise<FindingsResult> {
    const interner = new StringInterner();
    const findings: Finding[] = [];
    let skipped = 0;
    const pages = this.api().findings(query.deploymentSlug, query.issueType, filters, { signal, pageSize: this.pageSize, interner });
    for await (const page of pages) {
      for (const finding of page.findings) findings.push(finding);
      skipped += page.skipped;
    }
    return { query, findings, skipped, loadedAt: new Date() };
  }

  /** The branch spelling learnt for a deployment, if any answer taught one (for the log and tests). */
  refSpelling(deploymentSlug: string): RefSpelling | undefined {
    return this.refSpellings.get(deploymentSlug);
  }

  /**
   * Aborts the slot's request in flight (the user cancelled a long load). What the slot showed
   * before stays, not marked stale: nothing failed.
   */
  cancel(slot: string): boolean {
    const flight = this.inFlight.get(slot);
    if (!flight) return false;
    this.inFlight.delete(slot);
    flight.controller.abort();
    this.changed.fire(slot);
    return true;
  }

  /** Forgets every slot (sign-out, deployment change) and aborts what is in flight. */
  clear(): void {
    for (const flight of this.inFlight.values()) flight.controller.abort();
    const slots = new Set([...this.results.keys(), ...this.failures.keys(), ...this.inFlight.keys()]);
    this.inFlight.clear();
    this.results.clear();
    this.failures.clear();
    this.expired.clear();
    this.refSpellings.clear();
    for (const slot of slots) this.changed.fire(slot);
  }

  dispose(): void {
    this.clear();
    this.changed.dispose();
  }
}

/** Resolves like `promise`, or rejects with a `cancelled` PlatformError as soon as `signal` aborts. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

