// bench:host's figures at the real service's latency: what the user waits for when every answer
// takes 150 ms or a second, next to the limit job in the same run, with the number of round
// trips that had to wait for each other (counted by the platform).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { benchFile, LATENCY_BENCH } from '../../bench/host-data';
import type { RoundTripReport } from '../../platform/round-trips';
import { describeLimitTimeline, describeOurTimeline, watchRefresh } from './bench-timeline';
import { appsecDiagnosticCount } from './helpers';
import type { ExtensionApi } from '../../../src/extension';

export interface LatencyReady {
  url: string;
  token: string;
  deploymentSlug: string;
  project: string;
}
export interface LatencyFigure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  reference?: string;
}

export interface LatencyBenchDeps {
  readonly repo: string;
  readonly commit: string;
  readonly project: string;
  readonly folder: vscode.WorkspaceFolder;
  readonly api: ExtensionApi;
  /** The limit job (every page of both kinds at once, plainly), in ms. */
  readonly limitJob: (ready: LatencyReady) => Promise<number>;
  /** When the last limit job began (epoch ms) and how long it built and set its diagnostics. */
  readonly limitTimes: () => { startedAt: number; showMs: number };
  readonly windowQuiet: () => Promise<void>;
  readonly median: (runs: readonly number[]) => number;
  /** Profiles `work`; `window` names, from its result and the profiler's clock now, the stretch to summarize. */
  readonly profileTail?: <T>(
    work: () => Promise<T>,
    window: (result: T, nowUs: number) => { ms: number; fromUs: number; toUs: number },
  ) => Promise<{ result: T; summary: string[] }>;
}

function startLatencyServer(deps: LatencyBenchDeps): Promise<{ child: ChildProcess; ready: LatencyReady }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(deps.repo, 'test/bench/server-child.ts'), JSON.stringify({ hostBenchCommit: deps.commit, latencyProject: deps.project })],
    {
      cwd: deps.repo,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, ready: message as LatencyReady }));
    child.once('exit', (code) => reject(new Error(`the latency bench platform exited (code ${code})`)));
  });
}

