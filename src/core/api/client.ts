/**
 * One method per endpoint of the platform (docs/platform-api.md). The findings endpoints are
 * built in `findings-requests.ts`, the inventory's in `dependencies-requests.ts`, triage and
 * tickets in `triage-requests.ts`, one finding's story and fix in `issue-requests.ts`; this
 * class holds the connection and what the others send.
 */
import { decodeDeploymentsResponse } from '../model/decodeDeployment';
import type { Dependency, DependencyFilter, DependencyRepository, InventoryPage, LockfileSummary } from '../model/dependency';
import type { FindingsPage } from '../model/decodeFinding';
import { decodePoliciesResponse, decodePolicyRulesPage, type PolicyRulesPage } from '../model/decodePolicy';
import { decodeProjectResponse, decodeProjectsPage } from '../model/decodeProject';
import { decodeSbomExportCreated, decodeSbomExportStatus } from '../model/decodeSbom';
import { PlatformError } from '../model/errors';
import type { FindingDetail } from '../model/finding-detail';
import type { Policy, PolicyRule } from '../model/policy';
import type { SbomExportRequest, SbomExportStatus } from '../model/sbom';
import type { TicketLinkResult, TicketRequest, TicketResult, TriageRequest, TriageResult } from '../model/triage-and-tickets';
import type { Deployment, Finding, FindingFilters, ListIssueType, ManagedScans, Project, Scan } from '../model/types';
import { encodeCursorQuery, encodeOffsetQuery, encodePathSegment, encodeSbomExportRequest } from './encoding';
import { dependencyPages, lockfilePages, repositoryPages, type DependencyCallOptions } from './dependencies-requests';
import { deploymentPath, pageSignature, projectPath, type CallOptions, type PagedCallOptions, type ReadJson } from './endpoints';
import { findFindingDetail, findingsPages, secretsPages, type FindingsCallOptions, type ReadFindingsPage } from './findings-requests';
import { PlatformHttp, type PlatformHttpOptions } from './http';
import { findingStory, requestAutofix, type AutofixOutcome, type FindingStoryAnswer, type FindingStoryCallOptions } from './issue-requests';
import {
  addProjectTags,
  removeProjectTags,
  setManagedScans,
  setPrimaryBranch,
  setRuleMode,
  unlinkTicketEverywhere,
  type SettableRuleMode,
} from './platform-changes';
import { latestScan, scannedBranches } from './scans-requests';
import { createTickets, linkTicket, triage, unlinkTicket } from './triage-requests';
import { checkPageSize, cursorPages, offsetPages, pageHintsOf } from './paging';
import { said, type Said } from '../l10n';

export interface PlatformClientOptions extends PlatformHttpOptions {
  /** Offset pages fetched at once after a full first page (default 4). */
  readonly concurrency?: number;
}

export interface PolicyRulesCallOptions extends CallOptions {
  /** Rules per page, 1..2000 (spec 4.1). */
  readonly limit?: number;
}

/**
 * Projects per page: as many as the findings list takes, so a large organization's list comes in
 * one wave of requests. No maximum is documented; a deployment that refuses it (400) is read at
 * the documented default, `FALLBACK_PROJECTS_PAGE_SIZE`, from then on.
 */
export const DEFAULT_PROJECTS_PAGE_SIZE = 3000;
export const FALLBACK_PROJECTS_PAGE_SIZE = 100;
export const DEFAULT_POLICY_RULES_LIMIT = 1000;
const DEFAULT_CONCURRENCY = 4;

/** One method per endpoint of the platform; each fails with a PlatformError that says what to do. */
export class PlatformClient {
  private readonly http: PlatformHttp;
  private readonly concurrency: number;
  /** Lowered to the documented default once the deployment refused the larger page. */
  private projectsPageSize = DEFAULT_PROJECTS_PAGE_SIZE;

  /** Throws `insecureUrl`/`invalidUrl` at once for an unusable base URL. */
  constructor(options: PlatformClientOptions) {
    this.http = new PlatformHttp(options);
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  }

  /** A token reaches one deployment, so this finds its id and slug from the token alone. */
  async listDeployments(options: CallOptions = {}): Promise<Deployment[]> {
    const body = await this.read('/api/v1/deployments', undefined, said('the deployment list'), options, 'token');
    return decodeDeploymentsResponse(body);
  }

  async listPolicies(deploymentId: string, options: CallOptions = {}): Promise<Policy[]> {
    const path = `${deploymentPath(deploymentId)}/policies`;
    return decodePoliciesResponse(await this.read(path, undefined, said('the policies of deployment {0}', deploymentId), options));
  }

  /** Spec 4.1, page by page (cursor paging). */
  policyRules(deploymentId: string, policyId: string, options: PolicyRulesCallOptions = {}): AsyncGenerator<PolicyRulesPage, void, undefined> {
    const limit = checkPageSize(options.limit ?? DEFAULT_POLICY_RULES_LIMIT, 1, 2000, 'limit');
    const path = `${deploymentPath(deploymentId)}/policies/${encodePathSegment(policyId, 'policy id')}`;
    const what = said('policy {0}', policyId);
    return cursorPages(
      async (cursor, signal) => {
        const page = decodePolicyRulesPage(await this.read(path, encodeCursorQuery(cursor, limit), what, { signal }));
        return { value: { policy: page.policy, rules: page.rules, skipped: page.skipped }, nextCursor: page.nextCursor, rawCount: page.rawCount };
      },
      { signal: options.signal },
    );
  }

