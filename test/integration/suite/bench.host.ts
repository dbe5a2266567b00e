// `npm run bench:host`: what users feel, measured inside VS Code, each figure next to its
// reference in the same run. The platform runs in its own process (test/bench/server-child.ts)
// so its work never takes turns with the extension host being measured. Not part of `npm test`.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import { measureConnectedServer } from './bench-agent';
import { BENCH_FILE_LINES, benchFile, HOST_BENCH, HOT_FILE, HOT_FINDINGS } from '../../bench/host-data';
import { EXTENSION_ID } from './fixture';
import { appsecDiagnosticCount, windowProblemCount } from './helpers';
import { gcKindOf, traced } from './bench-trace';
import { measureLatency, type LatencyBenchDeps } from './bench-latency';
import { activationCost } from './activation-cost';
import type { ExtensionApi } from '../../../src/extension';

interface Ready {
  url: string;
  token: string;
  deploymentSlug: string;
  sast: number;
  sca: number;
  project: string;
}
interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  reference?: string;
}

const REPO = process.env.APPSEC_REPO ?? process.cwd();
const PROFILE_ROUNDS = process.env.APPSEC_BENCH_PROFILE_ROUNDS === '1';
/** APPSEC_BENCH_STALLS=1: only the refresh rounds at 0 ms, six of them, to compare (c) between two builds. */
const STALLS_ONLY = process.env.APPSEC_BENCH_STALLS === '1';
/** APPSEC_BENCH_TRACE_STARTS=N (with APPSEC_BENCH_QUICK=1): N cached starts, each stall over 50 ms printed with what ran in it. */
const TRACE_STARTS = Number(process.env.APPSEC_BENCH_TRACE_STARTS ?? 0);
/** APPSEC_BENCH_LATENCY=1: only the figures at the service's latency ((i), (j), (k)). */
const LATENCY_ONLY = process.env.APPSEC_BENCH_LATENCY === '1';
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function startServer(commit: string): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', '--import', 'tsx', join(REPO, 'test/bench/server-child.ts'), JSON.stringify({ hostBenchCommit: commit })],
    {
      cwd: REPO,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, ready: message as Ready }));
    child.once('exit', (code) => reject(new Error(`the bench platform exited (code ${code})`)));
  });
}

