/**
 * What a refresh brought that was not shown before, for the "new findings" notification: only
 * findings that are problems (not fixed or ignored), only after a first answer (the first load
 * is not news), per folder and branch (switching branches is not news either).
 */
import { severityRank } from '../model/severity';
import type { Finding } from '../model/types';
import { runAtOnce, type Slices } from '../slices';
import { CLOSED_STATUSES } from './diagnostic-plan';

export interface ShownFolder {
  /** Folder, ref and filters: a change of any starts afresh (a branch switch or a filter is not news). */
  readonly key: string;
  readonly findings: readonly Finding[];
}

/** Findings compared per slice of the sliced comparison: a few milliseconds' work. */
const TRACK_SLICE = 10_000;

export class NewFindingsTracker {
  private readonly seen = new Map<string, Set<number>>();

  /** The findings of these folders not shown before under the same key; records what is shown now. */
  update(folders: readonly ShownFolder[]): Finding[] {
    return runAtOnce(this.updateSteps(folders));
  }

  /**
   * The same, pausing (yielding) every few thousand findings so 50 000 can be compared a slice per
   * turn of the event loop. What is shown is recorded only when the last slice is done, so a
   * comparison given up half way changes nothing.
   */
  *updateSteps(folders: readonly ShownFolder[]): Slices<Finding[]> {
    const fresh: Finding[] = [];
    const now = new Map<string, Set<number>>();
    let sinceYield = 0;
    for (const folder of folders) {
      const before = this.seen.get(folder.key);
      // One pass, no lists in between: this runs over every finding shown (50 000 and more).
      const ids = new Set<number>();
      for (const f of folder.findings) {
        if (++sinceYield >= TRACK_SLICE) {
          yield;
          sinceYield = 0;
        }
        if (CLOSED_STATUSES.has(f.status)) continue;
        ids.add(f.id);
        if (before && !before.has(f.id)) fresh.push(f);
      }
      now.set(folder.key, ids);
    }
    this.seen.clear();
    for (const [key, ids] of now) this.seen.set(key, ids);
    return fresh;
  }

  /** Forget everything (sign-out): the next answer is a first answer again. */
  clear(): void {
    this.seen.clear();
  }
}

/** "3 new findings on main: 1 critical, 2 high" for the notification. */
export function newFindingsMessage(fresh: readonly Finding[], ref: string | undefined): string {
  const bySeverity = new Map<string, number>();
  for (const f of fresh) bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
  const parts = [...bySeverity].sort(([a], [b]) => severityRank(a) - severityRank(b)).map(([severity, n]) => `${n} ${severity}`);
  return `${fresh.length} new finding${fresh.length === 1 ? '' : 's'}${ref ? ` on ${ref}` : ''}: ${parts.join(', ')}`;
}