  /** Spec 4.2, page by page (offset paging, later pages fetched concurrently but yielded in order). */
  findings(
    deploymentSlug: string,
    issueType: ListIssueType,
    filters: FindingFilters,
    options: FindingsCallOptions = {},
  ): AsyncGenerator<ReadFindingsPage, void, undefined> {
    return findingsPages(this.read, deploymentSlug, issueType, filters, options, this.concurrency);
  }

  /**
   * Secrets findings, page by page (cursor paging; the path takes the deployment's id). The list
   * has no branch filter: every ref of the repository comes, and the caller keeps the one it shows.
   */
  secrets(deploymentId: string, filters: FindingFilters, options: FindingsCallOptions = {}): AsyncGenerator<FindingsPage, void, undefined> {
    return secretsPages(this.read, deploymentId, filters, options);
  }

  /** Triage (bulk): one request; the service checks and batches (docs/platform-api.md, "Triage and tickets"). */
  triage(deploymentSlug: string, request: TriageRequest, options: CallOptions = {}): Promise<TriageResult> {
    return triage(this.http, deploymentSlug, request, options);
  }

  /** Jira tickets (ids as strings, as the endpoint takes them). Never retried: a repeat could create a second ticket. */
  createTickets(deploymentSlug: string, request: TicketRequest, options: CallOptions = {}): Promise<TicketResult> {
    return createTickets(this.http, deploymentSlug, request, options);
  }

  /** Records an existing ticket on findings (the path takes the deployment's id). */
  linkTicket(deploymentId: string, ticketUrl: string, ids: readonly number[], options: CallOptions = {}): Promise<TicketLinkResult> {
    return linkTicket(this.http, deploymentId, ticketUrl, ids, options);
  }

  unlinkTicket(deploymentId: string, ids: readonly number[], options: CallOptions = {}): Promise<readonly number[]> {
    return unlinkTicket(this.http, deploymentId, ids, options);
  }

  /**
   * The whole finding, found again through the list (there is no single-finding endpoint),
   * narrowed by what is known of it: repository, ref, rule (code) and severity.
   */
  findingDetail(deploymentSlug: string, finding: Finding, options: CallOptions = {}): Promise<FindingDetail | undefined> {
    return findFindingDetail(this.read, deploymentSlug, finding, options);
  }

  // One finding's story (API v2) and a fix pull request for it, by the finding's id (`issue-requests.ts`).
  findingStory(deploymentId: string, issueId: number, options: FindingStoryCallOptions = {}): Promise<FindingStoryAnswer> {
    return findingStory(this.http, deploymentId, issueId, options);
  }

  requestAutofix(deploymentId: string, issueId: number, options: CallOptions = {}): Promise<AutofixOutcome> {
    return requestAutofix(this.http, deploymentId, issueId, options);
  }

