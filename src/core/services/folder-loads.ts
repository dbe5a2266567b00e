/**
 * Loading what one folder shows of one ref: every kind in a store slot of its own, each loading
 * and failing on its own, so a kind the deployment lacks or that fails never takes the others
 * with it.
 */
import { isCancelled } from '../model/errors';
import { ISSUE_TYPES, type Finding, type IssueType } from '../model/types';
import type { FindingsStore } from './findings-store';
import { shownResult } from './slot-bindings';
import type { FindingsQuery, FindingsResult } from './findings-query';
import { gapsOfResult, gapsOfSlot, type KindGap } from './kind-gaps';

/** The store slots of a folder, one per kind: its own branch's, or the primary branch's when it falls back. */
export function slotsOf(key: string, which: 'branch' | 'primary'): string[] {
  return ISSUE_TYPES.map((issueType) => `problems:${key}:${which}:${issueType}`);
}

/**
 * Loads every kind of a ref into its slot. A kind that failed shows what its slot showed before
 * (marked stale), and the others show their answers; `failed`: some kind did not answer. A
 * cancelled load ends the whole load instead of being shown as a failed kind.
 */
export async function loadRef(
  store: Pick<FindingsStore, 'load' | 'state'>, slots: readonly string[], queryOf: (issueType: IssueType) => FindingsQuery, force: boolean,
): Promise<{ findings: Finding[]; gaps: KindGap[]; failed: boolean }> {
  const settled = await Promise.allSettled(ISSUE_TYPES.map((issueType, i) => store.load(slots[i], queryOf(issueType), { force })));
  const findings: Finding[] = [];
  const gaps: KindGap[] = [];
  let failed = false;
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'rejected' && isCancelled(outcome.reason)) throw outcome.reason;
    if (outcome.status === 'fulfilled') {
      for (const finding of outcome.value.findings) findings.push(finding);
      gaps.push(...gapsOfResult(outcome.value));
      continue;
    }
    const state = store.state(slots[i]);
    for (const finding of shownResult(state)?.findings ?? []) findings.push(finding);
    gaps.push(...gapsOfSlot(ISSUE_TYPES[i], state));
    failed = true;
  }
  return { findings, gaps, failed };
}

/**
 * What `find` holds of every kind of a ref, without a request; undefined when no kind has an
 * answer. A kind without one (it failed) is left out: the kinds that answered still show.
 */
export function heldRef(find: (query: FindingsQuery) => FindingsResult | undefined, queryOf: (issueType: IssueType) => FindingsQuery): FindingsResult[] | undefined {
  const results = ISSUE_TYPES.map((issueType) => find(queryOf(issueType))).filter((r): r is FindingsResult => r !== undefined);
  return results.length > 0 ? results : undefined;
}
