/**
 * Loads several kinds of findings through the store, each in its own slot and on its own: a kind
 * the deployment does not have answers empty (with why), a kind that fails leaves the others'
 * answers whole. The one way every reader loads kinds: Problems' folders keep their slots shown
 * and, for a kind that fails, what the slot showed before (marked stale); one-off readers (SARIF,
 * the agent's tools) release their slots and fail only when no kind answered.
 */
import { isCancelled } from '../model/errors';
import type { IssueType } from '../model/types';
import type { FindingsStore } from './findings-store';
import type { FindingsQuery, FindingsResult } from './findings-query';
import { gapsOfResult, gapsOfSlot, type KindGap } from './kind-gaps';
import { shownResult } from './slot-bindings';

export interface EachKind {
  /** The answers of the kinds that answered (a kind not available answers with no findings), and earlier answers kept for kinds that failed. */
  readonly results: readonly FindingsResult[];
  /** What could not be had fresh: kinds not available, and kinds that failed (with the error). */
  readonly gaps: readonly KindGap[];
  /** Some kind did not answer. */
  readonly failed: boolean;
}

export interface EachKindOptions {
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** Nothing keeps showing the answers: the slots are released, and a load where no kind answered fails. */
  readonly oneOff?: boolean;
}

export async function loadEachKind(
  store: Pick<FindingsStore, 'load' | 'release' | 'state'>,
  types: readonly IssueType[],
  slotOf: (issueType: IssueType) => string,
  queryOf: (issueType: IssueType) => FindingsQuery,
  options: EachKindOptions = {},
): Promise<EachKind> {
  const { force, signal, oneOff } = options;
  const settled = await Promise.allSettled(
    types.map(async (issueType) => {
      const slot = slotOf(issueType);
      try {
        return await store.load(slot, queryOf(issueType), { force, signal });
      } finally {
        // A one-off answer is shown by nothing: the store may drop it when it needs the room.
        if (oneOff) store.release(slot);
      }
    }),
  );
  const results: FindingsResult[] = [];
  const gaps: KindGap[] = [];
  let failed = false;
  for (const [i, outcome] of settled.entries()) {
    const issueType = types[i];
    if (outcome.status === 'fulfilled') {
      results.push(outcome.value);
      gaps.push(...gapsOfResult(outcome.value));
      continue;
    }
    // Cancelled is the caller's to hear: nothing was asked of the others either.
    if (isCancelled(outcome.reason) || signal?.aborted) throw outcome.reason;
    failed = true;
    if (oneOff) {
      gaps.push({ kind: issueType, failedBecause: outcome.reason });
      continue;
    }
    const state = store.state(slotOf(issueType));
    const earlier = shownResult(state);
    if (earlier) results.push(earlier);
    gaps.push(...gapsOfSlot(issueType, state));
  }
  // One-off, nothing answered: that is the load's failure, not a gap in it.
  const failure = gaps.find((g) => 'failedBecause' in g);
  if (oneOff && results.length === 0 && failure && 'failedBecause' in failure)
    throw failure.failedBecause instanceof Error ? failure.failedBecause : new Error(String(failure.failedBecause));
  return { results, gaps, failed };
}
