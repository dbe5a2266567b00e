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
 * - **Bounded**: answers no slot shows are dropped, least recently used first, once they hold more
 *   findings than the limit.
 */
import { PlatformError } from '../api/errors';
import { raceAbort } from './abort';
import { Emitter, type Disposable } from '../events';
import type { RefSpelling } from '../model/refs';
import type { Finding, FindingFilters, IssueType } from '../model/types';
import { applyPatch, undoPatch, type ActivePatch, type FindingChange } from './finding-patches';
import { DEFAULT_FINDINGS_PAGE_SIZE } from '../api/client';
import { FindingsFetcher } from './findings-fetcher';
import { FindingIndex, indexKey } from './finding-index';
import type { PlatformApi } from './platform-api';
import { KindAvailability, type Unavailable } from './kind-availability';

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
  /** The deployment does not have this kind: no findings, and not an error (`kind-availability.ts`). */
  readonly unavailable?: Unavailable;
  /** Code findings only: why the AI code findings are missing, or older than the rest. */
  readonly ai?: AiPart;
}

/**
 * The AI code findings come from a list of their own beside the code findings. When the
 * deployment lacks the AI analysis they are simply not there; when their list fails for a while,
 * the AI findings shown before stay (`since`: when they were loaded) and the code findings update.
 */
export type AiPart =
  | { readonly unavailable: Unavailable }
  | { readonly failedBecause: unknown; readonly since?: Date };

export type SlotState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly previous?: FindingsResult; readonly arrived?: number }
  | { readonly kind: 'loaded'; readonly result: FindingsResult }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Undoes a patch exactly (what a later load brought stays); `commit` keeps it until a newer load. */
export interface PatchHandle {
  rollback(): void;
  commit(): void;
}

export interface FindingsStoreOptions {
  /** Findings page size (100..3000). */
  readonly pageSize?: number;
  /** Findings that answers no view shows may hold before the least recently used are dropped. */
  readonly unshownLimit?: () => number;
  /** Told of a load that failed (the answer shown before stays, marked stale). */
  readonly onLoadFailed?: (query: FindingsQuery, error: unknown) => void;
  /** The signed-in deployment's id (the secrets list takes it instead of the slug). */
  readonly deploymentId?: (slug: string) => string | undefined;
  /** Told of a listener that threw, with the listener's name. */
  readonly onListenerError?: (name: string, error: unknown) => void;
}

export const DEFAULT_UNSHOWN_LIMIT = 200_000;

export const queryKey = (q: FindingsQuery): string => JSON.stringify([q.deploymentSlug, q.issueType, q.filters]);

