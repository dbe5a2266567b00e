import { decodeDeploymentsResponse } from '../model/decodeDeployment';
import { decodeTicketLinkResult, decodeTicketResult, decodeTriageResult, decodeUnlinkResult } from '../model/decodeActions';
import { decodeFindingsPageInSlices, rawFindings, type FindingsPage } from '../model/decodeFinding';
import { decodeFindingDetail } from '../model/decodeFindingDetail';
import { asObject } from '../model/decodeRead';
import { isHttpUrl } from '../model/links';
import { decodePoliciesResponse, decodePolicyRulesPage, type PolicyRulesPage } from '../model/decodePolicy';
import { decodeProjectResponse, decodeProjectsPage } from '../model/decodeProject';
import { decodeSbomExportCreated, decodeSbomExportStatus } from '../model/decodeSbom';
import { decodeSecretsPage } from '../model/decodeSecret';
import { decodeScansPage, latestWithCommit } from '../model/decodeScan';
import { StringInterner } from '../model/interner';
import type {
  Deployment, Finding, FindingDetail, FindingFilters, ListIssueType, Policy, PolicyRule, Project, SbomExportRequest, SbomExportStatus, Scan,
  TicketLinkResult, TicketRequest, TicketResult, TriageRequest, TriageResult,
} from '../model/types';
import {
  encodeCursorQuery,
  encodeFindingsQuery,
  encodeOffsetQuery,
  encodePathSegment,
  encodeProjectName,
  encodeSbomExportRequest,
  encodeSecretsQuery,
} from './encoding';
import { PlatformError } from './errors';
import type { EndpointAccess } from './statusErrors';
import { ownTurn, PlatformHttp, type PlatformHttpOptions } from './http';
import { checkPageSize, cursorPages, offsetPages } from './paging';

export interface PlatformClientOptions extends PlatformHttpOptions {
  /** Offset pages fetched at once after a full first page (default 4). */
  readonly concurrency?: number;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface PagedCallOptions extends CallOptions {
  readonly pageSize?: number;
  readonly concurrency?: number;
}

export interface FindingsCallOptions extends PagedCallOptions {
  /** One per sync, shared by all its pages, so repeated strings are stored once. */
  readonly interner?: StringInterner;
}

export interface PolicyRulesCallOptions extends CallOptions {
  /** Rules per page, 1..2000 (spec 4.1). */
  readonly limit?: number;
}

/**
 * Findings page size: the most the API gives (100..3000). The real service takes hundreds of
 * milliseconds per request whatever its size, so fewer, larger pages are what makes a refresh
 * quick (`npm run bench:host`: 50 000 findings at 150 ms latency).
 */
export const DEFAULT_FINDINGS_PAGE_SIZE = 3000;
/** Secrets per page: the list is cursor-paged; a few hundred keep each answer quick. */
export const DEFAULT_SECRETS_LIMIT = 500;
/** Projects: the documented default, as no maximum is documented to ask for more. */
export const DEFAULT_PROJECTS_PAGE_SIZE = 100;
export const DEFAULT_POLICY_RULES_LIMIT = 1000;
const DEFAULT_CONCURRENCY = 4;
const MAX_SCAN_PAGES = 5;
/** Finding details: pages of the narrowed list read before giving up. */
const DETAIL_PAGE_SIZE = 1000;
const MAX_DETAIL_PAGES = 10;

/** One method per endpoint of the platform (docs/platform-api.md). */
export class PlatformClient {
  private readonly http: PlatformHttp;
  private readonly concurrency: number;

