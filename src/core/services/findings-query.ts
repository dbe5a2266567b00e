/**
 * What a view asks the store for (a query) and what it gets back (an answer), shared by the
 * store, the fetcher that loads a query, and everything that reads answers. Equal queries have
 * equal keys: that is how two views showing the same branch share one load.
 */
import type { Finding, FindingFilters, IssueType } from '../model/types';
import type { Unavailable } from './kind-availability';
import { kindOf } from '../model/finding-kinds';

export interface FindingsQuery {
  readonly deploymentSlug: string;
  readonly issueType: IssueType;
  readonly filters: FindingFilters;
}

export interface FindingsResult {
  readonly query: FindingsQuery;
  readonly findings: readonly Finding[];
  /** Malformed findings the decoder skipped (logged by the caller). */
  readonly skipped: number;
  readonly loadedAt: Date;
  /** Set when a later load failed: these findings are what was shown before. */
  readonly staleBecause?: unknown;
  /** The deployment does not have this kind: no findings, and not an error (`kind-availability.ts`). */
  readonly unavailable?: Unavailable;
  /** Code findings only: why the AI code findings are missing, or older than the rest. */
  readonly ai?: AiPart;
}

/**
 * The AI code findings come from a list of their own beside the code findings. When the
 * deployment lacks the AI analysis they are simply not there; when their list fails for a while,
 * the AI findings shown before stay (`since`: when they were loaded) and the code findings update.
 */
export type AiPart = { readonly unavailable: Unavailable } | { readonly failedBecause: unknown; readonly since?: Date };

export const queryKey = (q: FindingsQuery): string => JSON.stringify([q.deploymentSlug, q.issueType, q.filters]);

/** "code findings of acme/api on main (status open)", for the log. */
export function describeQuery(q: FindingsQuery): string {
  const { repos, ref, ...rest } = q.filters;
  const filters = Object.entries(rest)
    .filter(([k]) => k !== 'dedup')
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(',') : String(v)}`);
  return `${kindOf(q).englishPlural} of ${repos?.join(', ') ?? q.deploymentSlug}${ref ? ` on ${ref}` : ''}${filters.length > 0 ? ` (${filters.join('; ')})` : ''}`;
}

/**
 * When only the AI list failed, the AI findings shown before stay beside the new code findings
 * (marked with when they were loaded), as a failed kind keeps what it showed.
 */
export function keepEarlierAi(result: FindingsResult, earlier: FindingsResult | undefined): FindingsResult {
  const part = result.ai;
  if (!part || !('failedBecause' in part) || !earlier) return result;
  const earlierAi = earlier.findings.filter((f) => f.ai !== undefined);
  if (earlierAi.length === 0) return result;
  const since = earlier.ai && 'since' in earlier.ai && earlier.ai.since ? earlier.ai.since : earlier.loadedAt;
  return { ...result, findings: [...result.findings, ...earlierAi], ai: { failedBecause: part.failedBecause, since } };
}
