/**
 * The one place that holds loaded findings; the tree, Problems and the status bar read it.
 *
 * - **Queries, not views, own answers.** A view shows a query in a *slot* (`tree:<project>:sast`,
 *   `problems:<folder>:sca`); equal queries share one load and one result, so the tree and
 *   Problems showing the same branch cost one set of requests.
 * - **One object per finding.** Findings are indexed by id per deployment and issue type; a finding
 *   that another answer already holds, unchanged, is shared rather than kept twice, and a changed
 *   one replaces the old object in every answer.
 * - **Patches** change findings locally (one change event) and undo exactly; a load that started
 *   before a patch gets the patch applied on landing, a load that started after it wins.
 * - **Loads** coalesce, a newer query for a slot supersedes the older one (aborted when no other
 *   slot shows it), an older answer never lands over a newer one, and a failed load keeps what was
 *   shown, marked stale. (How one query is fetched: `findings-fetcher.ts`.)
 * - **Bounded**: answers no slot shows are dropped, least recently used first, past the limit.
 *
 * This class decides when; how is beside it: which slot shows what (`slot-bindings.ts`), what is
 * held per query and what to drop (`store-entries.ts`), patches on what it holds
 * (`store-patches.ts`) and in order (`finding-patches.ts`).
 */
import { DEFAULT_FINDINGS_PAGE_SIZE } from '../api/findings-requests';
import { Emitter, type Disposable } from '../events';
import { PlatformError } from '../model/errors';
import type { Finding, IssueType } from '../model/types';
import { raceAbort } from './abort';
import { FindingIndex, indexKey } from './finding-index';
import type { FindingChange, PatchHandle } from './finding-patches';
import { FindingsFetcher } from './findings-fetcher';
import { keepEarlierAi, queryKey, type FindingsQuery, type FindingsResult } from './findings-query';
import { KindAvailability } from './kind-availability';
import type { PlatformApi } from './platform-api';
import { DEFAULT_UNSHOWN_LIMIT, type FindingsStoreOptions } from './findings-store-options';
import { SlotBindings, slotState, type SlotState } from './slot-bindings';
import { arrivingResult, evictionOf, replaceFindings, type Entry, type Flight } from './store-entries';
import { StorePatches } from './store-patches';

