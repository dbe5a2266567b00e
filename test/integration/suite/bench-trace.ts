// What the extension host was doing in its longest gaps, for bench:host's APPSEC_BENCH_TRACE_STARTS.
// A CPU profile changes the timing it measures (no start over 50 ms was caught in 20 profiled
// ones, against 7 of 15 unprofiled), so this records cheap marks instead: each turn our code or
// VS Code scheduled (with who asked for it), each message VS Code serialized for the window, each
// file read, each garbage collection, and the CPU the host used between 5 ms ticks.
import { PerformanceObserver } from 'node:perf_hooks';

interface Mark {
  readonly at: number;
  readonly what: string;
}

export interface TracedGap {
  readonly ms: number;
  /** CPU the host process used in it (all threads): well under `ms`, the host waited for a core. */
  readonly cpuMs: number;
  /** Milliseconds from the start of the traced work. */
  readonly from: number;
  /** What happened just before and during it, with times relative to its start. */
  readonly marks: readonly string[];
}

export interface Trace<T> {
  readonly result: T;
  readonly longestMs: number;
  /** The longest turn asked for with setImmediate (ours between slices), with what it resumed. */
  readonly longestTurnMs: number;
  readonly gapsOver: (ms: number) => TracedGap[];
  /** When the first file read whose path ends with `suffix` began, from the start of the work. */
  readonly readStartedMs: (suffix: string, exclude: readonly string[]) => number;
}

/** A `gc` performance entry's kind and flags in words (Node's NODE_PERFORMANCE_GC_* constants). */
export function gcKindOf(detail: { kind?: number; flags?: number } | undefined): string {
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' };
  const flagNames: [number, string][] = [
    [2, 'construct retained'],
    [4, 'forced'],
    [8, 'synchronous phantom processing'],
    [16, 'all available garbage'],
    [32, 'all external memory'],
    [64, 'idle'],
  ];
  const flags = flagNames.filter(([bit]) => ((detail?.flags ?? 0) & bit) !== 0).map(([, name]) => name);
  return `${kinds[detail?.kind ?? 0] ?? 'unknown'}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`;
}

/** A stack in one line: the frames after the caller's, file names only, at most `depth`. */
function oneLine(stack: string | undefined, depth: number): string {
  return (stack ?? '')
    .split('\n')
    .slice(2)
    .map((line) =>
      line
        .trim()
        .replace(/^at /, '')
        .replace(/ \(.*\/([^/]+:\d+):\d+\)$/, '@$1')
        .replace(/^\/\S*\/([^/]+:\d+):\d+$/, '$1'),
    )
    .filter((line) => !line.includes('bench-trace') && !line.startsWith('new Promise'))
    .slice(0, depth)
    .join(' < ');
}

