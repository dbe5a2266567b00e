/**
 * `scans/search` (docs/platform-api.md, "Scans"): the commit a branch was last scanned at, and
 * the branches a repository has scans of. It covers the last 30 days and its order is not
 * documented, so each reads at most a few pages and sorts what it read itself.
 */
import { decodeScansPage, latestWithCommit } from '../model/decodeScan';
import { branchName } from '../model/refs';
import type { Scan } from '../model/types';
import { deploymentPath, type CallOptions } from './endpoints';
import type { PlatformHttp } from './http';
import { said, type Said } from '../l10n';

const MAX_SCAN_PAGES = 5;

interface ScanQuery {
  readonly repository_id: number;
  readonly branch?: string;
  readonly statuses: readonly string[];
  readonly limit: number;
}

async function searchScans(http: PlatformHttp, deploymentId: string, query: ScanQuery, what: Said, options: CallOptions): Promise<Scan[]> {
  const path = `${deploymentPath(deploymentId)}/scans/search`;
  const seen: Scan[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    // A search only reads, so it is retried like a GET.
    const body = await http.requestJson({
      method: 'POST',
      path,
      body: { ...query, ...(cursor ? { cursor } : {}) },
      what,
      access: 'product',
      idempotent: true,
      signal: options.signal,
    });
    const decoded = decodeScansPage(body);
    seen.push(...decoded.scans);
    if (!decoded.nextCursor || decoded.nextCursor === cursor || decoded.scans.length === 0) break;
    cursor = decoded.nextCursor;
  }
  return seen;
}

/** The newest completed scan of a repository's branch that names its commit. */
export async function latestScan(
  http: PlatformHttp,
  deploymentId: string,
  repositoryId: number,
  branch: string,
  options: CallOptions = {},
): Promise<Scan | undefined> {
  const query = { repository_id: repositoryId, branch, statuses: ['SCAN_STATUS_COMPLETED'], limit: 100 };
  return latestWithCommit(await searchScans(http, deploymentId, query, said('the scans of {0}', branch), options));
}

/**
 * The branches a repository has completed scans of, most recently scanned first, by their short
 * names; pull-request refs are not branches and are left out.
 */
export async function scannedBranches(http: PlatformHttp, deploymentId: string, repositoryId: number, options: CallOptions = {}): Promise<string[]> {
  const query = { repository_id: repositoryId, statuses: ['SCAN_STATUS_COMPLETED'], limit: 500 };
  const scans = await searchScans(http, deploymentId, query, said('the scanned branches'), options);
  const newest = new Map<string, number>();
  for (const scan of scans) {
    const branch = scan.branch === undefined ? undefined : branchName(scan.branch);
    if (branch === undefined || branch.startsWith('refs/')) continue;
    const when = (scan.completedAt ?? scan.startedAt)?.getTime() ?? 0;
    newest.set(branch, Math.max(when, newest.get(branch) ?? 0));
  }
  return [...newest].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([branch]) => branch);
}
