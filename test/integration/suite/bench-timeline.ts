// One refresh's timeline, phase by phase, for bench:host's latency figures: when the requests
// reached the platform and their answers left it (the platform's count), when the workspace view
// had its findings decoded and indexed, and when Problems handed diagnostics to VS Code. Watched
// from outside the extension, through objects its API already exposes.
import type { RoundTripReport } from '../../platform/round-trips';
import type { ExtensionApi } from '../../../src/extension';

interface HostMarks {
  readonly startedAt: number;
  readonly viewChanges: number[];
  readonly sets: { at: number; diagnostics: number }[];
}

const epochNow = (): number => performance.timeOrigin + performance.now();

/** Starts watching a refresh; `stop` ends it and gives what was seen, in epoch milliseconds. */
export function watchRefresh(api: ExtensionApi): { stop(): HostMarks & { endedAt: number } } {
  const marks: HostMarks = { startedAt: epochNow(), viewChanges: [], sets: [] };
  const listening = api.app.view.onDidChange(() => marks.viewChanges.push(epochNow()));
  const collection = api.app.diagnostics.collection;
  const set = collection.set.bind(collection) as (...args: unknown[]) => void;
  // Wrapped on the instance only while watching: the count is what Problems handed over.
  collection.set = (...args: unknown[]) => {
    type Entry = readonly [unknown, readonly unknown[] | undefined];
    const entries: readonly Entry[] = Array.isArray(args[0]) ? (args[0] as Entry[]) : [[args[0], args[1] as readonly unknown[] | undefined]];
    marks.sets.push({ at: epochNow(), diagnostics: entries.reduce((n, entry) => n + (entry[1]?.length ?? 0), 0) });
    set(...args);
  };
  return {
    stop() {
      listening.dispose();
      delete (collection as { set?: unknown }).set;
      return { ...marks, endedAt: epochNow() };
    },
  };
}

const span = (from: number, to: number): string => `+${from.toFixed(0)}…+${to.toFixed(0)}`;

/** Requests and answers, as the platform saw them, in ms from `startedAt`. */
function requestPhases(trips: RoundTripReport, startedAt: number): string {
  const at = (ms: number): number => trips.markedAtEpoch + ms - startedAt;
  const arrived = trips.timeline.map((e) => at(e.arrived));
  const answered = trips.timeline.filter((e) => e.answered !== undefined).map((e) => at(e.answered!));
  const findings = trips.timeline.filter((e) => e.url.includes('/findings') && e.answered !== undefined).map((e) => at(e.answered!));
  return [
    `${trips.requests} requests reached the platform ${span(Math.min(...arrived), Math.max(...arrived))}`,
    `answers left it ${span(Math.min(...answered), Math.max(...answered))}${findings.length > 0 ? ` (the findings' last +${Math.max(...findings).toFixed(0)})` : ''}`,
  ].join('; ');
}

/** "requests …; answers …; view ready …; drawn …; resolved …" for one refresh of ours. */
export function describeOurTimeline(trips: RoundTripReport, marks: HostMarks & { endedAt: number }): string {
  const rel = (epoch: number): number => epoch - marks.startedAt;
  const drawn = marks.sets.filter((s) => s.diagnostics > 0);
  return [
    requestPhases(trips, marks.startedAt),
    marks.viewChanges.length > 0 ? `the view's snapshots ${marks.viewChanges.map((t) => `+${rel(t).toFixed(0)}`).join(' ')}` : 'no view snapshot',
    drawn.length > 0
      ? `${drawn.reduce((n, s) => n + s.diagnostics, 0)} diagnostics handed over in ${drawn.length} sets ${span(rel(drawn[0].at), rel(drawn[drawn.length - 1].at))}`
      : 'nothing handed over',
    `the refresh resolved +${rel(marks.endedAt).toFixed(0)}`,
  ].join('; ');
}

/** The limit job's: its requests and answers, then building and setting every diagnostic. */
export function describeLimitTimeline(trips: RoundTripReport, startedAt: number, endedAt: number, showMs: number): string {
  const rel = (epoch: number): number => epoch - startedAt;
  return [requestPhases(trips, startedAt), `built and set ${span(rel(endedAt) - showMs, rel(endedAt))}`].join('; ');
}

export { epochNow };
