/**
 * Loads several kinds of findings through the store, each on its own: a kind the deployment does
 * not have answers empty (with why), a kind that fails leaves the others' answers whole. For the
 * one-off readers (SARIF, the agent's tools) that do not keep a slot shown.
 */
import { PlatformError } from '../model/errors';
import type { IssueType } from '../model/types';
import type { FindingsStore } from './findings-store';
import type { FindingsQuery, FindingsResult } from './findings-query';
import { gapsOfResult, type KindGap } from './kind-gaps';

export interface EachKind {
  /** The answers of the kinds that answered (a kind not available answers with no findings); when none did, the load fails. */
  readonly results: readonly FindingsResult[];
  /** What could not be had fresh: kinds not available, and kinds that failed (with the error). */
  readonly gaps: readonly KindGap[];
}

export async function loadEachKind(
  store: Pick<FindingsStore, 'load' | 'release'>,
  types: readonly IssueType[],
  slotOf: (issueType: IssueType) => string,
  queryOf: (issueType: IssueType) => FindingsQuery,
  signal?: AbortSignal,
): Promise<EachKind> {
  const settled = await Promise.allSettled(types.map(async (issueType) => {
    const slot = slotOf(issueType);
    try {
      return await store.load(slot, queryOf(issueType), signal ? { signal } : {});
    } finally {
      // Nothing keeps showing a one-off answer: the store may drop it when it needs the room.
      store.release(slot);
    }
  }));
  const results: FindingsResult[] = [];
  const gaps: KindGap[] = [];
  for (const [i, outcome] of settled.entries()) {
    if (outcome.status === 'fulfilled') {
      results.push(outcome.value);
      gaps.push(...gapsOfResult(outcome.value));
    } else {
      // Cancelled is the caller's to hear: nothing was asked of the others either.
      if (PlatformError.is(outcome.reason, 'cancelled') || signal?.aborted) throw outcome.reason;
      gaps.push({ kind: types[i], failedBecause: outcome.reason });
    }
  }
  // Nothing answered: that is the load's failure, not a gap in it.
  const failure = gaps.find((g) => 'failedBecause' in g);
  if (results.length === 0 && failure && 'failedBecause' in failure) throw failure.failedBecause instanceof Error ? failure.failedBecause : new Error(String(failure.failedBecause));
  return { results, gaps };
}
