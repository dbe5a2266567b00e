/** Timing, medians and a forced garbage collection for the benchmark. */
import { performance, PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Timing {
  readonly ms: number;
  /** Process CPU (user + system) in the same span: shows work that waiting on the server hides. */
  readonly cpuMs: number;
  /**
   * Time in young-generation collections (scavenges) in the same span. A scavenge copies what
   * is still reachable when it runs, so this shows what a sync keeps alive longer than it needs.
   */
  readonly scavengeMs: number;
}

/** How gc was made available: `--expose-gc`, or switched on at run time when the flag is missing. */
export const gcSource: 'flag' | 'runtime' = typeof gc === 'function' ? 'flag' : 'runtime';

const collect: () => void = typeof gc === 'function' ? fromFlag(gc) : exposeGc();

/**
 * The flag's gc, called without arguments: that is a full collection. With an options object
 * (even `{ execution: 'sync' }`) Node 20's V8 does only a minor one, and the heap figures go wrong.
 */
function fromFlag(flagGc: NodeJS.GCFunction): () => void {
  return () => flagGc();
}

function exposeGc(): () => void {
  // V8 honours the flag for contexts made after it is set; a fresh vm context then sees `gc`.
  setFlagsFromString('--expose-gc');
  const fn: unknown = runInNewContext('gc');
  if (typeof fn !== 'function') throw new Error('cannot force garbage collection: run node with --expose-gc');
  return fn as () => void;
}

/** Two full collections: the second frees what finalizers and weak references let go in the first. */
export function forceGc(): void {
  collect();
  collect();
}

async function time(run: () => Promise<void>): Promise<Timing> {
  let scavengeMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) scavengeMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  // Entries are delivered after the collection, on a later turn.
  await new Promise((resolve) => setTimeout(resolve, 20));
  observer.disconnect();
  return { ms, cpuMs: (used.user + used.system) / 1000, scavengeMs };
}

/**
 * Each task once untimed (warm-up: JIT, connections), then `rounds` rounds running every task
 * once, each after a forced gc so no run pays for the garbage of the one before. Tasks take
 * turns within a round, so a drift of the machine's speed hits them alike. A task checks its
 * own result and keeps none of it. Returns the timings per task.
 */
export async function timeRounds(rounds: number, tasks: readonly (() => Promise<void>)[]): Promise<Timing[][]> {
  for (const task of tasks) await task();
  const timings = tasks.map((): Timing[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, task] of tasks.entries()) {
      forceGc();
      timings[i].push(await time(task));
    }
  }
  return timings;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
