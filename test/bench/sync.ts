/**
 * The two ways the benchmark fetches every findings page of a deployment: through the
 * extension's PlatformClient, and the raw limit (undici `request()` + `JSON.parse`, nothing
 * else) with the same pages, page size and request schedule, so their ratio is the client's own
 * overhead: retries, checks, decoding, interning.
 */
import { Agent, request } from 'undici';
import type { PlatformClient } from '../../src/core/api/client';
import { StringInterner } from '../../src/core/model/interner';
import type { Finding, ListIssueType } from '../../src/core/model/types';

export const ISSUE_TYPES: readonly ListIssueType[] = ['sast', 'sca'];

export interface ClientSync {
  readonly findings: Finding[];
  readonly skipped: number;
}

/** What FindingsStore.fetchAll does, for both issue types: one interner for the whole sync. */
export async function clientSync(client: PlatformClient, slug: string, pageSize: number): Promise<ClientSync> {
  const interner = new StringInterner();
  const findings: Finding[] = [];
  let skipped = 0;
  for (const issueType of ISSUE_TYPES) {
    for await (const page of client.findings(slug, issueType, {}, { pageSize, interner })) {
      for (const finding of page.findings) findings.push(finding);
      skipped += page.skipped;
    }
  }
  // The interner goes out of scope here, as it does when a real sync ends.
  return { findings, skipped };
}

export interface RawTarget {
  readonly agent: Agent;
  readonly url: string;
  readonly token: string;
  readonly slug: string;
}

/**
 * Fetches and parses every page, keeping nothing but the item count; or, given `keep`, also
 * every page's parsed items (as a sync that keeps what it fetched must), so its collections
 * copy and promote them as the client's do its decoded findings.
 */
export async function rawSync(target: RawTarget, pageSize: number, concurrency: number, keep?: unknown[][]): Promise<number> {
  let total = 0;
  for (const issueType of ISSUE_TYPES) total += await rawPages(target, issueType, pageSize, concurrency, keep);
  return total;
}

/**
 * The schedule of the client's offsetPages: page 0 alone, then `concurrency` pages in flight,
 * consumed in order, until a short page; requests already sent beyond it are aborted.
 */
async function rawPages(target: RawTarget, issueType: ListIssueType, pageSize: number, concurrency: number, keep: unknown[][] | undefined): Promise<number> {
  const controller = new AbortController();
  const fetchCount = async (page: number): Promise<number> => {
    const url = `${target.url}/api/v1/deployments/${encodeURIComponent(target.slug)}/findings?issue_type=${issueType}&page=${page}&page_size=${pageSize}`;
    const { statusCode, body } = await request(url, {
      dispatcher: target.agent,
      headers: { authorization: `Bearer ${target.token}`, accept: 'application/json' },
      signal: controller.signal,
    });
    if (statusCode !== 200) {
      await body.dump();
      throw new Error(`raw fetch of ${issueType} page ${page}: HTTP ${statusCode}`);
    }
    const items = pageItems(JSON.parse(await body.text()), issueType);
    keep?.push(items);
    return items.length;
  };
  let total = 0;
  let lastPage = Number.POSITIVE_INFINITY;
  const inFlight = new Map<number, Promise<number>>();
  const send = (page: number): void => {
    const pending = fetchCount(page).then((count) => {
      // Known as soon as it arrives, as in offsetPages, so no later page is requested.
      if (count < pageSize) lastPage = Math.min(lastPage, page);
      return count;
    });
    pending.catch(() => undefined); // observed when its turn comes, or aborted unread
    inFlight.set(page, pending);
  };
  let next = 0;
  try {
    for (let page = 0; page <= lastPage; page++) {
      const window = page === 0 ? 1 : concurrency;
      while (next < page + window && next <= lastPage) send(next++);
      const pending = inFlight.get(page);
      if (!pending) throw new Error(`page ${page} was never requested`);
      inFlight.delete(page);
      total += await pending;
    }
  } finally {
    controller.abort();
  }
  return total;
}

function pageItems(parsed: unknown, issueType: ListIssueType): unknown[] {
  // The service's flat list, else the spec's envelope member.
  const items = field(parsed, 'findings') ?? field(field(parsed, issueType === 'sca' ? 'scaFindings' : 'sastFindings'), 'findings');
  if (!Array.isArray(items)) throw new Error(`raw ${issueType} page is not a findings envelope`);
  return items as unknown[];
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
