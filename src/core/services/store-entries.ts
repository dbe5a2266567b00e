/**
 * What the findings store holds per query (an entry): its answer, the load in flight, what
 * patches took out of it; and which entries to drop when answers no view shows hold too much.
 */
import type { KeptPages } from './findings-fetcher';
import type { Finding } from '../model/types';
import type { PatchTarget } from './finding-patches';
import type { FindingsQuery, FindingsResult } from './findings-query';

/** A load on its way. */
export interface Flight {
  readonly controller: AbortController;
  readonly promise: Promise<FindingsResult>;
  /** The patch sequence when the load started: later patches are applied to its answer. */
  readonly startSeq: number;
  /** The findings of its pages arrived so far (for "… so far", and drawn while nothing else is). */
  soFar?: readonly Finding[];
}

export interface Entry extends PatchTarget {
  readonly key: string;
  readonly query: FindingsQuery;
  result?: FindingsResult;
  error?: unknown;
  expired: boolean;
  flight?: Flight;
  /** Findings patches took out of this answer, to put back if a later patch makes them match. */
  removed?: Map<number, { finding: Finding; position: number }>;
  /** What the answer's pages made, for the next load to give back those sent again byte for byte. */
  pages?: KeptPages;
  lastUsed: number;
}

export interface Eviction {
  /** The keys of the entries to drop. */
  readonly drop: readonly string[];
  /** Whether answers that held findings go: the store's index of findings is then rebuilt. */
  readonly rebuildIndex: boolean;
}

/**
 * What the pages of a first load brought so far, as an answer: only while the query has no answer
 * of its own to show meanwhile. A copy, since the list grows with the next page.
 */
export function arrivingResult(entry: Entry | undefined): FindingsResult | undefined {
  const soFar = entry?.result ? undefined : entry?.flight?.soFar;
  return entry && soFar && soFar.length > 0 ? { query: entry.query, findings: [...soFar], skipped: 0, loadedAt: new Date() } : undefined;
}

/**
 * Among the entries no slot keeps (`kept`) and no load fills: those holding no answer (cancelled,
 * failed) are worth nothing and go; then the least recently used, while the rest hold more
 * findings than `limit`.
 */
export function evictionOf(entries: Iterable<Entry>, kept: ReadonlySet<string>, limit: number): Eviction {
  const unshown = [...entries].filter((e) => !kept.has(e.key) && !e.flight).sort((a, b) => a.lastUsed - b.lastUsed);
  const drop = unshown.filter((e) => !e.result).map((e) => e.key);
  let held = unshown.reduce((n, e) => n + (e.result?.findings.length ?? 0), 0);
  let rebuildIndex = false;
  for (const entry of unshown) {
    if (held <= limit) break;
    held -= entry.result?.findings.length ?? 0;
    drop.push(entry.key);
    rebuildIndex = true;
  }
  return { drop, rebuildIndex };
}

/**
 * Swaps outdated finding objects for their replacements in every held answer but `except`'s
 * (one object per finding: a changed finding replaces the old one everywhere). Gives the keys
 * of the answers it changed.
 */
export function replaceFindings(entries: Iterable<Entry>, replaced: ReadonlyMap<Finding, Finding>, except: FindingsQuery): string[] {
  const touched: string[] = [];
  for (const entry of entries) {
    const result = entry.result;
    if (!result || entry.query === except || !result.findings.some((f) => replaced.has(f))) continue;
    entry.result = { ...result, findings: result.findings.map((f) => replaced.get(f) ?? f) };
    touched.push(entry.key);
  }
  return touched;
}