/** Sends the bench platform a setting and waits for its acknowledgement (`ack`). */
function tell(child: ChildProcess, message: object, ack: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (answer: unknown): void => {
      if (typeof answer === 'object' && answer !== null && ack in answer) {
        child.off('message', onMessage);
        resolve();
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

const setLatency = (child: ChildProcess, latencyMs: number): Promise<void> => tell(child, { latencyMs }, 'latencySet');
/** Narrows the platform's findings to one file (null: all of them again). */
const onlyFile = (child: ChildProcess, path: string | null): Promise<void> => tell(child, { onlyFile: path }, 'onlyFileSet');

function getJson(url: string, token: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { Authorization: `Bearer ${token}` }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

interface RawFinding {
  id: number;
  rule_name?: string;
  rule_message?: string | null;
  rule?: { message?: string };
  severity?: string;
  location?: { file_path?: string; filePath?: string; line?: number };
  line_of_code_url?: string;
}

/**
 * The same job done plainly, as the limit: every page of both types (`page_size`, `inFlight`
 * pages at once per type, both types at once), `JSON.parse`, one `vscode.Diagnostic` per
 * finding, handed over in `set` calls of at most 1 000 diagnostics (whole files). Not through
 * the extension's code. One `set` of all of them (as issue 10 first described the job) reaches
 * the window with only about 1 100: VS Code passes on no more from one call and keeps the rest
 * in the extension host alone, so that job would not show what it claims to.
 */
let lastShowMs = 0;
/** When the last plain job began, in epoch milliseconds (after its opening collection). */
let lastStartedAt = 0;
let lastSent = { chars: 0, ms: 0, markers: 0 };
/** Heap held by the plain job's diagnostics once handed over: the floor under what any extension keeps. */
let lastHeldBytes = 0;

async function plainJob(
  ready: Pick<Ready, 'url' | 'token' | 'deploymentSlug' | 'project'>,
  folder: vscode.Uri,
  pageSize: number,
  inFlight: number,
): Promise<number> {
  gc();
  const heapAtStart = process.memoryUsage().heapUsed;
  const collection = vscode.languages.createDiagnosticCollection('bench-limit');
  const started = performance.now();
  lastStartedAt = performance.timeOrigin + started;
  const fetchType = async (issueType: 'sast' | 'sca'): Promise<RawFinding[]> => {
    const out: RawFinding[] = [];
    let page = 0;
    let done = false;
    while (!done) {
      const pages = Array.from({ length: inFlight }, (_, k) => page + k);
      page += inFlight;
      const bodies = await Promise.all(
        pages.map((p) =>
          getJson(
            `${ready.url}/api/v1/deployments/${ready.deploymentSlug}/findings?issue_type=${issueType}&repos=${encodeURIComponent(ready.project)}&ref=main&status=open&dedup=true&page=${p}&page_size=${pageSize}`,
            ready.token,
          ),
        ),
      );
      for (const body of bodies) {
        const list = (body as { findings?: RawFinding[] }).findings ?? [];
        out.push(...list);
        if (list.length < pageSize) done = true;
      }
    }
    return out;
  };
  const [sast, sca] = await Promise.all([fetchType('sast'), fetchType('sca')]);
  const showStart = performance.now();
  const byFile = new Map<string, vscode.Diagnostic[]>();
  for (const f of [...sast, ...sca]) {
    const path = f.location?.file_path ?? f.location?.filePath;
    if (!path) continue;
    const line = Math.max(0, (f.location?.line ?? 1) - 1);
    const d = new vscode.Diagnostic(
      new vscode.Range(line, 0, line, 20),
      f.rule_message || f.rule?.message || f.rule_name || 'finding',
      vscode.DiagnosticSeverity.Error,
    );
    d.source = 'bench';
    d.code = f.line_of_code_url ? { value: f.rule_name ?? '', target: vscode.Uri.parse(f.line_of_code_url) } : f.rule_name;
    let list = byFile.get(path);
    if (!list) byFile.set(path, (list = []));
    list.push(d);
  }
  const sent = await sending(() => {
    let batch: [vscode.Uri, vscode.Diagnostic[]][] = [];
    let size = 0;
    for (const [path, list] of byFile) {
      if (size + list.length > 1000 && batch.length > 0) {
        collection.set(batch);
        batch = [];
        size = 0;
      }
      batch.push([vscode.Uri.joinPath(folder, path), list]);
      size += list.length;
    }
    collection.set(batch);
  });
  lastSent = sent;
  const elapsed = performance.now() - started;
  // What the host itself needs to show that many diagnostics: the floor under any start.
  lastShowMs = performance.now() - showStart;
  sast.length = 0;
  sca.length = 0;
  byFile.clear();
  gc();
  lastHeldBytes = process.memoryUsage().heapUsed - heapAtStart;
  collection.dispose();
  return elapsed;
}

/** What VS Code serialized for the window while `work` ran: its RPC messages go through `JSON.stringify` with a replacer. */
async function sending<T>(work: () => T | Promise<T>): Promise<{ result: T; chars: number; ms: number; markers: number }> {
  const original = JSON.stringify;
  let sentChars = 0;
  let sentMs = 0;
  let sentMarkers = 0;
  JSON.stringify = ((value: unknown, replacer?: unknown, space?: unknown) => {
    if (typeof replacer !== 'function') return original(value, replacer as never, space as never);
    const t = performance.now();
    const text = original(value, replacer as never, space as never);
    sentMs += performance.now() - t;
    sentChars += text?.length ?? 0;
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && Array.isArray(value[1])) {
      for (const entry of value[1] as unknown[]) if (Array.isArray(entry) && Array.isArray(entry[1])) sentMarkers += (entry[1] as unknown[]).length;
    }
    return text;
  }) as typeof JSON.stringify;
  try {
    const result = await work();
    return { result, chars: sentChars, ms: sentMs, markers: sentMarkers };
  } finally {
    JSON.stringify = original;
  }
}

/**
 * Waits until the window has drawn what it was sent: its Problems count reads the same twice,
 * 300 ms apart (a read is answered only when the window's main thread is free). The window and
 * the extension host share this machine's two cores, so a job's markers still being drawn would
 * slow whichever job is measured next: the limit job's 41 000, drawn after its run, made the
 * refresh after it twice as slow.
 */
async function windowQuiet(): Promise<void> {
  let last = await windowProblemCount();
  for (let i = 0; i < 200 && last !== undefined; i++) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await windowProblemCount();
    if (now === last) return;
    last = now;
  }
}

/** A full collection before reading the heap, so what is retained is what is measured. */
setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/**
 * Self time by script and by function from a CPU profile of `work`, and `oursMs`: the time spent
 * with the extension's code on the stack (its own and what it called in VS Code).
 */
async function profile<T>(work: () => Promise<T>, stallOf?: (result: T) => Stall, name?: string): Promise<{ result: T; summary: string[]; oursMs: number }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  const result = await work();
  const { profile: taken } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();
  // APPSEC_BENCH_SAVE_PROFILES=1: the whole profile, for DevTools' Performance panel or a script.
  if (name && process.env.APPSEC_BENCH_SAVE_PROFILES === '1') {
    mkdirSync(join(REPO, 'test-results'), { recursive: true });
    writeFileSync(join(REPO, 'test-results', `bench-host-${name}.cpuprofile`), JSON.stringify(taken));
  }
  return { result, ...summarize(taken, stallOf?.(result)) };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A whole profile, with what ran by function and by the innermost function of ours on the stack. */
function summarizeWhole(taken: CpuProfile): string[] {
  return summarize(taken, { ms: (taken.endTime - taken.startTime) / 1000, fromUs: taken.startTime, toUs: taken.endTime }, 'all of it').summary;
}

/** Self time by script and by function, our share, and what ran during `stall` if given. */
function summarize(taken: CpuProfile, stall?: Stall, window = 'the longest stall'): { summary: string[]; oursMs: number } {
  const perSample = (taken.endTime - taken.startTime) / 1000 / Math.max(1, taken.samples.length);
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const node of taken.nodes) {
    const ms = (node.hitCount ?? 0) * perSample;
    const script = node.callFrame.url.replace(/^.*\//, '') || `(${node.callFrame.functionName || 'native'})`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const name = `${script}:${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const ourScript = vscode.extensions.getExtension(EXTENSION_ID)?.extensionUri.fsPath ?? '\0';
  const parents = new Map<number, number>();
  for (const node of taken.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byId = new Map(taken.nodes.map((node) => [node.id, node]));
  const oursMemo = new Map<number, boolean>();
  const inOurs = (id: number): boolean => {
    const known = oursMemo.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id);
    const value = (byId.get(id)?.callFrame.url.includes(ourScript) ?? false) || (parent !== undefined && inOurs(parent));
    oursMemo.set(id, value);
    return value;
  };
  const oursMs = taken.nodes.reduce((ms, node) => ms + (inOurs(node.id) ? (node.hitCount ?? 0) * perSample : 0), 0);
  // What ran during the longest stall: each sample's own function, and the innermost function
  // of ours on its stack (which of our code led there).
  const inStall = new Map<string, number>();
  const oursInStall = new Map<string, number>();
  if (stall) {
    const nameOf = (node: ProfileNode | undefined): string =>
      node ? `${node.callFrame.url.replace(/^.*\//, '') || '(native)'}:${node.callFrame.functionName || '(anonymous)'}` : '?';
    let at = taken.startTime;
    taken.samples.forEach((id, i) => {
      at += taken.timeDeltas[i] ?? 0;
      if (at < stall.fromUs || at > stall.toUs) return;
      const ms = (taken.timeDeltas[i] ?? 0) / 1000;
      inStall.set(nameOf(byId.get(id)), (inStall.get(nameOf(byId.get(id))) ?? 0) + ms);
      let frame: number | undefined = id;
      while (frame !== undefined && !byId.get(frame)?.callFrame.url.includes(ourScript)) frame = parents.get(frame);
      const ours = frame === undefined ? '(none of ours)' : nameOf(byId.get(frame));
      oursInStall.set(ours, (oursInStall.get(ours) ?? 0) + ms);
    });
  }
  const top = (map: Map<string, number>, n: number): string[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `  ${v.toFixed(0).padStart(6)} ms  ${k}`);
  return {
    oursMs,
    summary: [
      'self time by script:',
      ...top(byScript, 8),
      'self time by function:',
      ...top(byFunction, 15),
      ...(stall
        ? [
            `${window} (${stall.ms.toFixed(0)} ms, profiler on), by function:`,
            ...top(inStall, 8),
            'and by the innermost function of ours on the stack:',
            ...top(oursInStall, 8),
          ]
        : []),
    ],
  };
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/**
 * What `work` leaves alive, by the function that allocated it (V8's sampling heap profiler: it
 * keeps only samples whose objects are still alive when it stops), per finding.
 */
async function retainedBy<T>(work: () => Promise<T>, perCount: number): Promise<{ result: T; summary: string[] }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024 });
  const result = await work();
  gc();
  const { profile: taken } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: HeapNode } };
  session.disconnect();
  const byFunction = new Map<string, number>();
  const byOurs = new Map<string, number>();
  const ourScript = vscode.extensions.getExtension(EXTENSION_ID)?.extensionUri.fsPath ?? '\0';
  const walk = (node: HeapNode, ours: string | undefined): void => {
    const script = node.callFrame.url.replace(/^.*\//, '') || '(native)';
    const name = `${script}:${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
    const innermostOurs = node.callFrame.url.includes(ourScript) ? name : ours;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    byOurs.set(innermostOurs ?? '(none of ours)', (byOurs.get(innermostOurs ?? '(none of ours)') ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, innermostOurs);
  };
  walk(taken.head, undefined);
  const top = (map: Map<string, number>): string[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([name, bytes]) => `${(bytes / perCount).toFixed(0).padStart(8)} B  ${name}`);
  return {
    result,
    summary: [
      'alive after it, per finding, by allocating function:',
      ...top(byFunction),
      'and by the innermost function of ours on the stack:',
      ...top(byOurs),
    ],
  };
}

/** Microseconds on the monotonic clock the CPU profiler's timestamps use. */
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

interface Stall {
  readonly ms: number;
  readonly fromUs: number;
  readonly toUs: number;
}

interface Stalls {
  /** The longest gap. */
  readonly stall: Stall;
  /** Garbage-collection pauses inside the longest gap. */
  readonly gcInStallMs: number;
  /**
   * CPU time the extension-host process used during the longest gap (all its threads): far
   * below the gap, the host was waiting for a core rather than working.
   */
  readonly cpuInStallMs: number;
  /** The longest gap once the collection pauses inside each gap are taken out: the work's own. */
  readonly withoutGcMs: number;
  /** The longest single collection pause. */
  readonly longestGcMs: number;
  /** What kind of collection that was (major, minor…) and why (V8's flags, as Node names them). */
  readonly longestGcKind: string;
}

/** The middle run (the lower of the two middle ones for an even count). */
function median(runs: readonly number[]): number {
  return [...runs].sort((a, b) => a - b)[Math.floor((runs.length - 1) / 2)];
}

/**
 * The longest gap between 5 ms ticks while `work` runs: how long the host could not answer, and
 * when; with the garbage collector's pauses (V8's, seen through `gc` performance entries) told
 * apart from the work's own time.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number; stall: Stall; stalls: Stalls }> {
  const cpuMsNow = (): number => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  let last = { us: nowUs(), ms: performance.now(), cpuMs: cpuMsNow() };
  const gaps: { ms: number; fromUs: number; toUs: number; fromMs: number; toMs: number; cpuMs: number }[] = [];
  const pauses: { start: number; end: number; kind: string }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      pauses.push({
        start: entry.startTime,
        end: entry.startTime + entry.duration,
        kind: gcKindOf((entry as unknown as { detail?: { kind?: number; flags?: number } }).detail),
      });
  });
  observer.observe({ entryTypes: ['gc'] });
  const timer = setInterval(() => {
    const now = { us: nowUs(), ms: performance.now(), cpuMs: cpuMsNow() };
    const ms = (now.us - last.us) / 1000 - 5;
    if (ms > 10) gaps.push({ ms, fromUs: last.us, toUs: now.us, fromMs: last.ms, toMs: now.ms, cpuMs: now.cpuMs - last.cpuMs });
    last = now;
  }, 5);
  try {
    const result = await work();
    // The observer hears of pauses a little later: give it a turn.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gcIn = (gap: (typeof gaps)[number]): number => pauses.reduce((n, p) => n + Math.max(0, Math.min(p.end, gap.toMs) - Math.max(p.start, gap.fromMs)), 0);
    const worst = gaps.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, fromUs: last.us, toUs: last.us, fromMs: 0, toMs: 0, cpuMs: 0 });
    const stalls: Stalls = {
      stall: worst,
      gcInStallMs: gcIn(worst),
      cpuInStallMs: worst.cpuMs,
      withoutGcMs: Math.max(0, ...gaps.map((gap) => gap.ms - gcIn(gap))),
      longestGcMs: Math.max(0, ...pauses.map((p) => p.end - p.start)),
      longestGcKind: pauses.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a), { start: 0, end: 0, kind: 'none' }).kind,
    };
    return { result, stallMs: worst.ms, stall: worst, stalls };
  } finally {
    clearInterval(timer);
    observer.disconnect();
  }
}

/**
 * The floor under a start's stalls: `drawing`, already built, handed to a collection of its own
 * with nothing else done, one `set` of at most 1 000 per turn. What stalls here is VS Code's own
 * work (converting and serializing each set) and the collections it causes.
 */
async function handOverBare(drawing: readonly [vscode.Uri, vscode.Diagnostic[]][]): Promise<number> {
  const bare = vscode.languages.createDiagnosticCollection('bench-bare');
  try {
    const { stallMs } = await longestStall(async () => {
      let batch: [vscode.Uri, vscode.Diagnostic[]][] = [];
      let size = 0;
      for (const entry of drawing) {
        if (size > 0 && size + entry[1].length > 1000) {
          bare.set(batch);
          batch = [];
          size = 0;
          await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
        }
        batch.push(entry);
        size += entry[1].length;
      }
      bare.set(batch);
    });
    return stallMs;
  } finally {
    bare.dispose();
  }
}

describe('bench:host', () => {
  it('measures refresh, stalls, the cached start, activation and memory inside VS Code', async function () {
    this.timeout(20 * 60_000);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const root = folder.uri.fsPath;
    for (let i = 0; i < HOST_BENCH.files; i++) {
      const path = join(root, benchFile(i));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Array.from({ length: BENCH_FILE_LINES }, (_, l) => `line ${l + 1}`).join('\n'));
    }
    writeFileSync(join(root, 'poetry.lock'), Array.from({ length: 5000 }, (_, l) => `pkg${l} = "1.0"`).join('\n'));
    git(root, 'config', 'user.email', 'bench@example.invalid');
    git(root, 'config', 'user.name', 'Bench');
    git(root, 'checkout', '-q', '-B', 'main');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'bench');
    const commit = git(root, 'rev-parse', 'HEAD');
    const { child, ready } = await startServer(commit);
    git(root, 'remote', 'add', 'origin', `git@github.com:${ready.project}.git`);
    const figures: Figure[] = [];
    const profiled: string[] = [];
    try {
      const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
      const api = await extension!.activate();
      // The extension's registration loop measured itself; the suite reads the measures (activation-cost.ts).
      const activation = activationCost();
      if (activation.profile)
        profiled.push(
          '',
          'CPU profile of activation (APPSEC_PROFILE_ACTIVATION=1, sampled every 0.1 ms; (f) is then measured with the profiler on):',
          ...summarizeWhole(activation.profile as CpuProfile),
        );
      figures.push({
        name: "(f) activation (the extension's own activate)",
        value: activation.ms,
        unit: 'ms',
        target: '≤ 20 ms',
        reference: `CPU time ${activation.cpuMs.toFixed(1)} ms; phases ended at ${activation.phases.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}`,
      });
      const latencyDeps: LatencyBenchDeps = {
        repo: REPO,
        commit,
        project: ready.project,
        folder,
        api,
        windowQuiet,
        median,
        limitJob: (other) => plainJob(other, folder.uri, 3000, 4),
        limitTimes: () => ({ startedAt: lastStartedAt, showMs: lastShowMs }),
        // APPSEC_BENCH_PROFILE_ROUNDS=1: what ran between the last answer and the last diagnostic.
        ...(PROFILE_ROUNDS ? { profileTail: (work, window) => profile(work, (result) => window(result, nowUs())) } : {}),
      };
      const atLatency = async (): Promise<void> => {
        const measured = await measureLatency(latencyDeps);
        figures.push(...measured.figures);
        profiled.push(...measured.timelines);
      };
      if (LATENCY_ONLY) return await atLatency();
      // (g) From signed out to 50 000 shown: everything the refresh leaves in the heap.
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const retained = await retainedBy(async () => {
        await vscode.workspace.getConfiguration('appsecFindings').update('baseUrl', ready.url, vscode.ConfigurationTarget.Global);
        await vscode.workspace.getConfiguration('appsecFindings').update('autoRefreshMinutes', 0, vscode.ConfigurationTarget.Global);
        await vscode.commands.executeCommand('appsecFindings.signIn', ready.token);
        const deadline = Date.now() + 30_000;
        while (api.app.repos.repos().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        assert.ok(api.app.repos.repos().length > 0, 'the workspace is matched to the bench project');
        await vscode.commands.executeCommand('appsecFindings.refresh'); // warm-up (projects, first load)
      }, HOST_BENCH.sast + HOST_BENCH.sca);
      const expected = appsecDiagnosticCount();
      assert.ok(expected >= HOST_BENCH.sast, `${expected} diagnostics shown`);
      gc();
      const heapAfter = process.memoryUsage().heapUsed;
      profiled.push('', 'Heap from signed out to 50 000 shown (g):', ...retained.summary);
      figures.push({
        name: '(g) extension-host heap growth per finding after the refresh',
        value: (heapAfter - heapBefore) / (HOST_BENCH.sast + HOST_BENCH.sca),
        unit: 'bytes',
        target: '≤ 600 bytes',
      });

      // A refresh's own work after drawing (the cache written a second later, or found the same
      // as written) is waited for before the next measurement: it would otherwise be counted
      // against that one. `since` is the count of refreshes kept before the refresh.
      const cacheDir = join(api.context.globalStorageUri.fsPath, 'findings-cache');
      let keptRefreshes = 0;
      const keeping = api.app.onDidKeepFindings(() => keptRefreshes++);
      const cacheWrittenSince = async (since: number): Promise<void> => {
        const deadline = Date.now() + 15_000;
        while (keptRefreshes <= since && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        await new Promise((r) => setTimeout(r, 500));
      };
      const refreshQuietly = async (): Promise<void> => {
        const refreshed = keptRefreshes;
        await vscode.commands.executeCommand('appsecFindings.refresh');
        await cacheWrittenSince(refreshed);
      };

      // The heap was measured with V8's sampling profiler on: one unmeasured refresh after it.
      await refreshQuietly();
      // What stays while the findings are shown: the same, after a refresh's cache write.
      gc();
      figures.push({
        name: "    the same once the refresh's cache is written (what stays)",
        value: (process.memoryUsage().heapUsed - heapBefore) / (HOST_BENCH.sast + HOST_BENCH.sca),
        unit: 'bytes',
      });
      // A forced full collection leaves V8 a smaller heap to grow again: a measured refresh right
      // after it stalled the longest of its run in 3 of 4 runs (101, 48 and 46 ms). An unmeasured one.
      await refreshQuietly();
      for (const latency of process.env.APPSEC_BENCH_QUICK ? [] : STALLS_ONLY ? [0] : [0, 150]) {
        await setLatency(child, latency);
        // Three rounds, ours and the limit taking turns; the medians are reported (one run on
        // this shared machine varies by a factor of 1.5).
        const ourRuns: number[] = [];
        const limitRuns: number[] = [];
        let worst: Stalls | undefined;
        const runStalls: number[] = [];
        let limitStallMs = 0;
        for (let round = 0; round < (PROFILE_ROUNDS ? 8 : STALLS_ONLY ? 6 : 3); round++) {
          await windowQuiet();
          const roundAt = keptRefreshes;
          const run = () =>
            longestStall(async () => {
              const started = performance.now();
              await vscode.commands.executeCommand('appsecFindings.refresh');
              return performance.now() - started;
            });
          // APPSEC_BENCH_PROFILE_ROUNDS=1: each round profiled (its figures then with the profiler
          // on) and what ran in its longest stall printed, to see what the worst stalls are made of.
          let measured: Awaited<ReturnType<typeof run>>;
          if (PROFILE_ROUNDS) {
            const profiledRound = await profile(run, (m) => m.stall);
            measured = profiledRound.result;
            const from = profiledRound.summary.findIndex((line) => line.startsWith('the longest stall'));
            console.log(
              [
                `round ${round} at ${latency} ms: longest stall ${measured.stallMs.toFixed(1)} ms, GC in it ${measured.stalls.gcInStallMs.toFixed(1)} ms`,
                ...profiledRound.summary.slice(from),
              ].join('\n'),
            );
          } else measured = await run();
          ourRuns.push(measured.result);
          runStalls.push(measured.stallMs);
          // Our cache write must not slow the limit job down (nor the next refresh).
          await cacheWrittenSince(roundAt);
          if (!worst || measured.stallMs > worst.stall.ms) worst = measured.stalls;
          await windowQuiet();
          const limit = await longestStall(() => plainJob(ready, folder.uri, 3000, 4));
          limitRuns.push(limit.result);
          limitStallMs = Math.max(limitStallMs, limit.stallMs);
        }
        // Profiled once for where the time goes, after the measured runs: the refresh after a
        // profiled one ran 7.3–11.5 s against 2.6–4.6 s for the next ones (the profiler's
        // aftermath), so an unmeasured refresh follows it.
        if (latency === 0 && !STALLS_ONLY) {
          const refreshing = (): Promise<unknown> => Promise.resolve(vscode.commands.executeCommand('appsecFindings.refresh'));
          await windowQuiet();
          const profiledAt = keptRefreshes;
          profiled.push(
            '',
            'CPU profile of the refresh at 0 ms (sampled every 0.5 ms):',
            ...(
              await profile(
                () => longestStall(refreshing),
                (measured) => measured.stall,
                'refresh',
              )
            ).summary,
          );
          await cacheWrittenSince(profiledAt);
          await refreshQuietly();
        }
        const ourMs = median(ourRuns);
        const limitMs = median(limitRuns);
        if (latency === 0) {
          // What reached the window (Problems, squiggles), not only what the extension host holds.
          const reachedAt = keptRefreshes;
          const reached = await sending(() => Promise.resolve(vscode.commands.executeCommand('appsecFindings.refresh')));
          await cacheWrittenSince(reachedAt);
          figures.push({
            name: '    diagnostics passed on to the window by a refresh: ours; the limit job',
            value: reached.markers,
            unit: 'count',
            reference: `limit job ${lastSent.markers}; VS Code keeps at most 1 000 per file (plus a line saying how many more)`,
          });
          figures.push({ name: `    of which building and setting ${expected} diagnostics (the host's floor)`, value: lastShowMs, unit: 'ms' });
          figures.push({
            name: "(g) floor: heap held by the plain job's diagnostics, per finding",
            value: lastHeldBytes / (HOST_BENCH.sast + HOST_BENCH.sca),
            unit: 'bytes',
          });
        }
        figures.push({
          name: `(a) refresh → ${expected} diagnostics, ${latency} ms latency`,
          value: ourMs,
          unit: 'ms',
          reference: `limit ${limitMs.toFixed(0)} ms (×${(ourMs / limitMs).toFixed(2)}); runs ${ourRuns.map((r) => r.toFixed(0)).join('/')} vs ${limitRuns.map((r) => r.toFixed(0)).join('/')}`,
          target: '≤ 1.3 × limit',
        });
        if (latency === 0 && worst) {
          figures.push({
            name: `(c) longest extension-host stall during the refreshes (${runStalls.length})`,
            value: worst.stall.ms,
            unit: 'ms',
            target: '≤ 50 ms',
            reference: `of which GC pauses ${worst.gcInStallMs.toFixed(0)} ms; the host process used ${worst.cpuInStallMs.toFixed(0)} ms of CPU in it; per run ${runStalls.map((s) => s.toFixed(0)).join('/')} ms; the limit job's longest ${limitStallMs.toFixed(0)} ms`,
          });
          figures.push({
            name: '    longest stall less the GC pauses in it; longest GC pause',
            value: worst.withoutGcMs,
            unit: 'ms',
            reference: `longest GC pause ${worst.longestGcMs.toFixed(0)} ms, ${worst.longestGcKind}`,
          });
        }
        if (latency === 150) {
          await windowQuiet();
          const naiveMs = await plainJob(ready, folder.uri, 100, 1);
          figures.push({
            name: '(b) naive client (page 100, one at a time), 150 ms latency',
            value: naiveMs,
            unit: 'ms',
            reference: `ours ×${(naiveMs / ourMs).toFixed(1)} faster`,
            target: 'ours ≥ 5 × faster',
          });
        }
      }

      if (STALLS_ONLY) return;
      if (process.env.APPSEC_BENCH_QUICK) await plainJob(ready, folder.uri, 3000, 4);
      // (m) An agent asking the window through the MCP server, with everything shown and a slow platform.
      await setLatency(child, 150);
      figures.push(await measureConnectedServer(vscode.Uri.joinPath(folder.uri, benchFile(7)), expected, 150, median));
      await setLatency(child, 0);
      // (d) What expanding the project's code findings and its biggest severity group costs.
      const tree = api.trees.projects;
      const expandStart = performance.now();
      const projectNode = tree.getChildren().find((n) => n.kind === 'project' && n.project.name === ready.project);
      const codeNode = projectNode && tree.getChildren(projectNode).find((n) => n.kind === 'issueType' && n.issueType === 'sast');
      assert.ok(codeNode, 'the project and its code findings are in the tree');
      let groups = tree.getChildren(codeNode);
      for (let i = 0; i < 600 && groups.some((n) => n.kind === 'message'); i++) {
        await new Promise((r) => setTimeout(r, 50));
        groups = tree.getChildren(codeNode);
      }
      const biggest = groups
        .filter((n) => n.kind === 'group')
        .sort((a, b) => (b.kind === 'group' ? b.group.findings.length : 0) - (a.kind === 'group' ? a.group.findings.length : 0))[0];
      assert.ok(biggest?.kind === 'group');
      const items = tree.getChildren(biggest);
      for (const node of [...groups, ...items]) tree.getTreeItem(node);
      figures.push({
        name: `(d) expand Code findings and a group of ${biggest.group.findings.length}`,
        value: performance.now() - expandStart,
        unit: 'ms',
        reference: `${groups.length + items.length} tree items`,
        target: '≤ 100 ms, ≤ 2 000 items',
      });

      // (e) The open file's diagnostics come first; all of them before the platform answers.
      const openUri = vscode.Uri.joinPath(folder.uri, benchFile(7));
      const opened = Date.now();
      await vscode.window.showTextDocument(openUri);
      // As when the window was closed with this file open: its part of the cache is written.
      const partWritten = (): boolean => readdirSync(cacheDir).some((name) => name.endsWith('.open.json') && statSync(join(cacheDir, name)).mtimeMs >= opened);
      for (let i = 0; i < 100 && !partWritten(); i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(partWritten(), "the open file's part of the cache is written");
      await setLatency(child, 5000);
      const cachedStart = async (): Promise<boolean> => {
        api.app.findings.clear();
        api.app.diagnostics.clear();
        await windowQuiet();
        return api.app.startFromCache();
      };
      // Five starts, each from an empty window; medians reported, the worst stall kept (one
      // start on this shared machine varies from 400 to 630 ms).
      const measuredStart = async () => {
        api.app.findings.clear();
        api.app.diagnostics.clear();
        // A reloaded window starts empty: it is not still taking down the 46 000 markers cleared here.
        await windowQuiet();
        let openFileMs: number | undefined;
        // When each file was first handed over: every diagnostic is shown once the last file is.
        const firstSet = new Map<string, number>();
        const cacheStart = performance.now();
        const watching = vscode.languages.onDidChangeDiagnostics((e) => {
          const now = performance.now() - cacheStart;
          for (const uri of e.uris) if (!firstSet.has(uri.toString())) firstSet.set(uri.toString(), now);
          if (openFileMs === undefined && e.uris.some((u) => u.toString() === openUri.toString()) && vscode.languages.getDiagnostics(openUri).length > 0)
            openFileMs = now;
        });
        const { result: sent, stallMs, stalls } = await longestStall(() => sending(() => api.app.startFromCache()));
        const cachedMs = performance.now() - cacheStart;
        watching.dispose();
        const shownFiles = vscode.languages.getDiagnostics().filter(([, list]) => list.some((d) => d.source === 'AppSec'));
        const allShownMs = Math.max(...shownFiles.map(([uri]) => firstSet.get(uri.toString()) ?? Number.NaN));
        const withoutFindings = shownFiles.reduce(
          (n, [, list]) => n + list.filter((d) => d.source === 'AppSec' && !(d as { finding?: unknown }).finding).length,
          0,
        );
        // The floor under any cached start: reading and parsing the cache file, then building and
        // setting the diagnostics (measured above in the plain job).
        const readStart = performance.now();
        for (const name of readdirSync(cacheDir).filter((n) => !n.endsWith('.open.json') && !n.endsWith('.shown.json')))
          for (const line of readFileSync(join(cacheDir, name), 'utf8').split('\n')) if (line) JSON.parse(line);
        const readMs = performance.now() - readStart;
        return { openFileMs: openFileMs ?? Number.NaN, allShownMs, cachedMs, sent, stallMs, stalls, files: shownFiles.length, withoutFindings, readMs };
      };
      if (TRACE_STARTS > 0) {
        console.log(
          `active extensions: ${vscode.extensions.all
            .filter((e) => e.isActive)
            .map((e) => e.id)
            .join(', ')}`,
        );
        const summaries: { longest: number; over50: number; over30: number; drawn: number; turn: number }[] = [];
        for (let round = 0; round < TRACE_STARTS; round++) {
          api.app.findings.clear();
          api.app.diagnostics.clear();
          await windowQuiet();
          const trace = await traced(() => api.app.startFromCache());
          // Every diagnostic is handed over when the findings behind them begin to be read.
          const drawn = trace.readStartedMs('.json', ['.open.json', '.shown.json']);
          summaries.push({ longest: trace.longestMs, over50: trace.gapsOver(50).length, over30: trace.gapsOver(30).length, drawn, turn: trace.longestTurnMs });
          console.log(
            [
              `traced start ${round + 1}: drawn in ${drawn.toFixed(0)} ms; longest stall ${trace.longestMs.toFixed(1)} ms; longest turn ${trace.longestTurnMs.toFixed(1)} ms`,
              ...trace
                .gapsOver(50)
                .flatMap((gap) => [
                  `  stall of ${gap.ms.toFixed(1)} ms (host CPU ${gap.cpuMs.toFixed(0)} ms) at ${gap.from.toFixed(0)} ms:`,
                  ...gap.marks.map((m) => `    ${m}`),
                ]),
            ].join('\n'),
          );
        }
        const list = (of: (s: (typeof summaries)[number]) => number): string => summaries.map((s) => of(s).toFixed(0)).join('/');
        console.log(
          `traced starts: longest stalls ${list((s) => s.longest)} ms; stalls over 50 ms ${list((s) => s.over50)}, over 30 ms ${list((s) => s.over30)}; longest turns ${list((s) => s.turn)} ms; drawn in ${list((s) => s.drawn)} ms (median ${median(summaries.map((s) => s.drawn)).toFixed(0)})`,
        );
        return;
      }
      const starts: Awaited<ReturnType<typeof measuredStart>>[] = [];
      const bareStalls: number[] = [];
      let drawing: [vscode.Uri, vscode.Diagnostic[]][] = [];
      for (let round = 0; round < 5; round++) {
        starts.push(await measuredStart());
        if (round === 0)
          drawing = vscode.languages
            .getDiagnostics()
            .filter(([, list]) => list.some((d) => d.source === 'AppSec'))
            .map(([uri, list]) => [uri, [...list]]);
        // Taking turns with the starts, so a slow spell of the machine does not fall on one side only.
        api.app.findings.clear();
        api.app.diagnostics.clear();
        await windowQuiet();
        bareStalls.push(await handOverBare(drawing));
      }
      // Profiled after the measured starts: the start right after a profiled one was the slowest
      // of the three in 7 of 9 runs (by up to 260 ms), the profiler's aftermath.
      const cachedProfile = (
        await profile(
          () => longestStall(cachedStart),
          (measured) => measured.stall,
          'cached-start',
        )
      ).summary;
      profiled.push('', 'CPU profile of the start with the disk cache:', ...cachedProfile);
      const middle = (of: (start: (typeof starts)[number]) => number): number => median(starts.map(of));
      const listed = (of: (start: (typeof starts)[number]) => number): string => starts.map((start) => of(start).toFixed(0)).join('/');
      const worstStart = starts.reduce((a, b) => (b.stallMs > a.stallMs ? b : a));
      const allShownMs = middle((start) => start.allShownMs);
      const readMs = middle((start) => start.readMs);
      const last = starts[starts.length - 1];
      figures.push({
        name: "(e) start with the disk cache: the open file's diagnostics shown",
        value: middle((start) => start.openFileMs),
        unit: 'ms',
        target: '≤ 500 ms',
        reference: `starts ${listed((start) => start.openFileMs)} ms`,
      });
      figures.push({
        name: '(e) start with the disk cache: every diagnostic shown, no answer yet',
        value: allShownMs,
        unit: 'ms',
        reference: last.sent.result
          ? `${appsecDiagnosticCount()} diagnostics in ${last.files} files before any answer; starts ${listed((start) => start.allShownMs)} ms`
          : 'nothing cached',
        target: '≤ 500 ms',
      });
      figures.push({
        name: '    the findings behind them read, planned and checked against them',
        value: middle((start) => start.cachedMs),
        unit: 'ms',
        reference: `${Math.max(...starts.map((start) => start.withoutFindings))} diagnostics left without their finding`,
      });
      figures.push({
        name: '    longest extension-host stall during those starts',
        value: worstStart.stallMs,
        unit: 'ms',
        target: '≤ 50 ms',
        reference: `of which GC pauses ${worstStart.stalls.gcInStallMs.toFixed(0)} ms; the host process used ${worstStart.stalls.cpuInStallMs.toFixed(0)} ms of CPU in it; per start ${starts.map((start) => `${start.stallMs.toFixed(0)}${start.stallMs > 50 ? ` (CPU ${start.stalls.cpuInStallMs.toFixed(0)}, GC ${start.stalls.gcInStallMs.toFixed(0)})` : ''}`).join('/')} ms`,
      });
      figures.push({
        name: "    of which serializing for the window (ours; the plain job's set)",
        value: middle((start) => start.sent.ms),
        unit: 'ms',
        reference: `${(last.sent.chars / 1e6).toFixed(1)} MB, ${last.sent.markers} markers; the plain job ${lastSent.ms.toFixed(0)} ms, ${(lastSent.chars / 1e6).toFixed(1)} MB, ${lastSent.markers} markers`,
      });
      figures.push({
        name: '    floor: read and parse the cache file, build and set the diagnostics',
        value: readMs + lastShowMs,
        unit: 'ms',
        reference: `read+parse ${readMs.toFixed(0)} ms, set ${lastShowMs.toFixed(0)} ms; every diagnostic shown at ×${(allShownMs / (readMs + lastShowMs)).toFixed(2)} this floor`,
      });
      figures.push({
        name: `    floor: the same ${drawing.reduce((n, [, list]) => n + list.length, 0)} diagnostics handed over bare, longest stall`,
        value: Math.max(...bareStalls),
        unit: 'ms',
        reference: `per hand-over ${bareStalls.map((ms) => ms.toFixed(0)).join('/')} ms (one set of 1 000 per turn, nothing else; taking turns with the starts)`,
      });
      await setLatency(child, 0);
      if (process.env.APPSEC_BENCH_QUICK) return;
      // Typing is measured once the refresh's cache write is done (see refreshQuietly).
      await refreshQuietly();

      // (h) Typing in a file with 500 diagnostics: our time per keystroke with 50 000 shown, and
      // with only that file's shown (the same code path; only the findings elsewhere differ).
      // Two bursts each: the first after a refresh also fetches the file's scanned text from git
      // once (one process started); the second is typing as it goes on. Each setup is typed in
      // twice, taking turns (all, alone, all, alone), so a slow spell of the machine does not
      // fall on one side only. Next to the time, the diagnostics handed to the window per
      // keystroke: a count, not a timing, so it shows any work that grows with the findings
      // elsewhere without the noise of a 3 ms figure.
      interface Typed {
        perKeyMs: number;
        firstBurstMs: number;
        markersPerKey: number;
        charsPerKey: number;
        shown: number;
      }
      const typing = async (): Promise<Typed> => {
        const hot = vscode.Uri.joinPath(folder.uri, HOT_FILE);
        const editor = await vscode.window.showTextDocument(hot);
        const inFile = (): number => vscode.languages.getDiagnostics(hot).filter((d) => d.source === 'AppSec').length;
        assert.ok(inFile() >= HOT_FINDINGS, `${inFile()} diagnostics in the typed file`);
        const keys = 60;
        const burst = async (label: string): Promise<{ perKeyMs: number; markersPerKey: number; charsPerKey: number }> => {
          const {
            oursMs,
            summary,
            result: sent,
          } = await profile(() =>
            sending(async () => {
              for (let k = 0; k < keys; k++)
                await editor.edit((edit) => edit.insert(new vscode.Position(10 + (k % 20), 0), 'x'), { undoStopBefore: false, undoStopAfter: false });
              // The re-diff after typing stops belongs to the burst.
              await new Promise((r) => setTimeout(r, 700));
            }),
          );
          profiled.push(
            '',
            `CPU profile of typing ${keys} keys with ${appsecDiagnosticCount()} shown (${label}):`,
            ...summary.slice(summary.indexOf('self time by function:'), summary.indexOf('self time by function:') + 9),
          );
          await vscode.commands.executeCommand('workbench.action.files.revert');
          await new Promise((r) => setTimeout(r, 700));
          return { perKeyMs: oursMs / keys, markersPerKey: sent.markers / keys, charsPerKey: sent.chars / keys };
        };
        const first = await burst('first burst');
        const second = await burst('second burst');
        return { ...second, firstBurstMs: first.perKeyMs, shown: appsecDiagnosticCount() };
      };
      const withAll: Typed[] = [];
      const alone: Typed[] = [];
      for (let round = 0; round < 2; round++) {
        if (round > 0) {
          await onlyFile(child, null);
          await refreshQuietly();
        }
        withAll.push(await typing());
        await onlyFile(child, HOT_FILE);
        await refreshQuietly();
        alone.push(await typing());
      }
      await onlyFile(child, null);
      const mean = (typed: Typed[], of: (t: Typed) => number): number => typed.reduce((n, t) => n + of(t), 0) / typed.length;
      const runs = (typed: Typed[]): string => typed.map((t) => t.perKeyMs.toFixed(2)).join('/');
      figures.push({
        name: `(h) our time per keystroke, file of ${HOT_FINDINGS}, ${withAll[0].shown} shown`,
        value: mean(withAll, (t) => t.perKeyMs),
        unit: 'ms',
        reference: `${mean(alone, (t) => t.perKeyMs).toFixed(2)} ms with ${alone[0].shown} shown; per round ${runs(withAll)} vs ${runs(alone)}; first burst after a refresh ${mean(withAll, (t) => t.firstBurstMs).toFixed(2)} vs ${mean(alone, (t) => t.firstBurstMs).toFixed(2)} ms`,
        target: 'independent of the rest',
      });
      figures.push({
        name: `    diagnostics handed to the window per keystroke, ${withAll[0].shown} shown`,
        value: mean(withAll, (t) => t.markersPerKey),
        unit: 'count',
        reference: `${mean(alone, (t) => t.markersPerKey).toFixed(0)} with ${alone[0].shown} shown; ${(mean(withAll, (t) => t.charsPerKey) / 1000).toFixed(1)} vs ${(mean(alone, (t) => t.charsPerKey) / 1000).toFixed(1)} kB serialized per keystroke`,
        target: 'the same',
      });
      keeping.dispose();
      await atLatency();
    } finally {
      child.disconnect();
      const lines = figures.map(
        (f) =>
          `${f.name.padEnd(72)} ${f.value.toFixed(f.unit === 'bytes' || f.unit === 'count' ? 0 : f.value < 10 ? 2 : 1).padStart(9)} ${f.unit.padEnd(5)} ${(f.target ?? '').padEnd(18)} ${f.reference ?? ''}`,
      );
      console.log(['', 'bench:host (VS Code in code-server, this machine)', ...lines, ...profiled, ''].join('\n'));
      mkdirSync(join(REPO, 'test-results'), { recursive: true });
      writeFileSync(join(REPO, 'test-results', 'bench-host.json'), JSON.stringify({ figures, profile: profiled }, null, 2));
    }
  });
});