export class FindingsStore implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly slots = new SlotBindings();
  private readonly index = new FindingIndex();
  private readonly patches = new StorePatches(this.entries, this.index, (keys) => this.fire(keys));
  private clock = 0;
  private readonly changed: Emitter<readonly string[]>;
  /** Fires once per change with the slots whose state changed. */
  readonly onDidChange: Emitter<readonly string[]>['event'];

  private readonly fetcher: FindingsFetcher;
  /** Which kinds the signed-in deployment has, as its latest answers said. */
  readonly availability = new KindAvailability();

  constructor(
    api: () => PlatformApi,
    private readonly options: FindingsStoreOptions = {},
  ) {
    this.fetcher = new FindingsFetcher(api, options.pageSize ?? DEFAULT_FINDINGS_PAGE_SIZE, options.deploymentId, this.availability, options.shapes);
    this.changed = new Emitter<readonly string[]>(options.onListenerError);
    this.onDidChange = this.changed.event;
  }

  state(slot: string): SlotState {
    const binding = this.slots.of(slot);
    return binding
      ? slotState(this.entries.get(binding.key), binding.previousKey === undefined ? undefined : this.entries.get(binding.previousKey))
      : { kind: 'idle' };
  }

  /** The answer a slot shows if it was loaded with exactly this query and is fresh. */
  cached(slot: string, query: FindingsQuery): FindingsResult | undefined {
    const binding = this.slots.of(slot);
    const key = queryKey(query);
    if (binding?.key !== key) return undefined;
    const entry = this.entries.get(key);
    return entry?.result && !entry.expired && entry.result.staleBecause === undefined ? entry.result : undefined;
  }

  /** Marks answers (all, or those of slots starting with `prefix`) for refetch, keeping them shown meanwhile. */
  expire(prefix = ''): void {
    if (prefix === '') {
      for (const entry of this.entries.values()) entry.expired = true;
      return;
    }
    for (const key of this.slots.keysWithPrefix(prefix)) {
      const entry = this.entries.get(key);
      if (entry) entry.expired = true;
    }
  }

  /**
   * Shows `query` in `slot` and loads it unless a fresh answer is held (`force` refetches). A
   * load of the same query in flight is shared. The caller's `signal` stops waiting; the request
   * itself is aborted only when no slot shows its query any more.
   */
  async load(slot: string, query: FindingsQuery, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<FindingsResult> {
    const key = queryKey(query);
    const replaced = this.slots.bind(slot, key);
    if (replaced !== undefined) this.abortIfUnshown(replaced);
    const entry = this.entryFor(key, query);
    entry.lastUsed = ++this.clock;
    if (entry.result && !entry.expired && entry.result.staleBecause === undefined && !options.force) return entry.result;
    const flight = entry.flight ?? this.start(entry);
    return options.signal ? raceAbort(flight.promise, options.signal) : flight.promise;
  }

  /** The finding with this id, as every view shows it; undefined when no loaded answer holds it. */
  finding(deploymentSlug: string, issueType: IssueType, id: number): Finding | undefined {
    return this.index.get(deploymentSlug, issueType, id);
  }

  /**
   * Changes the loaded findings with these ids at once, everywhere they are shown: one change
   * event. Answers whose query's filters the patched finding no longer meets lose it (a finding
   * triaged to ignored leaves an "open" view without a request).
   */
  patch(deploymentSlug: string, issueType: IssueType, ids: readonly number[], change: FindingChange): PatchHandle {
    return this.patches.patch(deploymentSlug, issueType, ids, change);
  }

  /** The answers the slots show now (for a snapshot of what is on screen). */
  shownResults(): FindingsResult[] {
    return [...this.slots.shownKeys()].map((k) => this.entries.get(k)?.result).filter((r): r is FindingsResult => r !== undefined);
  }

  /** The answer held for a query, fresh or not (an adopted snapshot's, before its reload). */
  peek(query: FindingsQuery): FindingsResult | undefined {
    return this.entries.get(queryKey(query))?.result;
  }

  /** What the pages of the query's first load brought so far, while it has no answer of its own. */
  arriving = (query: FindingsQuery): FindingsResult | undefined => arrivingResult(this.entries.get(queryKey(query)));

  /**
   * Puts answers read from a snapshot in place as expired (shown at once, fetched again on the
   * next load). A query already loading with nothing to show yet takes it as what it shows
   * meanwhile: its answer replaces it when it comes.
   */
  adopt(results: readonly FindingsResult[]): void {
    for (const result of results) {
      const entry = this.entryFor(queryKey(result.query), result.query);
      if (entry.result) continue;
      entry.result = this.canonical(result);
      entry.expired = true;
      entry.lastUsed = ++this.clock;
    }
  }

  /** Stops showing a slot: its answer may then be dropped to stay within the limit. */
  release(slot: string): void {
    const key = this.slots.release(slot);
    if (key === undefined) return;
    this.abortIfUnshown(key);
    this.evict();
  }

  /** Aborts the slot's request (the user cancelled a long load) unless another slot waits for it. */
  cancel(slot: string): boolean {
    const key = this.slots.of(slot)?.key;
    if (key === undefined || !this.entries.get(key)?.flight) return false;
    this.abortIfUnshown(key, slot);
    this.fire([key]);
    return true;
  }

  /** Forgets everything (sign-out, deployment change) and aborts what is in flight. */
  clear(): void {
    for (const entry of this.entries.values()) entry.flight?.controller.abort();
    const slots = this.slots.slots();
    this.entries.clear();
    this.slots.clear();
    this.index.clear();
    this.fetcher.forget();
    this.availability.clear();
    this.patches.clear();
    if (slots.length > 0) this.changed.fire(slots);
  }

  /** How many findings the store holds (distinct objects), for the benchmark and tests. */
  get size(): number {
    return this.index.size;
  }

  dispose(): void {
    this.clear();
    this.changed.dispose();
    this.availability.dispose();
  }

  private entryFor(key: string, query: FindingsQuery): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { key, query, expired: false, lastUsed: 0 }));
    return entry;
  }

  /** Aborts the query's load unless a slot (but `exceptSlot`) still shows it. */
  private abortIfUnshown(key: string, exceptSlot?: string): void {
    const entry = this.entries.get(key);
    if (entry?.flight && !this.slots.shows(key, exceptSlot)) {
      entry.flight.controller.abort();
      entry.flight = undefined;
    }
  }

  /** One change event for the slots that show (or showed, while loading) these answers. */
  private fire(keys: readonly string[]): void {
    const slots = this.slots.slotsShowing(keys);
    if (slots.length > 0) this.changed.fire(slots);
  }

  private start(entry: Entry): Flight {
    const controller = new AbortController();
    const startSeq = this.patches.latest;
    const onProgress = (soFar: readonly Finding[]): void => {
      if (entry.flight?.controller !== controller) return;
      entry.flight.soFar = soFar;
      this.fire([entry.key]);
    };
    const reuse = this.index.reuser(indexKey(entry.query.deploymentSlug, entry.query.issueType));
    // The entry keeps what its pages made: a page sent again as it was is given back unparsed.
    const promise = this.fetcher.fetch(entry.query, controller.signal, onProgress, reuse, entry).then(
      (result) => {
        if (entry.flight?.promise !== promise || this.entries.get(entry.key) !== entry) return result; // superseded
        entry.flight = undefined;
        entry.expired = false;
        entry.error = undefined;
        entry.result = this.canonical(keepEarlierAi(result, entry.result));
        entry.removed = undefined;
        this.patches.landed(entry, startSeq);
        this.fire([entry.key]);
        this.slots.forgetPrevious(entry.key);
        this.evict();
        return entry.result;
      },
      (error: unknown) => {
        if (entry.flight?.promise === promise) {
          entry.flight = undefined;
          if (!PlatformError.is(error, 'cancelled')) this.options.onLoadFailed?.(entry.query, error);
          if (entry.result) entry.result = { ...entry.result, staleBecause: error };
          else entry.error = error;
          this.fire([entry.key]);
          this.slots.forgetPrevious(entry.key);
        }
        throw error;
      },
    );
    // Nobody may be awaiting a superseded flight; keep its rejection from going unhandled.
    promise.catch(() => undefined);
    const flight = { controller, promise, startSeq };
    entry.flight = flight;
    this.fire([entry.key]);
    return flight;
  }

  /**
   * Puts a fresh answer's findings in the index: one unchanged from what another answer holds
   * shares that object; a changed one replaces it in every answer that holds it.
   */
  private canonical(result: FindingsResult): FindingsResult {
    const { findings, replaced } = this.index.admit(indexKey(result.query.deploymentSlug, result.query.issueType), result.findings);
    if (replaced) this.fire(replaceFindings(this.entries.values(), replaced, result.query));
    return { ...result, findings };
  }

  /** Drops answers no slot shows, least recently used first, while they hold more than the limit. */
  private evict(): void {
    const { drop, rebuildIndex } = evictionOf(this.entries.values(), this.slots.keptKeys(), this.options.unshownLimit?.() ?? DEFAULT_UNSHOWN_LIMIT);
    for (const key of drop) this.entries.delete(key);
    if (rebuildIndex) {
      this.index.rebuild(
        [...this.entries.values()].map((e) => ({ key: indexKey(e.query.deploymentSlug, e.query.issueType), findings: e.result?.findings ?? [] })),
      );
    }
  }
}
