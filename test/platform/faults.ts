/**
 * Injected faults: what an unreliable network, proxy or overloaded service does to a request.
 * The server asks the controller for a fault after recording a request and before auth and
 * normal handling (see server.ts); respond.ts carries the fault out.
 */
import { Rng } from './prng';

export type Fault =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'delay'; ms: number }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'truncate' }
  | { kind: 'html200' }
  | { kind: 'wrongContentType' }
  | { kind: 'hugeBody'; bytes: number }
  | { kind: 'redirect'; status?: 301 | 302 | 307 | 308; location: string };

/** Which requests a fault applies to. `pathIncludes` is tested against the raw URL, query included. */
export interface FaultMatch {
  method?: string;
  pathIncludes?: string;
}

export interface FaultController {
  /** Apply `fault` to the next `times` (default 1) requests matching `match`, in FIFO order. */
  inject(fault: Fault, match?: FaultMatch, times?: number): void;
  /** Apply a random fault from `kinds` to a `rate` (0..1) fraction of requests, deterministic by seed. */
  setRandom(opts: { rate: number; kinds: Fault[]; seed?: number } | undefined): void;
  /** Drops pending injected faults and random faults (the `applied` count is kept). */
  clear(): void;
  /** How many faults were applied so far. */
  readonly applied: number;
}

interface PendingFault {
  fault: Fault;
  match: FaultMatch;
  remaining: number;
}

export class Faults implements FaultController {
  private pending: PendingFault[] = [];
  private random: { rate: number; kinds: Fault[]; rng: Rng } | undefined;
  private appliedCount = 0;

  get applied(): number {
    return this.appliedCount;
  }

  inject(fault: Fault, match: FaultMatch = {}, times = 1): void {
    if (!Number.isInteger(times) || times < 1) throw new Error(`times must be a positive integer, got ${times}`);
    this.pending.push({ fault, match, remaining: times });
  }

  setRandom(opts: { rate: number; kinds: Fault[]; seed?: number } | undefined): void {
    if (opts && (opts.rate < 0 || opts.rate > 1)) throw new Error(`rate must be within 0..1, got ${opts.rate}`);
    this.random = opts && opts.kinds.length > 0 ? { rate: opts.rate, kinds: [...opts.kinds], rng: new Rng(opts.seed ?? 1) } : undefined;
  }

  clear(): void {
    this.pending = [];
    this.random = undefined;
  }

  /** The fault for this request, if any; counts it as applied. Injected faults go before random ones. */
  take(method: string, rawUrl: string): Fault | undefined {
    const at = this.pending.findIndex((p) => matches(p.match, method, rawUrl));
    if (at >= 0) {
      const entry = this.pending[at];
      entry.remaining -= 1;
      if (entry.remaining === 0) this.pending.splice(at, 1);
      this.appliedCount += 1;
      return entry.fault;
    }
    if (this.random) {
      // Two draws per request whatever the outcome, so a seed gives the same sequence every run.
      const roll = this.random.rng.next();
      const kind = this.random.rng.pick(this.random.kinds);
      if (roll < this.random.rate) {
        this.appliedCount += 1;
        return kind;
      }
    }
    return undefined;
  }
}

function matches(match: FaultMatch, method: string, rawUrl: string): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (match.pathIncludes !== undefined && !rawUrl.includes(match.pathIncludes)) return false;
  return true;
}
