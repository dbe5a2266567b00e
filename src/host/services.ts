/**
 * The first registration: the services every feature reads (session, projects, the findings
 * store, what is new on a branch, whether a ref was scanned, policies, SBOM jobs, the view
 * state, the workspace's repositories, details and triage) and the connection they share. No
 * network here: the connection pool is made for the first request.
 */
import * as vscode from 'vscode';
import { platformFindingUrl, platformProjectUrl } from '../core/model/links';
import type { Finding } from '../core/model/types';
import { AnswerShapes } from '../core/services/answer-shapes';
import { BranchBaselines } from '../core/services/branch-baselines';
import { FindingDetails } from '../core/services/finding-details';
import { describeQuery } from '../core/services/findings-query';
import { FindingsStore } from '../core/services/findings-store';
import type { PlatformApi } from '../core/services/platform-api';
import { PoliciesService } from '../core/services/policies-service';
import { ProjectsService } from '../core/services/projects-service';
import { RefScans } from '../core/services/ref-scans';
import { SbomService, type SbomExportRecord } from '../core/services/sbom-service';
import type { Session } from '../core/services/session';
import { TriageService } from '../core/services/triage-service';
import { GitWorkspaceRepos } from './git-workspace-repos';
import { logKindAvailability } from './kind-notices';
import { ExtensionLog, type Logger } from './logger';
import type { SecretTokenStore } from './secrets';
import { settings } from './settings';
import { registerSession } from './session-connection';
import { StartMemory } from './start-memory';
import { errorMessage } from './user-errors';
import { ViewState } from './view-state';
import { injectTranslator } from './l10n-host';

const SBOM_HISTORY_KEY = 'appsecFindings.sbomHistory';

export interface Services {
  /** The extension's version, for the User-Agent. */
  readonly version: string;
  readonly log: ExtensionLog;
  logger(component: string): Logger;
  readonly tokens: SecretTokenStore;
  /** The stored API token (for the connection check); never log or show it. */
  currentToken(): Promise<string | undefined>;
  /** Tells the log the current token, so no line ever holds it. */
  rememberToken(): Promise<void>;
  readonly session: Session;
  readonly api: () => PlatformApi;
  readonly deploymentSlug: () => string | undefined;
  readonly deploymentId: () => string | undefined;
  readonly signedIn: () => boolean;
  readonly projects: ProjectsService;
  /** What the next start knows before the platform answers. */
  readonly startMemory: StartMemory;
  readonly findings: FindingsStore;
  /** The primary branches' findings each branch is compared with: which findings are new on their branch. */
  readonly baselines: BranchBaselines;
  /** Whether a ref was scanned: decided once, read by every view. */
  readonly scans: RefScans;
  readonly policies: PoliciesService;
  readonly sbom: SbomService;
  readonly viewState: ViewState;
  readonly repos: GitWorkspaceRepos;
  readonly details: FindingDetails;
  readonly triage: TriageService;
  readonly findingUrl: (finding: Finding) => string | undefined;
  readonly projectUrl: (project: { readonly id: number }) => string | undefined;
  readonly clipboard: vscode.Clipboard;
}

export function registerServices(context: vscode.ExtensionContext): Services {
  // First: every word built after this is in the display language.
  injectTranslator();
  const push = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
  const version = String((context.extension.packageJSON as { version?: unknown }).version);
  const log = push(new ExtensionLog());
  const { tokens, session, rememberToken } = registerSession(context, log, version);
  const api = (): PlatformApi => session.api;
  const slug = (): string | undefined => session.deployment?.slug;
  const deploymentId = (): string | undefined => session.deployment?.id;
  // What was learnt of how the deployment answers, shared by every list read.
  const shapes = new AnswerShapes();
  const projects = push(new ProjectsService(api, slug, shapes));
  const startMemory = new StartMemory({ workspaceState: context.workspaceState, globalState: context.globalState, shapes });
  const storeLog = log.for('Findings');
  const findings = push(
    new FindingsStore(api, {
      shapes,
      unshownLimit: () => settings.cacheUnshownFindings(),
      deploymentId,
      onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of findings`, error),
      onLoadFailed: (query, error) => storeLog.warn(`Loading ${describeQuery(query)} failed: ${errorMessage(error)}`),
    }),
  );
  push(logKindAvailability(findings.availability, storeLog));
  const baselines = push(
    new BranchBaselines({
      store: findings,
      project: (name) => projects.find(name),
      onLoadFailed: (name, error) =>
        storeLog.warn(`Comparing ${name} with its primary branch failed, so no finding is marked new on this branch: ${errorMessage(error)}`),
      onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of the primary branches' findings`, error),
    }),
  );
  // Whether a branch was scanned also asks the platform's scan list, which names a branch scanned clean.
  const scans = push(
    new RefScans(findings, (deploymentSlug, projectName, signal) => {
      const deployment = session.deployment;
      const project = projects.find(projectName);
      return deployment?.slug === deploymentSlug && project ? session.api.scannedBranches(deployment.id, project.id, { signal }) : Promise.resolve(undefined);
    }),
  );
  const policies = push(new PoliciesService(api, deploymentId));
  const sbom = push(new SbomService(api, deploymentId, context.globalState.get<SbomExportRecord[]>(SBOM_HISTORY_KEY) ?? []));
  push(sbom.onDidChange((h) => void context.globalState.update(SBOM_HISTORY_KEY, h)));
  const viewState = push(new ViewState(context.workspaceState));
  const repos = push(
    new GitWorkspaceRepos(
      () => ({ names: (projects.listed ? projects.projects : projects.known).map((p) => p.name), listed: projects.listed }),
      log.for('Git'),
    ),
  );
  const links = platformLinks(push, slug);
  return {
    version,
    log,
    logger: (component) => log.for(component),
    tokens,
    currentToken: () => session.token(),
    rememberToken,
    session,
    api,
    deploymentSlug: slug,
    deploymentId,
    signedIn: () => session.state.kind === 'signedIn',
    projects,
    startMemory,
    findings,
    baselines,
    scans,
    policies,
    sbom,
    viewState,
    repos,
    details: new FindingDetails(api, slug),
    triage: new TriageService({ api, store: findings, deploymentSlug: slug, deploymentId }),
    ...links,
    clipboard: vscode.env.clipboard,
  };
}

/** The platform's pages of findings and projects, at the base URL set now. */
function platformLinks(push: <T extends vscode.Disposable>(d: T) => T, slug: () => string | undefined): Pick<Services, 'findingUrl' | 'projectUrl'> {
  // Read once and again on a change: every diagnostic links its finding, and a configuration
  // read per finding would dominate a large refresh (docs/performance.md, "Refresh").
  let baseUrl = settings.baseUrl();
  push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('appsecFindings.baseUrl')) baseUrl = settings.baseUrl();
    }),
  );
  return {
    findingUrl: (f) => {
      const deployment = slug();
      return deployment ? platformFindingUrl(baseUrl, deployment, f) : undefined;
    },
    projectUrl: (p) => {
      const deployment = slug();
      return deployment ? platformProjectUrl(baseUrl, deployment, p) : undefined;
    },
  };
}