/** Runs `work` with the marks recorded; everything patched is put back before it returns. */
export async function traced<T>(work: () => Promise<T>): Promise<Trace<T>> {
  const marks: Mark[] = [];
  const turns: number[] = [];
  const ticks: { at: number; cpuMs: number }[] = [];
  const cpuMs = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  const host = globalThis as { setImmediate: typeof setImmediate };
  const originalImmediate = host.setImmediate;
  const originalStringify = JSON.stringify;
  // Our modules import node:fs/promises and call readFile through the module object.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fsp = require('node:fs/promises') as { readFile: (...args: unknown[]) => Promise<{ length: number }> };
  const originalRead = fsp.readFile;
  const hostTimeout = globalThis as { setTimeout: typeof setTimeout };
  const originalTimeout = hostTimeout.setTimeout;
  const originalParse = JSON.parse;
  host.setImmediate = ((callback: (...args: unknown[]) => void, ...args: unknown[]) => {
    const from = oneLine(new Error().stack, 4);
    return originalImmediate(() => {
      const at = performance.now();
      callback(...args);
      // What the callback resumed (an awaiting slice) runs as a microtask before this one.
      queueMicrotask(() => {
        const took = performance.now() - at;
        turns.push(took);
        marks.push({ at, what: `turn of ${took.toFixed(1)} ms asked for by ${from}` });
      });
    });
  }) as typeof setImmediate;
  // Timers of anyone in the host (VS Code, other extensions) that ran long.
  hostTimeout.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const from = oneLine(new Error().stack, 4);
    return originalTimeout(() => {
      const at = performance.now();
      callback(...args);
      const took = performance.now() - at;
      if (took > 3) marks.push({ at, what: `timer of ${ms ?? 0} ms ran ${took.toFixed(1)} ms, set by ${from}` });
    }, ms);
  }) as typeof setTimeout;
  // Messages VS Code receives are parsed here.
  JSON.parse = ((text: string, reviver?: never) => {
    const at = performance.now();
    const value = originalParse(text, reviver) as unknown;
    const took = performance.now() - at;
    if (took > 2) marks.push({ at, what: `JSON parsed in ${took.toFixed(1)} ms, ${(text.length / 1000).toFixed(0)} kB, by ${oneLine(new Error().stack, 4)}` });
    return value;
  }) as typeof JSON.parse;
  // VS Code's messages to the window go through JSON.stringify with a replacer.
  JSON.stringify = ((value: unknown, replacer?: unknown, space?: unknown) => {
    if (typeof replacer !== 'function') return originalStringify(value, replacer as never, space as never);
    const at = performance.now();
    const text = originalStringify(value, replacer as never, space as never);
    marks.push({
      at,
      what: `message serialized in ${(performance.now() - at).toFixed(1)} ms, ${((text?.length ?? 0) / 1000).toFixed(0)} kB, for ${oneLine(new Error().stack, 8).replace(/^.*\$(\w+)@[^<]*/, '$$$1')}`,
    });
    return text;
  }) as typeof JSON.stringify;
  fsp.readFile = async (...args: unknown[]) => {
    marks.push({ at: performance.now(), what: `file read begun: ${String(args[0])}` });
    const read = await originalRead(...args);
    marks.push({ at: performance.now(), what: `file read done: ${read.length} bytes` });
    return read;
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = gcKindOf((entry as unknown as { detail?: { kind?: number; flags?: number } }).detail);
      marks.push({ at: entry.startTime, what: `garbage collection (${kind}) of ${entry.duration.toFixed(1)} ms` });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => ticks.push({ at: performance.now(), cpuMs: cpuMs() }), 5);
  const started = performance.now();
  let result: T;
  try {
    result = await work();
    // The observer hears of collections a little later.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    clearInterval(timer);
    observer.disconnect();
    host.setImmediate = originalImmediate;
    hostTimeout.setTimeout = originalTimeout;
    JSON.stringify = originalStringify;
    JSON.parse = originalParse;
    fsp.readFile = originalRead;
  }
  const ordered = [...marks].sort((a, b) => a.at - b.at);
  const gaps = ticks.slice(1).map((tick, k) => ({ from: ticks[k].at, to: tick.at, ms: tick.at - ticks[k].at - 5, cpuMs: tick.cpuMs - ticks[k].cpuMs }));
  return {
    result,
    longestMs: Math.max(0, ...gaps.map((gap) => gap.ms)),
    longestTurnMs: Math.max(0, ...turns),
    gapsOver: (ms) =>
      gaps
        .filter((gap) => gap.ms > ms)
        .map((gap) => ({
          ms: gap.ms,
          cpuMs: gap.cpuMs,
          from: gap.from - started,
          marks: [...ordered.filter((m) => m.at < gap.from - 3).slice(-3), ...ordered.filter((m) => m.at >= gap.from - 3 && m.at <= gap.to)]
            .slice(0, 40)
            .map((m) => `${(m.at - gap.from).toFixed(1).padStart(7)} ms  ${m.what}`),
        })),
    readStartedMs: (suffix, exclude) =>
      (ordered.find((m) => m.what.startsWith('file read begun') && m.what.endsWith(suffix) && !exclude.some((e) => m.what.endsWith(e)))?.at ?? Number.NaN) -
      started,
  };
}
