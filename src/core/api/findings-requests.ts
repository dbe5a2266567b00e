/**
 * The findings endpoints: the list of code, AI code and supply-chain findings (offset pages),
 * the secrets list (cursor pages), and one finding's whole detail, found again through the list.
 * `PlatformClient` exposes them; they read through its `ReadJson`.
 */
import { decodeFindingsPageInSlices, rawFindings, type FindingsPage } from '../model/decodeFinding';
import { decodeFindingDetail } from '../model/decodeFindingDetail';
import { asObject } from '../model/decodeRead';
import { decodeSecretsPage } from '../model/decodeSecret';
import { kindOf } from '../model/finding-kinds';
import type { FindingDetail } from '../model/finding-detail';
import { StringInterner } from '../model/interner';
import { isKnownSeverity } from '../model/severity';
import type { Finding, FindingFilters, ListIssueType } from '../model/types';
import { encodeFindingsQuery, encodeSecretsQuery } from './encoding';
import { deploymentPath, pageSignature, type CallOptions, type PagedCallOptions, type ReadJson } from './endpoints';
import { ownTurn } from './http';
import { SAME_BODY } from './body-identity';
import { checkPageSize, cursorPages, offsetPages, pageHintsOf } from './paging';
import { said } from '../l10n';

export interface FindingsCallOptions extends PagedCallOptions {
  /** One per sync, shared by all its pages, so repeated strings are stored once. */
  readonly interner?: StringInterner;
  /** What this list's page made last time, when kept: the same bytes again give it back unparsed. */
  readonly previousPage?: (page: number) => KeptPage | undefined;
}

/** A page as its reader kept it: the digest of its body, its findings (as held), what the pager needs. */
export interface KeptPage {
  readonly digest: string;
  readonly findings: readonly Finding[];
  readonly skipped: number;
  readonly rawCount: number;
}

/** A findings page with where it came from: its index in the list and its body's digest (offset lists only). */
export interface ReadFindingsPage extends FindingsPage {
  readonly from?: { readonly page: number; readonly digest: string; readonly rawCount: number };
}

/**
 * Findings page size: the most the API gives (100..3000). The real service takes about as long
 * per request whatever its size, so fewer, larger pages are what makes a refresh quick
 * (docs/performance.md, "Refresh").
 */
export const DEFAULT_FINDINGS_PAGE_SIZE = 3000;
/** Secrets per page: the list is cursor-paged; a few hundred keep each answer quick. */
export const DEFAULT_SECRETS_LIMIT = 500;
/** Finding details: pages of the narrowed list read before giving up. */
const DETAIL_PAGE_SIZE = 1000;
const MAX_DETAIL_PAGES = 10;

/** Spec 4.2, page by page (offset paging, later pages fetched `concurrency` at a time but yielded in order). */
export function findingsPages(
  read: ReadJson,
  deploymentSlug: string,
  issueType: ListIssueType,
  filters: FindingFilters,
  options: FindingsCallOptions,
  concurrency: number,
): AsyncGenerator<ReadFindingsPage, void, undefined> {
  const pageSize = checkPageSize(options.pageSize ?? DEFAULT_FINDINGS_PAGE_SIZE, 100, 3000, 'page_size');
  // Encoded once up front, so a bad filter fails before any request is made.
  encodeFindingsQuery(issueType, filters, 0, pageSize);
  const path = `${deploymentPath(deploymentSlug)}/findings`;
  const interner = options.interner ?? new StringInterner();
  const what =
    issueType === 'sca'
      ? said('the supply-chain findings of deployment {0}', deploymentSlug)
      : issueType === 'ai_sast'
        ? said('the AI code findings of deployment {0}', deploymentSlug)
        : said('the code findings of deployment {0}', deploymentSlug);
  return offsetPages(
    async (page, signal): Promise<{ value: ReadFindingsPage; rawCount: number; signature: string | undefined }> => {
      // A page sent again byte for byte is what it made last time, unparsed (an unchanged refresh).
      const kept = options.previousPage?.(page);
      let digest = '';
      const identity = {
        unless: kept?.digest,
        seen: (d: string) => {
          digest = d;
        },
      };
      const body = await read(path, encodeFindingsQuery(issueType, filters, page, pageSize), what, { signal, identity });
      if (body === SAME_BODY && kept) {
        return {
          value: { findings: [...kept.findings], skipped: kept.skipped, from: { page, digest, rawCount: kept.rawCount } },
          rawCount: kept.rawCount,
          signature: pageSignature(kept.findings, (f) => f.id),
        };
      }
      const decoded = await decodeFindingsPageInSlices(body, issueType, interner, ownTurn);
      const from = { page, digest, rawCount: decoded.rawCount };
      return {
        value: { findings: decoded.findings, skipped: decoded.skipped, from },
        rawCount: decoded.rawCount,
        signature: pageSignature(decoded.findings, (f) => f.id),
      };
    },
    { pageSize, concurrency: options.concurrency ?? concurrency, signal: options.signal, ...pageHintsOf(options) },
  );
}