  /** Throws `insecureUrl`/`invalidUrl` at once for an unusable base URL. */
  constructor(options: PlatformClientOptions) {
    this.http = new PlatformHttp(options);
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /** A token reaches one deployment, so this finds its id and slug from the token alone. */
  async listDeployments(options: CallOptions = {}): Promise<Deployment[]> {
    const body = await this.get('/api/v1/deployments', undefined, 'The deployment list', options, 'token');
    return decodeDeploymentsResponse(body);
  }

  async listPolicies(deploymentId: string, options: CallOptions = {}): Promise<Policy[]> {
    const path = `${deploymentPath(deploymentId)}/policies`;
    return decodePoliciesResponse(await this.get(path, undefined, `The policies of deployment ${deploymentId}`, options));
  }

  /** Spec 4.1, page by page (cursor paging). */
  policyRules(deploymentId: string, policyId: string, options: PolicyRulesCallOptions = {}): AsyncGenerator<PolicyRulesPage, void, undefined> {
    const limit = checkPageSize(options.limit ?? DEFAULT_POLICY_RULES_LIMIT, 1, 2000, 'limit');
    const path = `${deploymentPath(deploymentId)}/policies/${encodePathSegment(policyId, 'policy id')}`;
    const what = `Policy ${policyId}`;
    return cursorPages(async (cursor, signal) => {
      const page = decodePolicyRulesPage(await this.get(path, encodeCursorQuery(cursor, limit), what, { signal }));
      return { value: { policy: page.policy, rules: page.rules, skipped: page.skipped }, nextCursor: page.nextCursor, rawCount: page.rawCount };
    }, { signal: options.signal });
  }

  async listPolicyRules(deploymentId: string, policyId: string, options: PolicyRulesCallOptions = {}): Promise<PolicyRulesPage> {
    let policy: Policy | undefined;
    const rules: PolicyRule[] = [];
    let skipped = 0;
    for await (const page of this.policyRules(deploymentId, policyId, options)) {
      policy ??= page.policy;
      rules.push(...page.rules);
      skipped += page.skipped;
    }
    return { policy, rules, skipped };
  }

  /** Spec 4.2, page by page (offset paging, later pages fetched concurrently but yielded in order). */
  findings(deploymentSlug: string, issueType: ListIssueType, filters: FindingFilters, options: FindingsCallOptions = {}): AsyncGenerator<FindingsPage, void, undefined> {
    const pageSize = checkPageSize(options.pageSize ?? DEFAULT_FINDINGS_PAGE_SIZE, 100, 3000, 'page_size');
    // Encoded once up front, so a bad filter fails before any request is made.
    encodeFindingsQuery(issueType, filters, 0, pageSize);
    const path = `${deploymentPath(deploymentSlug)}/findings`;
    const interner = options.interner ?? new StringInterner();
    const what = `The ${issueType === 'sca' ? 'supply-chain' : issueType === 'ai_sast' ? 'AI code' : 'code'} findings of deployment ${deploymentSlug}`;
    return offsetPages(async (page, signal) => {
      const body = await this.get(path, encodeFindingsQuery(issueType, filters, page, pageSize), what, { signal });
      const decoded = await decodeFindingsPageInSlices(body, issueType, interner, ownTurn);
      return { value: { findings: decoded.findings, skipped: decoded.skipped }, rawCount: decoded.rawCount, signature: pageSignature(decoded.findings, (f) => f.id) };
    }, { pageSize, concurrency: options.concurrency ?? this.concurrency, signal: options.signal });
  }

  /**
   * Secrets findings, page by page (cursor paging; the path takes the deployment's id). The list
   * has no branch filter: every ref of the repository comes, and the caller keeps the one it shows.
   */
  secrets(deploymentId: string, filters: FindingFilters, options: FindingsCallOptions = {}): AsyncGenerator<FindingsPage, void, undefined> {
    const limit = checkPageSize(options.pageSize ?? DEFAULT_SECRETS_LIMIT, 1, 1000, 'limit');
    const path = `${deploymentPath(deploymentId)}/secrets`;
    const interner = options.interner ?? new StringInterner();
    return cursorPages(async (cursor, signal) => {
      const page = decodeSecretsPage(await this.get(path, encodeSecretsQuery(filters, cursor, limit), 'The secrets findings', { signal }), interner);
      return { value: { findings: page.findings, skipped: page.skipped }, nextCursor: page.nextCursor, rawCount: page.rawCount };
    }, { signal: options.signal });
  }

  async listFindings(deploymentSlug: string, issueType: ListIssueType, filters: FindingFilters, options: FindingsCallOptions = {}): Promise<FindingsPage> {
    const findings: Finding[] = [];
    let skipped = 0;
    for await (const page of this.findings(deploymentSlug, issueType, filters, options)) {
      findings.push(...page.findings);
      skipped += page.skipped;
    }
    return { findings, skipped };
  }

  /** Triage (bulk): one request; the service checks and batches (docs/platform-api.md, "Triage and tickets"). */
  async triage(deploymentSlug: string, request: TriageRequest, options: CallOptions = {}): Promise<TriageResult> {
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentSlug)}/triage`,
      body: {
        issue_type: request.issueType,
        issue_ids: request.ids,
        ...(request.state ? { new_triage_state: request.state } : {}),
        ...(request.reason ? { new_triage_reason: request.reason } : {}),
        ...(request.note !== undefined && request.note !== '' ? { new_note: request.note } : {}),
      },
      what: `the triage of ${request.ids.length} finding${request.ids.length === 1 ? '' : 's'}`,
      access: 'write',
      signal: options.signal,
    });
    return decodeTriageResult(body);
  }

  /** Jira tickets (ids as strings, as the endpoint takes them). Never retried: a repeat could create a second ticket. */
  async createTickets(deploymentSlug: string, request: TicketRequest, options: CallOptions = {}): Promise<TicketResult> {
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentSlug)}/tickets`,
      body: {
        issue_type: request.issueType,
        issue_ids: request.ids.map(String),
        ...(request.groupIssues !== undefined ? { group_issues: request.groupIssues } : {}),
        ...(request.jiraProjectId ? { jira_project_id: request.jiraProjectId } : {}),
      },
      what: 'creating Jira tickets',
      access: 'write',
      signal: options.signal,
    });
    return decodeTicketResult(body);
  }

  /** Records an existing ticket on findings (the path takes the deployment's id). */
  async linkTicket(deploymentId: string, ticketUrl: string, ids: readonly number[], options: CallOptions = {}): Promise<TicketLinkResult> {
    if (!isHttpUrl(ticketUrl)) throw new PlatformError('badRequest', 'A ticket link starts with https:// (or http://).');
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentId)}/tickets/link`,
      body: { ticket_url: ticketUrl, issue_ids: ids.map(String) },
      what: 'linking the ticket',
      access: 'write',
      signal: options.signal,
    });
    return decodeTicketLinkResult(body);
  }

  async unlinkTicket(deploymentId: string, ids: readonly number[], options: CallOptions = {}): Promise<readonly number[]> {
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentId)}/tickets/unlink`,
      body: { issue_ids: ids.map(String) },
      what: 'unlinking the ticket',
      access: 'write',
      signal: options.signal,
    });
    return decodeUnlinkResult(body);
  }

  /**
   * The whole finding, found again through the list (there is no single-finding endpoint),
   * narrowed by what is known of it: repository, ref, rule (code) and severity.
   */
  async findingDetail(deploymentSlug: string, finding: Finding, options: CallOptions = {}): Promise<FindingDetail | undefined> {
    // A secret's list item is all there is of it (and never holds the secret).
    if (finding.issueType === 'secrets') return { ...finding, categories: [], reviewComments: [], clickToFixPrUrls: [], clickToFixFailures: [] };
    const kind = listIssueTypeOf(finding);
    const severity = ['low', 'medium', 'high', 'critical'].includes(finding.severity) ? [finding.severity] : undefined;
    const filters: FindingFilters = {
      ...(finding.repositoryName ? { repos: [finding.repositoryName] } : {}),
      ...(finding.ref ? { ref: finding.ref } : {}),
      ...(kind !== 'sca' ? { rules: [finding.ruleName] } : {}),
      ...(severity ? { severities: severity } : {}),
    };
    const path = `${deploymentPath(deploymentSlug)}/findings`;
    for (let page = 0; page < MAX_DETAIL_PAGES; page++) {
      const body = await this.get(path, encodeFindingsQuery(kind, filters, page, DETAIL_PAGE_SIZE), 'The finding\'s details', options);
      const items = rawFindings(body, kind);
      const raw = items.find((item) => asObject(item)?.id === finding.id);
      if (raw) return decodeFindingDetail(raw, kind);
      if (items.length < DETAIL_PAGE_SIZE) return undefined;
    }
    return undefined;
  }

  /** Spec 4.3. Never retried: a repeat after a lost answer could start a second job. */
  async createSbomExport(deploymentId: string, request: SbomExportRequest, options: CallOptions = {}): Promise<string> {
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentId)}/sbom/export`,
      body: encodeSbomExportRequest(deploymentId, request),
      what: `the SBOM export of repository ${request.repositoryId}`,
      access: 'write',
      signal: options.signal,
    });
    return decodeSbomExportCreated(body);
  }

  async getSbomExportStatus(deploymentId: string, taskToken: string, options: CallOptions = {}): Promise<SbomExportStatus> {
    const path = `${deploymentPath(deploymentId)}/sbom/export/${encodePathSegment(taskToken, 'task token')}`;
    return decodeSbomExportStatus(await this.get(path, undefined, 'The SBOM export job', options));
  }

  /**
   * The latest completed scan of a repository's branch that names its commit (`scans/search`,
   * docs/platform-api.md "Scans"; it covers the last 30 days). Reads at most a few pages: the
   * newest scans are what matter, and the answer's order is not documented.
   */
  download(link: string, what: string, maxBytes: number, options: CallOptions = {}): Promise<Buffer> {
    return this.http.download(link, what, maxBytes, options.signal);
  }

  async latestScan(deploymentId: string, repositoryId: number, branch: string, options: CallOptions = {}): Promise<Scan | undefined> {
    const path = `${deploymentPath(deploymentId)}/scans/search`;
    const seen: Scan[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_SCAN_PAGES; page++) {
      const body = await this.http.requestJson({
        method: 'POST',
        path,
        body: { repository_id: repositoryId, branch, statuses: ['SCAN_STATUS_COMPLETED'], limit: 100, ...(cursor ? { cursor } : {}) },
        what: `The scans of ${branch}`,
        access: 'product',
        signal: options.signal,
      });
      const decoded = decodeScansPage(body);
      seen.push(...decoded.scans);
      if (!decoded.nextCursor || decoded.nextCursor === cursor || decoded.scans.length === 0) break;
      cursor = decoded.nextCursor;
    }
    return latestWithCommit(seen);
  }

  /** Spec 4.4: the service adds the tags to those the project has (it does not replace them). */
  async addProjectTags(deploymentSlug: string, projectName: string, tags: readonly string[], options: CallOptions = {}): Promise<Project> {
    if (tags.length === 0 || tags.some((tag) => tag.trim() === '')) {
      throw new PlatformError('badRequest', 'Give at least one tag, and no empty tags.');
    }
    const body = await this.http.requestJson({
      method: 'PUT',
      path: `${projectPath(deploymentSlug, projectName)}/tags`,
      body: { tags },
      what: `tagging project ${projectName}`,
      access: 'write',
      signal: options.signal,
    });
    return decodeProjectResponse(body, projectName);
  }

  async getProject(deploymentSlug: string, projectName: string, options: CallOptions = {}): Promise<Project> {
    const body = await this.get(projectPath(deploymentSlug, projectName), undefined, `Project ${projectName}`, options, 'token');
    return decodeProjectResponse(body, projectName);
  }

  /** Spec 4.6, page by page. Items carry no `managedScanConfig` (only {@link PlatformClient.getProject} has it). */
  projects(deploymentSlug: string, options: PagedCallOptions = {}): AsyncGenerator<Project[], void, undefined> {
    const pageSize = checkPageSize(options.pageSize ?? DEFAULT_PROJECTS_PAGE_SIZE, 1, 10_000, 'page_size');
    const path = `${deploymentPath(deploymentSlug)}/projects`;
    const what = `The projects of deployment ${deploymentSlug}`;
    return offsetPages(async (page, signal) => {
      const decoded = decodeProjectsPage(await this.get(path, encodeOffsetQuery(page, pageSize), what, { signal }, 'token'));
      return { value: decoded.projects, rawCount: decoded.rawCount, signature: pageSignature(decoded.projects, (p) => p.id) };
    }, { pageSize, concurrency: options.concurrency ?? this.concurrency, signal: options.signal });
  }

  async listProjects(deploymentSlug: string, options: PagedCallOptions = {}): Promise<Project[]> {
    const projects: Project[] = [];
    for await (const page of this.projects(deploymentSlug, options)) {
      projects.push(...page);
    }
    return projects;
  }

  /** Releases the connections of the default agent (an injected dispatcher is the caller's). */
  close(): Promise<void> {
    return this.http.close();
  }

  /** A read of a product's data unless `access` says it is one of the token's own (deployments, projects). */
  private get(path: string, query: string | undefined, what: string, options: CallOptions, access: EndpointAccess = 'product'): Promise<unknown> {
    return this.http.requestJson({ method: 'GET', path, query, what, access, signal: options.signal });
  }
}

/** A page's first id, last id and length: equal for a page sent twice, different for the next page. */
function pageSignature<T>(items: readonly T[], id: (item: T) => number): string | undefined {
  const first = items[0];
  const last = items[items.length - 1];
  return first === undefined || last === undefined ? undefined : `${id(first)}:${id(last)}:${items.length}`;
}

function deploymentPath(deploymentIdOrSlug: string): string {
  return `/api/v1/deployments/${encodePathSegment(deploymentIdOrSlug, 'deployment')}`;
}

function projectPath(deploymentSlug: string, projectName: string): string {
  return `${deploymentPath(deploymentSlug)}/projects/${encodeProjectName(projectName)}`;
}

/** How the findings list is asked for a finding's kind (AI code findings have their own issue type). */
export function listIssueTypeOf(finding: Pick<Finding, 'issueType' | 'ai'>): ListIssueType {
  return finding.issueType === 'sca' ? 'sca' : finding.ai ? 'ai_sast' : 'sast';
}
