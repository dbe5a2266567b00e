/**
 * `POST …/scans/search` (docs/platform-api.md, "Scans"): `{ scans: [...], cursor }`. A scan
 * without an id is skipped; a commit is kept only when it looks like a SHA, because it is
 * handed to git.
 */
import { PlatformError } from './errors';
import { asObject, isObject, readBoolean, readSafeInteger, readString, readTimestamp } from './decodeRead';
import type { Scan } from './types';

export interface ScansPage {
  readonly scans: Scan[];
  readonly nextCursor?: string;
}

const SHA = /^[0-9a-f]{7,64}$/i;

export function decodeScansPage(body: unknown): ScansPage {
  if (!isObject(body) || (body.scans !== undefined && !Array.isArray(body.scans))) {
    throw new PlatformError('invalidResponse', 'The platform\'s list of scans is not what it should be (no "scans" list). Try again.');
  }
  const scans: Scan[] = [];
  for (const raw of (body.scans as unknown[] | undefined) ?? []) {
    const scan = asObject(raw);
    const id = scan && readSafeInteger(scan.id);
    if (!scan || id === undefined) continue;
    const commit = readString(scan.commit);
    scans.push({
      id,
      repositoryId: readSafeInteger(scan.repository_id),
      branch: readString(scan.branch),
      commit: commit && SHA.test(commit) ? commit.toLowerCase() : undefined,
      status: readString(scan.status),
      startedAt: readTimestamp(scan.started_at),
      completedAt: readTimestamp(scan.completed_at),
      isFullScan: readBoolean(scan.is_full_scan),
    });
  }
  const cursor = readString(body.cursor);
  return { scans, ...(cursor ? { nextCursor: cursor } : {}) };
}

/** The most recently completed scan that names a commit, or undefined. */
export function latestWithCommit(scans: readonly Scan[]): Scan | undefined {
  let best: Scan | undefined;
  for (const scan of scans) {
    if (!scan.commit) continue;
    const when = (scan.completedAt ?? scan.startedAt)?.getTime() ?? 0;
    const bestWhen = best ? ((best.completedAt ?? best.startedAt)?.getTime() ?? 0) : -1;
    if (when > bestWhen) best = scan;
  }
  return best;
}