/**
 * Secrets findings, page by page (cursor paging; the path takes the deployment's id). The list
 * has no branch filter: every ref of the repository comes, and the caller keeps the one it shows.
 */
export function secretsPages(
  read: ReadJson,
  deploymentId: string,
  filters: FindingFilters,
  options: FindingsCallOptions,
): AsyncGenerator<FindingsPage, void, undefined> {
  const limit = checkPageSize(options.pageSize ?? DEFAULT_SECRETS_LIMIT, 1, 1000, 'limit');
  const path = `${deploymentPath(deploymentId)}/secrets`;
  const interner = options.interner ?? new StringInterner();
  return cursorPages(
    async (cursor, signal) => {
      const page = decodeSecretsPage(await read(path, encodeSecretsQuery(filters, cursor, limit), said('the secrets findings'), { signal }), interner);
      return { value: { findings: page.findings, skipped: page.skipped }, nextCursor: page.nextCursor, rawCount: page.rawCount };
    },
    { signal: options.signal },
  );
}

/**
 * The whole finding, found again through the list (there is no single-finding endpoint),
 * narrowed by what is known of it: repository, ref, rule (code) and severity.
 */
export async function findFindingDetail(read: ReadJson, deploymentSlug: string, finding: Finding, options: CallOptions): Promise<FindingDetail | undefined> {
  // A secret's list item is all there is of it (and never holds the secret).
  const kind = listIssueTypeOf(finding);
  if (kind === undefined) return { ...finding, categories: [], reviewComments: [], clickToFixPrUrls: [], clickToFixFailures: [] };
  // The list's severity filter takes only the severities it knows; another would match nothing.
  const severity = isKnownSeverity(finding.severity) ? [finding.severity] : undefined;
  const filters: FindingFilters = {
    ...(finding.repositoryName ? { repos: [finding.repositoryName] } : {}),
    ...(finding.ref ? { ref: finding.ref } : {}),
    ...(kindOf(finding).ruled ? { rules: [finding.ruleName] } : {}),
    ...(severity ? { severities: severity } : {}),
  };
  const path = `${deploymentPath(deploymentSlug)}/findings`;
  for (let page = 0; page < MAX_DETAIL_PAGES; page++) {
    const body = await read(path, encodeFindingsQuery(kind, filters, page, DETAIL_PAGE_SIZE), said("the finding's details"), options);
    const items = rawFindings(body, kind);
    const raw = items.find((item) => asObject(item)?.id === finding.id);
    if (raw) return decodeFindingDetail(raw, kind);
    if (items.length < DETAIL_PAGE_SIZE) return undefined;
  }
  return undefined;
}

/** How the findings list is asked for a finding's kind (AI code findings have their own issue type); undefined for a kind it does not list. */
export function listIssueTypeOf(finding: Pick<Finding, 'issueType' | 'ai'>): ListIssueType | undefined {
  const { list } = kindOf(finding);
  if (list === 'secrets') return undefined;
  return finding.ai ? 'ai_sast' : list.issueType;
}
