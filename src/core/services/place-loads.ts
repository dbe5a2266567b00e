/**
 * What the Projects tree's places have asked of their findings slots, and when to ask again.
 * The rules keep the view honest without ever looping:
 * - a slot is loaded when shown and the service has no fresh answer for the current query
 *   (never loaded, filters changed, or expired by a refresh);
 * - a failure stays shown until Retry or the next `refresh()` (a new epoch), so a failing load
 *   and the redraw it causes cannot start each other again;
 * - a cancelled load stays cancelled until Load Again or a forced epoch;
 * - a forced epoch (`nextEpoch({ force: true })`) refetches even fresh answers.
 */
import type { FindingsStore } from './findings-store';
import { queryKey, type FindingsQuery, type FindingsResult } from './findings-query';

/** What a place knows of its slot, for its current query only. */
export interface SlotView {
  /** A load for the current query is in flight. */
  readonly loading: boolean;
  /** The user stopped waiting for that load. */
  readonly cancelled: boolean;
  /** Findings of the load in flight that have arrived so far. */
  readonly arrived?: number;
  /** The answer for the current query; `staleBecause` set when a later refresh failed. */
  readonly result?: FindingsResult;
  /** Why the current query has no answer. */
  readonly error?: unknown;
}

type Outcome = 'pending' | 'done' | 'failed' | 'cancelled';

interface SlotLoad {
  readonly key: string;
  readonly epoch: number;
  readonly forceEpoch: number;
  readonly controller: AbortController;
  outcome: Outcome;
  done: Promise<void>;
}

export interface PlaceLoadsDeps {
  readonly findings: Pick<FindingsStore, 'load' | 'state' | 'cached' | 'cancel'>;
  /** Told of each load started, e.g. to show progress; `done` never rejects. */
  onLoadStarted?(slot: string, done: Promise<void>): void;
}

export class PlaceLoads {
  private readonly loads = new Map<string, SlotLoad>();
  private epoch = 0;
  private forceEpoch = 0;

  constructor(private readonly deps: PlaceLoadsDeps) {}

  /** A new epoch: failed slots may be tried again; with `force`, fresh and cancelled ones too. */
  nextEpoch(options: { force: boolean }): void {
    this.epoch++;
    if (options.force) this.forceEpoch++;
  }

  /** Starts a load for a shown slot when the rules above say so. */
  ensure(slot: string, query: FindingsQuery): void {
    const key = queryKey(query);
    const load = this.loads.get(slot);
    const sameKey = load?.key === key;
    const forced = sameKey && load.forceEpoch !== this.forceEpoch;
    if (sameKey && !forced) {
      if (load.outcome === 'pending' || load.outcome === 'cancelled') return;
      if (load.outcome === 'failed' && load.epoch === this.epoch && this.showsFailure(slot)) return;
    }
    if (!forced && this.deps.findings.cached(slot, query)) return;
    this.start(slot, query, forced);
  }

  /** Loads a slot now (Retry, Load Again); `force` skips the cache. */
  start(slot: string, query: FindingsQuery, force: boolean): void {
    this.loads.get(slot)?.controller.abort();
    const controller = new AbortController();
    const load: SlotLoad = { key: queryKey(query), epoch: this.epoch, forceEpoch: this.forceEpoch, controller, outcome: 'pending', done: Promise.resolve() };
    // Recorded before `load()`, which fires a change (and so a redraw) before it returns.
    this.loads.set(slot, load);
    load.done = this.deps.findings.load(slot, query, { force, signal: controller.signal }).then(
      () => {
        load.outcome = 'done';
      },
      () => {
        // The failure itself is kept in the slot's state, which the tree shows.
        if (load.outcome !== 'cancelled') load.outcome = 'failed';
      },
    );
    this.deps.onLoadStarted?.(slot, load.done);
  }

  /** Cancels a slot's pending load, aborting its request; true when one was pending. */
  cancel(slot: string): boolean {
    const load = this.loads.get(slot);
    if (load?.outcome !== 'pending') return false;
    load.outcome = 'cancelled';
    load.controller.abort();
    this.deps.findings.cancel(slot);
    return true;
  }

  /** Cancels every pending load; returns the slots it cancelled. */
  cancelAll(): string[] {
    return [...this.loads.keys()].filter((slot) => this.cancel(slot));
  }

  /** The slot's state as it concerns the current query only. */
  view(slot: string, query: FindingsQuery): SlotView {
    const key = queryKey(query);
    const load = this.loads.get(slot);
    const asked = load?.key === key;
    const cancelled = asked && load.outcome === 'cancelled';
    const matching = (result: FindingsResult | undefined): FindingsResult | undefined => (result && queryKey(result.query) === key ? result : undefined);
    const state = this.deps.findings.state(slot);
    switch (state.kind) {
      case 'idle':
        return { loading: false, cancelled };
      case 'loading':
        return { loading: true, cancelled, result: matching(state.previous), ...(asked && state.arrived ? { arrived: state.arrived } : {}) };
      case 'failed':
        // A failure of a query this tree did not ask for is not this query's: it is about to be asked.
        return asked ? { loading: false, cancelled, error: state.error } : { loading: false, cancelled };
      case 'loaded': {
        const result = matching(state.result);
        // An answer for other filters, marked stale: the load for these filters is what failed.
        if (!result && asked && state.result.staleBecause !== undefined) return { loading: false, cancelled, error: state.result.staleBecause };
        return { loading: false, cancelled, result };
      }
    }
  }

  /** Waits for the slot's pending load, if any; true when it waited. */
  async settle(slot: string): Promise<boolean> {
    const load = this.loads.get(slot);
    if (load?.outcome !== 'pending') return false;
    await load.done;
    return true;
  }

  private showsFailure(slot: string): boolean {
    const state = this.deps.findings.state(slot);
    return state.kind === 'failed' || (state.kind === 'loaded' && state.result.staleBecause !== undefined);
  }

  dispose(): void {
    for (const load of this.loads.values()) load.controller.abort();
    this.loads.clear();
  }
}