/** Sends the platform a message and resolves with the first answer that has `key`. */
function ask<T>(child: ChildProcess, message: object, key: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (answer: unknown): void => {
      if (typeof answer === 'object' && answer !== null && key in answer) {
        child.off('message', onMessage);
        resolve((answer as Record<string, T>)[key]);
      }
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

const waitUntil = async (predicate: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

/** "depth 2 of 9 requests: 1 ×8, 2 ×1", and the first requests of each depth, for the note. */
function describeTrips(report: RoundTripReport): string {
  const byDepth = new Map<number, string[]>();
  for (const entry of report.timeline)
    byDepth.set(entry.depth, [
      ...(byDepth.get(entry.depth) ?? []),
      entry.url.replace(/^\/api\/v1\/deployments\/[^/]+/, '').replace(/&?(status=open|dedup=true)/g, ''),
    ]);
  return [...byDepth].map(([depth, urls]) => `${depth}: ${urls.length} (${urls.slice(0, 6).join(' ; ')}${urls.length > 6 ? ' ; …' : ''})`).join(' | ');
}

export async function measureLatency(deps: LatencyBenchDeps): Promise<{ figures: LatencyFigure[]; timelines: string[] }> {
  const { api, folder } = deps;
  const figures: LatencyFigure[] = [];
  const timelines: string[] = [];
  const { child, ready } = await startLatencyServer(deps);
  const setLatency = (ms: number): Promise<unknown> => ask(child, { latencyMs: ms }, 'latencySet');
  const mark = (): Promise<unknown> => ask(child, { markRoundTrips: true }, 'roundTripsMarked');
  const trips = (): Promise<RoundTripReport> => ask<RoundTripReport>(child, { roundTrips: true }, 'roundTripsAre');
  const moveFindings = (round: number): Promise<number> =>
    ask<number>(child, { moveFindings: { count: LATENCY_BENCH.movedPerRefresh, round } }, 'findingsMoved');
  const total = LATENCY_BENCH.sast + LATENCY_BENCH.sca;
  try {
    // Another deployment: signed out of the first, signed in to this one with nothing cached.
    await vscode.commands.executeCommand('appsecFindings.signOut');
    await vscode.workspace.getConfiguration('appsecFindings').update('baseUrl', ready.url, vscode.ConfigurationTarget.Global);
    await setLatency(1000);
    // (k) 5 000 projects at 1 000 ms: the workspace's project in the tree, then the whole list.
    const tree = api.trees.projects;
    const projectsShown = (): number => tree.getChildren().filter((n) => n.kind === 'project').length;
    const workspaceProjectShown = (): boolean => tree.getChildren().some((n) => n.kind === 'project' && n.project.name === ready.project);
    await mark();
    let signedInAt = 0;
    const listening = api.app.session.onDidChange((state) => {
      if (state.kind === 'signedIn' && signedInAt === 0) signedInAt = performance.now();
    });
    const signingIn = vscode.commands.executeCommand('appsecFindings.signIn', ready.token);
    await waitUntil(() => signedInAt > 0, 30_000, 'signed in');
    listening.dispose();
    await waitUntil(workspaceProjectShown, 60_000, "the workspace's project is in the tree");
    const projectMs = performance.now() - signedInAt;
    await waitUntil(() => projectsShown() >= LATENCY_BENCH.projects, 120_000, `all ${LATENCY_BENCH.projects} projects are in the tree`);
    const allMs = performance.now() - signedInAt;
    await signingIn;
    const signInTrips = await trips();
    timelines.push('', `sign-in at 1 000 ms, requests by round trip: ${describeTrips(signInTrips)}`);
    figures.push({
      name: `(k) ${LATENCY_BENCH.projects} projects, 1 000 ms: the workspace's project in the tree after sign-in`,
      value: projectMs,
      unit: 'ms',
      target: '≤ 1 300 ms',
    });
    figures.push({
      name: `    the whole list in the tree after sign-in`,
      value: allMs,
      unit: 'ms',
      target: '≤ 3 round trips',
      reference: `${(allMs / 1000).toFixed(1)} round trips of 1 000 ms; ${signInTrips.requests} requests, ${signInTrips.depth} in a row including sign-in's own`,
    });
    await api.app.view.settled();

    // (i) Refresh at 150 and 1 000 ms, next to the limit job; the requests in a row before Problems
    // is drawn. Then (l) the refresh that changes nothing, the one users see most (auto-refresh, a
    // window back in focus), at 0 ms too: each timed one comes after a refresh of the same data.
    const scenarios = [...[150, 1000].map((latency) => ({ latency, moved: true })), ...[0, 150, 1000].map((latency) => ({ latency, moved: false }))];
    for (const { latency, moved } of scenarios) {
      await setLatency(latency);
      if (!moved) await vscode.commands.executeCommand('appsecFindings.refresh');
      const ours: number[] = [];
      const limits: number[] = [];
      // From the last answer the platform sent to the last diagnostic handed to the window: the
      // extension's own work once nothing is awaited from the network.
      const tails: number[] = [];
      // The same stretch for the limit job: the last page's transfer and parse are in both.
      const limitTails: number[] = [];
      let report: RoundTripReport | undefined;
      const phases: string[] = [];
      for (let round = 0; round < 3; round++) {
        // Each refresh brings what a new scan changed since the last one, or nothing.
        if (moved) await moveFindings(latency + round);
        await deps.windowQuiet();
        await mark();
        const started = performance.now();
        const refresh = async (): Promise<{ ended: number; lastSet: number; trips: RoundTripReport }> => {
          const watching = watchRefresh(api);
          await vscode.commands.executeCommand('appsecFindings.refresh');
          const ended = performance.now();
          const seen = watching.stop();
          const report = await trips();
          phases.push(`  round ${round + 1}, ours: ${describeOurTimeline(report, seen)}`);
          // The last diagnostic handed over (the listeners that follow it, the status bar and the
          // cache writer, run before the command resolves).
          const lastSet = seen.sets.length > 0 ? seen.sets[seen.sets.length - 1].at - performance.timeOrigin : ended;
          return { ended, lastSet, trips: report };
        };
        const tailOf = (r: { lastSet: number; trips: RoundTripReport }): number =>
          performance.timeOrigin + r.lastSet - (r.trips.markedAtEpoch + Math.max(...r.trips.timeline.map((e) => e.answered ?? 0)));
        const profiling = deps.profileTail && round === 2 && latency === 150;
        const measured = profiling
          ? await deps.profileTail(refresh, (r, nowUs) => {
              // The profiler's clock is hrtime's: the tail ended (now − ended) ago and lasted tailOf(r).
              const toUs = nowUs - (performance.now() - r.lastSet) * 1000;
              return { ms: tailOf(r), fromUs: toUs - tailOf(r) * 1000, toUs };
            })
          : { result: await refresh(), summary: [] };
        if (profiling)
          timelines.push(
            '',
            `what ran from the last answer to the last diagnostic (${moved ? 'moved' : 'unchanged'}, 150 ms, last round):`,
            ...measured.summary,
          );
        ours.push(measured.result.ended - started);
        report = measured.result.trips;
        tails.push(tailOf(measured.result));
        await new Promise((r) => setTimeout(r, 1500));
        await deps.windowQuiet();
        await mark();
        const limitMs = await deps.limitJob(ready);
        limits.push(limitMs);
        const limitTrips = await trips();
        const { startedAt, showMs } = deps.limitTimes();
        limitTails.push(tailOf({ lastSet: startedAt - performance.timeOrigin + limitMs, trips: limitTrips }));
        phases.push(`  round ${round + 1}, the limit job: ${describeLimitTimeline(limitTrips, startedAt, startedAt + limitMs, showMs)}`);
      }
      assert.ok(appsecDiagnosticCount() >= LATENCY_BENCH.sast, `${appsecDiagnosticCount()} diagnostics shown`);
      const ourMs = deps.median(ours);
      const limitMs = deps.median(limits);
      const what = moved ? `${LATENCY_BENCH.movedPerRefresh} moved since the last` : 'unchanged since the last';
      timelines.push(
        '',
        `refresh (${what}) at ${latency} ms, requests by round trip: ${describeTrips(report!)}`,
        `refresh (${what}) at ${latency} ms, phase by phase (ms from its start):`,
        ...phases,
      );
      const target = moved ? (latency === 150 ? '1.3' : '1.2') : latency === 0 ? '1.0' : latency === 150 ? '1.2' : '1.1';
      figures.push({
        name: `(${moved ? 'i' : 'l'}) refresh → ${total} diagnostics (${what}), ${latency} ms latency`,
        value: ourMs,
        unit: 'ms',
        target: `≤ ${target} × limit`,
        reference: `limit ${limitMs.toFixed(0)} ms (×${(ourMs / limitMs).toFixed(2)}); runs ${ours.map((r) => r.toFixed(0)).join('/')} vs ${limits.map((r) => r.toFixed(0)).join('/')}`,
      });
      figures.push({
        name: '    round trips in a row until Problems is drawn',
        value: report!.depth,
        unit: 'count',
        target: '≤ 2',
        reference: `${report!.requests} requests`,
      });
      figures.push({
        name: '    last diagnostic after the last answer',
        value: deps.median(tails),
        unit: 'ms',
        target: '≤ 100 ms',
        reference: `runs ${tails.map((t) => t.toFixed(0)).join('/')}; the limit job's ${limitTails.map((t) => t.toFixed(0)).join('/')}`,
      });
    }

    // (j) A start with no cache at 1 000 ms: the open file's first diagnostic.
    await setLatency(1000);
    const openUri = vscode.Uri.joinPath(folder.uri, benchFile(7));
    await vscode.window.showTextDocument(openUri);
    const firsts: number[] = [];
    let coldReport: RoundTripReport | undefined;
    for (let round = 0; round < 3; round++) {
      api.app.clearAll();
      api.app.diagnostics.clear();
      await deps.windowQuiet();
      await mark();
      let firstMs: number | undefined;
      const started = performance.now();
      const watching = vscode.languages.onDidChangeDiagnostics((e) => {
        if (
          firstMs === undefined &&
          e.uris.some((u) => u.toString() === openUri.toString()) &&
          vscode.languages.getDiagnostics(openUri).some((d) => d.source === 'AppSec')
        )
          firstMs = performance.now() - started;
      });
      await api.app.startFromCache();
      await api.app.refreshAll(false);
      watching.dispose();
      coldReport = await trips();
      firsts.push(firstMs ?? Number.NaN);
    }
    timelines.push('', `start with no cache at 1 000 ms, requests by round trip: ${describeTrips(coldReport!)}`);
    figures.push({
      name: "(j) start with no cache, 1 000 ms: the open file's first diagnostic",
      value: deps.median(firsts),
      unit: 'ms',
      target: '≤ 1 300 ms',
      reference: `starts ${firsts.map((ms) => ms.toFixed(0)).join('/')} ms; ${coldReport!.depth} round trips in a row until all is drawn`,
    });
    await setLatency(0);
    return { figures, timelines };
  } finally {
    child.disconnect();
  }
}