  /** Spec 4.3. Never retried: a repeat after a lost answer could start a second job. */
  async createSbomExport(deploymentId: string, request: SbomExportRequest, options: CallOptions = {}): Promise<string> {
    const body = await this.http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentId)}/sbom/export`,
      body: encodeSbomExportRequest(deploymentId, request),
      what: said('the SBOM export of repository {0}', request.repositoryId),
      access: 'write',
      signal: options.signal,
    });
    return decodeSbomExportCreated(body);
  }

  async getSbomExportStatus(deploymentId: string, taskToken: string, options: CallOptions = {}): Promise<SbomExportStatus> {
    const path = `${deploymentPath(deploymentId)}/sbom/export/${encodePathSegment(taskToken, 'task token')}`;
    return decodeSbomExportStatus(await this.read(path, undefined, said('the SBOM export job'), options));
  }

  /** The supply-chain inventory (docs/platform-api.md, "Dependencies"): repositories with dependencies. */
  dependencyRepositories(
    deploymentId: string,
    filter: DependencyFilter,
    options: DependencyCallOptions = {},
  ): AsyncGenerator<InventoryPage<DependencyRepository>, void, undefined> {
    return repositoryPages(this.http, deploymentId, filter, options);
  }

  lockfiles(
    deploymentId: string,
    repositoryId: string,
    filter: DependencyFilter,
    options: DependencyCallOptions = {},
  ): AsyncGenerator<InventoryPage<LockfileSummary>, void, undefined> {
    return lockfilePages(this.http, deploymentId, repositoryId, filter, options);
  }

  dependencies(
    deploymentId: string,
    filter: DependencyFilter,
    options: DependencyCallOptions = {},
  ): AsyncGenerator<InventoryPage<Dependency>, void, undefined> {
    return dependencyPages(this.http, deploymentId, filter, options);
  }

  /**
   * The bytes behind a link the platform handed out (an SBOM document), at most `maxBytes`. The
   * token goes only to the platform's own origin (`PlatformHttp.download`).
   */
  download(link: string, what: Said, maxBytes: number, options: CallOptions = {}): Promise<Buffer> {
    return this.http.download(link, what, maxBytes, options.signal);
  }

  /** The newest completed scan of a repository's branch that names its commit (`scans-requests.ts`). */
  latestScan(deploymentId: string, repositoryId: number, branch: string, options: CallOptions = {}): Promise<Scan | undefined> {
    return latestScan(this.http, deploymentId, repositoryId, branch, options);
  }

  /** The branches a repository has completed scans of, most recent first. */
  scannedBranches(deploymentId: string, repositoryId: number, options: CallOptions = {}): Promise<string[]> {
    return scannedBranches(this.http, deploymentId, repositoryId, options);
  }

  // The changes to settings (`platform-changes.ts`).
  addProjectTags(deploymentSlug: string, projectName: string, tags: readonly string[], options: CallOptions = {}): Promise<Project> {
    return addProjectTags(this.http, deploymentSlug, projectName, tags, options);
  }

  removeProjectTags(deploymentSlug: string, projectName: string, tags: readonly string[], options: CallOptions = {}): Promise<Project> {
    return removeProjectTags(this.http, deploymentSlug, projectName, tags, options);
  }

  setPrimaryBranch(deploymentSlug: string, projectName: string, branch: string | undefined, options: CallOptions = {}): Promise<Project> {
    return setPrimaryBranch(this.http, deploymentSlug, projectName, branch, options);
  }

  setManagedScans(deploymentSlug: string, projectName: string, scans: ManagedScans, options: CallOptions = {}): Promise<ManagedScans | undefined> {
    return setManagedScans(this.http, deploymentSlug, projectName, scans, options);
  }

  setRuleMode(deploymentId: string, policyId: string, rulePath: string, mode: SettableRuleMode, options: CallOptions = {}): Promise<PolicyRule | undefined> {
    return setRuleMode(this.http, deploymentId, policyId, rulePath, mode, options);
  }

  unlinkTicketEverywhere(deploymentId: string, ticketId: string, options: CallOptions = {}): Promise<number[]> {
    return unlinkTicketEverywhere(this.http, deploymentId, ticketId, options);
  }

  async getProject(deploymentSlug: string, projectName: string, options: CallOptions = {}): Promise<Project> {
    const body = await this.read(projectPath(deploymentSlug, projectName), undefined, said('project {0}', projectName), options, 'token');
    return decodeProjectResponse(body, projectName);
  }

  /** Spec 4.6, page by page. Items carry no `managedScanConfig` (only {@link PlatformClient.getProject} has it). */
  projects(deploymentSlug: string, options: PagedCallOptions = {}): AsyncGenerator<Project[], void, undefined> {
    const pageSize = checkPageSize(options.pageSize ?? DEFAULT_PROJECTS_PAGE_SIZE, 1, 10_000, 'page_size');
    const path = `${deploymentPath(deploymentSlug)}/projects`;
    const what = said('the projects of deployment {0}', deploymentSlug);
    return offsetPages(
      async (page, signal) => {
        const decoded = decodeProjectsPage(await this.read(path, encodeOffsetQuery(page, pageSize), what, { signal }, 'token'));
        return { value: decoded.projects, rawCount: decoded.rawCount, signature: pageSignature(decoded.projects, (p) => p.id) };
      },
      { pageSize, concurrency: options.concurrency ?? this.concurrency, signal: options.signal, ...pageHintsOf(options) },
    );
  }

  /**
   * Every project. Without a page size given, pages of `DEFAULT_PROJECTS_PAGE_SIZE`; a 400 to
   * the first of them is read as "that page size is refused", and the list is read again at the
   * documented default.
   */
  async listProjects(deploymentSlug: string, options: PagedCallOptions = {}): Promise<Project[]> {
    const read = async (pageSize: number): Promise<Project[]> => {
      const projects: Project[] = [];
      for await (const page of this.projects(deploymentSlug, { ...options, pageSize })) projects.push(...page);
      return projects;
    };
    const pageSize = options.pageSize ?? this.projectsPageSize;
    try {
      return await read(pageSize);
    } catch (error) {
      if (options.pageSize !== undefined || pageSize <= FALLBACK_PROJECTS_PAGE_SIZE || !PlatformError.is(error, 'badRequest')) throw error;
      this.projectsPageSize = FALLBACK_PROJECTS_PAGE_SIZE;
      return read(FALLBACK_PROJECTS_PAGE_SIZE);
    }
  }

  /** Releases the connections of the default agent (an injected dispatcher is the caller's). */
  close(): Promise<void> {
    return this.http.close();
  }

  /** A read of a product's data unless `access` says it is one of the token's own (deployments, projects). */
  private readonly read: ReadJson = (path, query, what, options, access = 'product') =>
    this.http.requestJson({ method: 'GET', path, query, what, access, signal: options.signal, ...(options.identity ? { identity: options.identity } : {}) });
}
