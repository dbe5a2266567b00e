/**
 * What the services need of the platform: the subset of `PlatformClient` they call. Services
 * depend on this interface rather than the class so each can be tested against the local
 * platform server through the real client, or composed with a client built for another token
 * (sign-in checks a candidate token before storing it).
 */
import type { Deployment, Finding, FindingFilters, ListIssueType, ManagedScans, Project, Scan } from '../model/types';
import type { TicketLinkResult, TicketRequest, TicketResult, TriageRequest, TriageResult } from '../model/triage-and-tickets';
import type { FindingDetail } from '../model/finding-detail';
import type { Policy, PolicyRule } from '../model/policy';
import type { SettableRuleMode } from '../api/platform-changes';
import type { SbomExportRequest, SbomExportStatus } from '../model/sbom';
import type { StringInterner } from '../model/interner';
import type { FindingsPage } from '../model/decodeFinding';
import type { PolicyRulesPage } from '../model/decodePolicy';
import type { CallOptions } from '../api/endpoints';
import type { KeptPage, ReadFindingsPage } from '../api/findings-requests';
import type { FindingStoryCallOptions } from '../api/issue-requests';
import type { AutofixOutcome } from '../model/autofix-outcome';
import type { FindingStoryAnswer } from '../model/finding-story';
import type { ListShape } from '../api/paging';
import type { Dependency, DependencyFilter, DependencyRepository, InventoryPage, LockfileSummary } from '../model/dependency';
import type { Said } from '../l10n';

export interface PlatformApi {
  listDeployments(options?: CallOptions): Promise<Deployment[]>;
  listPolicies(deploymentId: string, options?: CallOptions): Promise<Policy[]>;
  policyRules(deploymentId: string, policyId: string, options?: CallOptions & { limit?: number }): AsyncIterable<PolicyRulesPage>;
  findings(
    deploymentSlug: string,
    issueType: ListIssueType,
    filters: FindingFilters,
    options?: CallOptions & {
      pageSize?: number;
      concurrency?: number;
      interner?: StringInterner;
      firstWave?: number;
      onEnd?: (shape: ListShape) => void;
      previousPage?: (page: number) => KeptPage | undefined;
    },
  ): AsyncIterable<ReadFindingsPage>;
  /** Secrets findings (cursor-paged, by deployment id); every ref comes, the caller narrows. */
  secrets(deploymentId: string, filters: FindingFilters, options?: CallOptions & { pageSize?: number; interner?: StringInterner }): AsyncIterable<FindingsPage>;
  /** Every project; `firstWave` and `onEnd` as for the findings (`answer-shapes.ts`). */
  listProjects(deploymentSlug: string, options?: CallOptions & { firstWave?: number; onEnd?: (shape: ListShape) => void }): Promise<Project[]>;
  getProject(deploymentSlug: string, projectName: string, options?: CallOptions): Promise<Project>;
  addProjectTags(deploymentSlug: string, projectName: string, tags: readonly string[], options?: CallOptions): Promise<Project>;
  /** Removes those tags from the project only. */
  removeProjectTags(deploymentSlug: string, projectName: string, tags: readonly string[], options?: CallOptions): Promise<Project>;
  /** A branch name, or undefined for the default branch. */
  setPrimaryBranch(deploymentSlug: string, projectName: string, branch: string | undefined, options?: CallOptions): Promise<Project>;
  /** The settings the platform answered with, when it names them. */
  setManagedScans(deploymentSlug: string, projectName: string, scans: ManagedScans, options?: CallOptions): Promise<ManagedScans | undefined>;
  /** The rule as the platform answered with it, when readable. Changes every pull request of the organization. */
  setRuleMode(deploymentId: string, policyId: string, rulePath: string, mode: SettableRuleMode, options?: CallOptions): Promise<PolicyRule | undefined>;
  /** The branches a repository has completed scans of, most recent first. */
  scannedBranches(deploymentId: string, repositoryId: number, options?: CallOptions): Promise<string[]>;
  /** The newest completed scan of a repository's branch that names its commit. */
  latestScan(deploymentId: string, repositoryId: number, branch: string, options?: CallOptions): Promise<Scan | undefined>;
  /** Triage (bulk): one request of at most 3 000 ids; callers batch and validate. */
  triage(deploymentSlug: string, request: TriageRequest, options?: CallOptions): Promise<TriageResult>;
  /** Jira tickets for at most 20 findings; synchronous on the platform and can be slow. */
  createTickets(deploymentSlug: string, request: TicketRequest, options?: CallOptions): Promise<TicketResult>;
  /** Records an existing ticket (an http(s) URL) on findings; creates nothing. */
  linkTicket(deploymentId: string, ticketUrl: string, ids: readonly number[], options?: CallOptions): Promise<TicketLinkResult>;
  /** Removes the ticket link of findings; the ids the platform unlinked. */
  unlinkTicket(deploymentId: string, ids: readonly number[], options?: CallOptions): Promise<readonly number[]>;
  /** Unlinks a ticket (by its id) from every finding; the ids the platform unlinked. */
  unlinkTicketEverywhere(deploymentId: string, ticketId: string, options?: CallOptions): Promise<readonly number[]>;
  /**
   * The whole finding (every field the platform sends), found again through the findings list
   * (there is no single-finding endpoint): undefined when the platform no longer lists it.
   */
  findingDetail(deploymentSlug: string, finding: Finding, options?: CallOptions): Promise<FindingDetail | undefined>;
  /**
   * One finding's story by its id (the experimental v2 call): its dataflow trace, where else it
   * is, its history, its owners. `notAvailable` where the deployment or token lacks the call.
   */
  findingStory(deploymentId: string, issueId: number, options?: FindingStoryCallOptions): Promise<FindingStoryAnswer>;
  /**
   * Asks the platform to open a fix pull request. `accepted` means the job was taken: the pull
   * request shows on the finding later. A refusal the platform explains is an outcome with its
   * sentence; a 403 without one (the token's role) is thrown, as for every write.
   */
  requestAutofix(deploymentId: string, issueId: number, options?: CallOptions): Promise<AutofixOutcome>;
  createSbomExport(deploymentId: string, request: SbomExportRequest, options?: CallOptions): Promise<string>;
  getSbomExportStatus(deploymentId: string, taskToken: string, options?: CallOptions): Promise<SbomExportStatus>;
  /** Repositories with a dependency inventory (body-cursor paged until `hasMore` is false). */
  dependencyRepositories(deploymentId: string, filter: DependencyFilter, options?: InventoryCallOptions): AsyncIterable<InventoryPage<DependencyRepository>>;
  /** The lockfiles of one repository's inventory. */
  lockfiles(
    deploymentId: string,
    repositoryId: string,
    filter: DependencyFilter,
    options?: InventoryCallOptions,
  ): AsyncIterable<InventoryPage<LockfileSummary>>;
  /** Dependencies across the deployment, narrowed by `filter` (a repository, a lockfile, a package). */
  dependencies(deploymentId: string, filter: DependencyFilter, options?: InventoryCallOptions): AsyncIterable<InventoryPage<Dependency>>;
  /** The bytes behind a link the platform handed out; the token goes only to the platform's origin. */
  download(link: string, what: Said, maxBytes: number, options?: CallOptions): Promise<Buffer>;
}

/** Options of the inventory's lists: `pageSize` from 1 to 10 000. */
export interface InventoryCallOptions extends CallOptions {
  readonly pageSize?: number;
  readonly interner?: StringInterner;
}

/** Builds an API client that authenticates with whatever `getToken` returns. */
export type PlatformApiFactory = (getToken: () => Promise<string | undefined>) => PlatformApi;
