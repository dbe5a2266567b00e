/**
 * Which query each view slot of the findings store shows (named in `slot-ids.ts`: `tree:<project>:sast`,
 * `problems:<folder>:sca`), and the query it showed before while its new one loads. Several slots
 * may show one query; a query no slot shows is the store's to abort or drop.
 */
import type { FindingsResult } from './findings-query';
import type { Entry } from './store-entries';

/** What a slot shows, as views read it (`FindingsStore.state`). */
export type SlotState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly previous?: FindingsResult; readonly arrived?: number }
  | { readonly kind: 'loaded'; readonly result: FindingsResult }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The answer a slot shows: the one it loaded, or, while it loads, the one it showed before. */
export function shownResult(state: SlotState): FindingsResult | undefined {
  return state.kind === 'loaded' ? state.result : state.kind === 'loading' ? state.previous : undefined;
}

/** The state of a slot that shows the query of `entry`, having shown the one of `previous` before. */
export function slotState(entry: Entry | undefined, previous: Entry | undefined): SlotState {
  if (!entry) return { kind: 'idle' };
  const before = previous?.result;
  if (entry.flight) return { kind: 'loading', previous: entry.result ?? before, ...(entry.flight.soFar?.length ? { arrived: entry.flight.soFar.length } : {}) };
  if (entry.result) return { kind: 'loaded', result: entry.result };
  if (entry.error !== undefined) return { kind: 'failed', error: entry.error };
  // The new query's load was cancelled before it answered: what the slot showed before stays.
  return before ? { kind: 'loaded', result: before } : { kind: 'idle' };
}

interface Binding {
  readonly key: string;
  /** The query shown before, whose answer stays visible while the new one loads. */
  previousKey?: string;
}

export class SlotBindings {
  private readonly bindings = new Map<string, Binding>();

  /** The query the slot shows, and the one it showed before while that loads. */
  of(slot: string): Readonly<Binding> | undefined {
    return this.bindings.get(slot);
  }

  /** Shows the query `key` in `slot`; gives the query the slot showed until now, when it changed. */
  bind(slot: string, key: string): string | undefined {
    const before = this.bindings.get(slot);
    if (before?.key === key) return undefined;
    this.bindings.set(slot, { key, previousKey: before?.key });
    return before?.key;
  }

  /** Stops showing the slot; gives the query it showed. */
  release(slot: string): string | undefined {
    const binding = this.bindings.get(slot);
    this.bindings.delete(slot);
    return binding?.key;
  }

  /** Whether any slot but `exceptSlot` shows the query `key`. */
  shows(key: string, exceptSlot?: string): boolean {
    for (const [slot, binding] of this.bindings) if (slot !== exceptSlot && binding.key === key) return true;
    return false;
  }

  /** The slots that show these queries, or still show one of them while their new query loads. */
  slotsShowing(keys: Iterable<string>): string[] {
    const wanted = new Set(keys);
    return [...this.bindings].filter(([, b]) => wanted.has(b.key) || (b.previousKey !== undefined && wanted.has(b.previousKey))).map(([slot]) => slot);
  }

  /** The query `key` answered (or failed): the slots showing it no longer need the one before. */
  forgetPrevious(key: string): void {
    for (const binding of this.bindings.values()) if (binding.key === key) binding.previousKey = undefined;
  }

  /** The queries of the slots whose names start with `prefix`. */
  keysWithPrefix(prefix: string): string[] {
    return [...this.bindings].filter(([slot]) => slot.startsWith(prefix)).map(([, b]) => b.key);
  }

  /** The queries the slots show. */
  shownKeys(): Set<string> {
    return new Set([...this.bindings.values()].map((b) => b.key));
  }

  /** The queries shown, and those still on screen while a new one loads: none of them may be dropped. */
  keptKeys(): Set<string> {
    const kept = new Set<string>();
    for (const b of this.bindings.values()) {
      kept.add(b.key);
      if (b.previousKey !== undefined) kept.add(b.previousKey);
    }
    return kept;
  }

  slots(): string[] {
    return [...this.bindings.keys()];
  }

  clear(): void {
    this.bindings.clear();
  }
}
