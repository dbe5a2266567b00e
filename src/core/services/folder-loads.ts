/**
 * What one folder shows of one ref: every kind in a store slot of its own (loaded by
 * `each-kind.ts`), and what the store already holds of them.
 */
import { ISSUE_TYPES, type IssueType } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-query';
import type { Place } from './place';
import { problemsSlot } from './slot-ids';

/** The store slot of each kind of a folder: its own branch's, or the primary branch's when it falls back. */
export function slotOf(key: string, which: 'branch' | 'primary'): (issueType: IssueType) => string {
  return (issueType) => problemsSlot(key, which, issueType);
}

/** Those slots, one per kind in `ISSUE_TYPES` order. */
export function slotsOf(key: string, which: 'branch' | 'primary'): string[] {
  return ISSUE_TYPES.map(slotOf(key, which));
}

/**
 * What `find` holds of every kind of a place, without a request; undefined when no kind has an
 * answer. A kind without one (it failed) is left out: the kinds that answered still show.
 */
export function heldPlace(find: (query: FindingsQuery) => FindingsResult | undefined, place: Place): FindingsResult[] | undefined {
  const results = ISSUE_TYPES.map((issueType) => find(place.queries[issueType])).filter((r): r is FindingsResult => r !== undefined);
  return results.length > 0 ? results : undefined;
}