/** "code findings of acme/api on main (status open)", for the log. */
export function describeQuery(q: FindingsQuery): string {
  const { repos, ref, ...rest } = q.filters;
  const filters = Object.entries(rest).filter(([k]) => k !== 'dedup').map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : String(v)}`);
  return `${q.issueType === 'sca' ? 'supply-chain' : q.issueType === 'secrets' ? 'secrets' : 'code'} findings of ${repos?.join(', ') ?? q.deploymentSlug}${ref ? ` on ${ref}` : ''}${filters.length > 0 ? ` (${filters.join('; ')})` : ''}`;
}

interface Flight {
  readonly controller: AbortController;
  readonly promise: Promise<FindingsResult>;
  /** The patch sequence when the load started: later patches are applied to its answer. */
  readonly startSeq: number;
}

interface Entry {
  readonly key: string;
  readonly query: FindingsQuery;
  result?: FindingsResult;
  error?: unknown;
  expired: boolean;
  flight?: Flight;
  /** Findings of the load in flight that have arrived so far (for "… so far" while loading). */
  arrived?: number;
  /** Findings patches took out of this answer, to put back if a later patch makes them match. */
  removed?: Map<number, { finding: Finding; position: number }>;
  lastUsed: number;
}

interface Binding {
  key: string;
  /** The query shown before, whose answer stays visible while the new one loads. */
  previousKey?: string;
}

export class FindingsStore implements Disposable {
  private readonly entries = new Map<string, Entry>();
  private readonly slots = new Map<string, Binding>();
  private readonly index = new FindingIndex();
  private readonly patches: ActivePatch[] = [];
  private patchSeq = 0;
  private clock = 0;
  private readonly changed: Emitter<readonly string[]>;
  /** Fires once per change with the slots whose state changed. */
  readonly onDidChange: Emitter<readonly string[]>['event'];

  private readonly fetcher: FindingsFetcher;
  /** Which kinds the signed-in deployment has, as its latest answers said. */
  readonly availability = new KindAvailability();

  constructor(api: () => PlatformApi, private readonly options: FindingsStoreOptions = {}) {
    this.fetcher = new FindingsFetcher(api, options.pageSize ?? DEFAULT_FINDINGS_PAGE_SIZE, options.deploymentId, this.availability);
    this.changed = new Emitter<readonly string[]>(options.onListenerError);
    this.onDidChange = this.changed.event;
  }

  state(slot: string): SlotState {
    const binding = this.slots.get(slot);
    const entry = binding && this.entries.get(binding.key);
    if (!binding || !entry) return { kind: 'idle' };
    const previous = this.entries.get(binding.previousKey ?? '')?.result;
    if (entry.flight) return { kind: 'loading', previous: entry.result ?? previous, ...(entry.arrived ? { arrived: entry.arrived } : {}) };
    if (entry.result) return { kind: 'loaded', result: entry.result };
    if (entry.error !== undefined) return { kind: 'failed', error: entry.error };
    // The new query's load was cancelled before it answered: what the slot showed before stays.
    return previous ? { kind: 'loaded', result: previous } : { kind: 'idle' };
  }

  /** The answer a slot shows if it was loaded with exactly this query and is fresh. */
  cached(slot: string, query: FindingsQuery): FindingsResult | undefined {
    const binding = this.slots.get(slot);
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
    for (const [slot, binding] of this.slots) {
      const entry = this.entries.get(binding.key);
      if (slot.startsWith(prefix) && entry) entry.expired = true;
    }
  }

  /**
   * Shows `query` in `slot` and loads it unless a fresh answer is held (`force` refetches). A
   * load of the same query in flight is shared. The caller's `signal` stops waiting; the request
   * itself is aborted only when no slot shows its query any more.
   */
  async load(slot: string, query: FindingsQuery, options: { force?: boolean; signal?: AbortSignal } = {}): Promise<FindingsResult> {
    const key = queryKey(query);
    this.bind(slot, key);
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
    const patch: ActivePatch = {
      seq: ++this.patchSeq, indexKey: indexKey(deploymentSlug, issueType), ids: new Set(ids), change,
      findings: new Map(), results: new Map(), committed: false,
    };
    this.patches.push(patch);
    const touched = this.applyPatch(patch, [...this.entries.values()]);
    this.fire(touched);
    return {
      rollback: () => this.rollback(patch),
      commit: () => {
        patch.committed = true;
        this.dropSeenPatches();
      },
    };
  }

  /** Findings of a result by file path, built once per result object. */
  byFile(result: FindingsResult): ReadonlyMap<string, readonly Finding[]> {
    let map = byFileCache.get(result);
    if (!map) {
      const built = new Map<string, Finding[]>();
      for (const f of result.findings) {
        const path = f.sca?.usage?.filePath ?? f.location?.filePath;
        if (path === undefined) continue;
        let list = built.get(path);
        if (!list) built.set(path, (list = []));
        list.push(f);
      }
      byFileCache.set(result, (map = built));
    }
    return map;
  }

  /** The answers the slots show now (for a snapshot of what is on screen). */
  shownResults(): FindingsResult[] {
    const keys = new Set([...this.slots.values()].map((b) => b.key));
    return [...keys].map((k) => this.entries.get(k)?.result).filter((r): r is FindingsResult => r !== undefined);
  }

  /** The answer held for a query, fresh or not (an adopted snapshot's, before its reload). */
  peek(query: FindingsQuery): FindingsResult | undefined {
    return this.entries.get(queryKey(query))?.result;
  }

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
    const binding = this.slots.get(slot);
    if (!binding) return;
    this.slots.delete(slot);
    this.abortIfUnshown(binding.key);
    this.evict();
  }

  /** Aborts the slot's request (the user cancelled a long load) unless another slot waits for it. */
  cancel(slot: string): boolean {
    const binding = this.slots.get(slot);
    const entry = binding && this.entries.get(binding.key);
    if (!entry?.flight) return false;
    if (!this.shownElsewhere(entry.key, slot)) {
      entry.flight.controller.abort();
      entry.flight = undefined;
    }
    this.fire([entry.key]);
    return true;
  }

  /** Forgets everything (sign-out, deployment change) and aborts what is in flight. */
  clear(): void {
    for (const entry of this.entries.values()) entry.flight?.controller.abort();
    const slots = [...this.slots.keys()];
    this.entries.clear();
    this.slots.clear();
    this.index.clear();
    this.fetcher.forget();
    this.availability.clear();
    this.patches.length = 0;
    if (slots.length > 0) this.changed.fire(slots);
  }

  /** The branch spelling learnt for a deployment, if any answer taught one. */
  refSpelling(deploymentSlug: string): RefSpelling | undefined {
    return this.fetcher.refSpelling(deploymentSlug);
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

  private bind(slot: string, key: string): void {
    const binding = this.slots.get(slot);
    if (binding?.key === key) return;
    this.slots.set(slot, { key, previousKey: binding?.key });
    if (binding) this.abortIfUnshown(binding.key);
  }

  private shownElsewhere(key: string, exceptSlot?: string): boolean {
    for (const [slot, binding] of this.slots) if (slot !== exceptSlot && binding.key === key) return true;
    return false;
  }

  private abortIfUnshown(key: string): void {
    const entry = this.entries.get(key);
    if (entry?.flight && !this.shownElsewhere(key)) {
      entry.flight.controller.abort();
      entry.flight = undefined;
    }
  }

  private slotsOf(keys: Iterable<string>): string[] {
    const wanted = new Set(keys);
    return [...this.slots].filter(([, b]) => wanted.has(b.key) || (b.previousKey !== undefined && wanted.has(b.previousKey))).map(([slot]) => slot);
  }

  /** One change event for the slots that show (or showed, while loading) these answers. */
  private fire(keys: readonly string[]): void {
    const slots = this.slotsOf(keys);
    if (slots.length > 0) this.changed.fire(slots);
  }

  /** Once a slot's new query answered (or failed), the answer shown before it is no longer needed. */
  private forgetPrevious(key: string): void {
    for (const binding of this.slots.values()) if (binding.key === key) binding.previousKey = undefined;
  }

  private start(entry: Entry): Flight {
    const controller = new AbortController();
    const startSeq = this.patchSeq;
    entry.arrived = undefined;
    const onProgress = (arrived: number): void => {
      if (entry.flight?.controller !== controller) return;
      entry.arrived = arrived;
      this.fire([entry.key]);
    };
    const reuse = this.index.reuser(indexKey(entry.query.deploymentSlug, entry.query.issueType));
    const promise = this.fetcher.fetch(entry.query, controller.signal, onProgress, reuse).then(
      (result) => {
        if (entry.flight?.promise !== promise || this.entries.get(entry.key) !== entry) return result; // superseded
        entry.flight = undefined;
        entry.expired = false;
        entry.error = undefined;
        entry.result = this.canonical(keepEarlierAi(result, entry.result));
        entry.removed = undefined;
        const unseen = this.patches.filter((p) => p.seq > startSeq);
        for (const patch of unseen) this.applyPatch(patch, [entry]);
        this.dropSeenPatches();
        this.fire([entry.key]);
        this.forgetPrevious(entry.key);
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
          this.forgetPrevious(entry.key);
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
    if (replaced) this.replaceEverywhere(replaced, result.query);
    return { ...result, findings };
  }

  /** Swaps outdated finding objects for their replacements in every held answer. */
  private replaceEverywhere(replaced: ReadonlyMap<Finding, Finding>, except: FindingsQuery): void {
    const touched: string[] = [];
    for (const entry of this.entries.values()) {
      const result = entry.result;
      if (!result || entry.query === except || !result.findings.some((f) => replaced.has(f))) continue;
      entry.result = { ...result, findings: result.findings.map((f) => replaced.get(f) ?? f) };
      touched.push(entry.key);
    }
    this.fire(touched);
  }

  private applyPatch(patch: ActivePatch, entries: readonly Entry[]): string[] {
    const targets = entries.filter((e) => indexKey(e.query.deploymentSlug, e.query.issueType) === patch.indexKey);
    return applyPatch(patch, targets, this.index.ids(patch.indexKey));
  }

  private rollback(patch: ActivePatch): void {
    const at = this.patches.indexOf(patch);
    if (at < 0) return;
    this.patches.splice(at, 1);
    this.fire(undoPatch(patch, this.entries, this.index.ids(patch.indexKey)));
  }

  /** A committed patch is dropped once no load that started before it is still on its way. */
  private dropSeenPatches(): void {
    const oldestFlight = Math.min(...[...this.entries.values()].map((e) => e.flight?.startSeq ?? Infinity));
    for (let i = this.patches.length - 1; i >= 0; i--) {
      const patch = this.patches[i];
      if (patch.committed && patch.seq <= oldestFlight) this.patches.splice(i, 1);
    }
  }

  /** Drops answers no slot shows, least recently used first, while they hold more than the limit. */
  private evict(): void {
    const limit = this.options.unshownLimit?.() ?? DEFAULT_UNSHOWN_LIMIT;
    const shown = new Set<string>();
    for (const b of this.slots.values()) {
      shown.add(b.key);
      if (b.previousKey !== undefined) shown.add(b.previousKey);
    }
    const unshown = [...this.entries.values()].filter((e) => !shown.has(e.key) && !e.flight).sort((a, b) => a.lastUsed - b.lastUsed);
    // Queries no view shows that hold no answer (cancelled, failed) are worth nothing: dropped.
    for (const entry of unshown) if (!entry.result) this.entries.delete(entry.key);
    let held = unshown.reduce((n, e) => n + (e.result?.findings.length ?? 0), 0);
    let evicted = false;
    for (const entry of unshown) {
      if (held <= limit) break;
      held -= entry.result?.findings.length ?? 0;
      this.entries.delete(entry.key);
      evicted = true;
    }
    if (evicted) {
      this.index.rebuild([...this.entries.values()].map((e) => ({ key: indexKey(e.query.deploymentSlug, e.query.issueType), findings: e.result?.findings ?? [] })));
    }
  }
}

/**
 * When only the AI list failed, the AI findings shown before stay beside the new code findings
 * (marked with when they were loaded), as a failed kind keeps what it showed.
 */
function keepEarlierAi(result: FindingsResult, earlier: FindingsResult | undefined): FindingsResult {
  const part = result.ai;
  if (!part || !('failedBecause' in part) || !earlier) return result;
  const earlierAi = earlier.findings.filter((f) => f.ai !== undefined);
  if (earlierAi.length === 0) return result;
  const since = earlier.ai && 'since' in earlier.ai && earlier.ai.since ? earlier.ai.since : earlier.loadedAt;
  return { ...result, findings: [...result.findings, ...earlierAi], ai: { failedBecause: part.failedBecause, since } };
}

const byFileCache = new WeakMap<FindingsResult, Map<string, Finding[]>>();
