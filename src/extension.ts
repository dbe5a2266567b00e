/**
 * Composition root: builds the pieces, wires their events, registers commands, and returns a
 * small API (used by the integration tests). No network here: the first request happens when a
 * view is opened or a command runs.
 */
import * as vscode from 'vscode';
import type { App } from './app';
import { PlatformClient } from './core/api/client';
import type { Finding } from './core/model/types';
import { FindingsStore } from './core/services/findings-store';
import { describeQuery } from './core/services/findings-query';
import { PoliciesService } from './core/services/policies-service';
import { ProjectsService } from './core/services/projects-service';
import { SbomService, type SbomExportRecord } from './core/services/sbom-service';
import { resumeSbomExports } from './commands/sbom-commands';
import { Session } from './core/services/session';
import { ProblemsRenderer } from './diagnostics/problems-renderer';
import { CachedStart } from './diagnostics/cached-start';
import { keepFindingsOnDisk, startFromCache as drawFromCache, type CacheKeepingDeps } from './diagnostics/cache-keeping';
import { WorkspaceView } from './core/services/workspace-view';
import { buildCommands } from './commands/command-map';
import { registerCommands } from './commands/register';
import { GitWorkspaceRepos } from './host/git-workspace-repos';
import { ExtensionLog } from './host/logger';
import { createHostDispatcher } from './host/network';
import type { NetworkDispatcher } from './core/net/dispatcher';
import { SecretTokenStore, warnOnceIfNoKeyring } from './host/secrets';
import { affectsConnection, affectsDeployment, settings } from './host/settings';
import { deploymentMemory } from './host/deployment-memory';
import { errorMessage, reportDeploymentUnread, reportError, warnIfUnusableBaseUrl } from './host/user-errors';
import { ViewState } from './host/view-state';
import { FindingsStatusBar } from './status-bar';
import { createTreeViews, revealProject, revealRule, treeCommandHandlers, updateFilterDescription } from './views/tree-views';
import { createInventory } from './inventory';
import { startAutoRefresh } from './host/auto-refresh';
import { FindingsAttention } from './views/attention';
import { registerFindingHover } from './editor/finding-hover';
import { RefScans } from './core/services/ref-scans';
import { BranchBaselines } from './core/services/branch-baselines';
import { TriageService } from './core/services/triage-service';
import { FindingsCache } from './core/services/findings-cache';
import { registerAgentTools } from './agent/findings-tools';
import { FindingDetails } from './core/services/finding-details';
import { registerFindingActions } from './editor/finding-actions';
import { FindingDetailsPanel } from './webviews/finding-details-panel';
import { DriftTracker } from './host/drift-tracker';
import { GitCli } from './host/git-cli';
import { offerToFetchScannedCommits } from './host/scanned-commit-notice';
import { FindingPlaces, latestScanCommitVia } from './code-places/finding-places';
import { adoptDemoToken } from './host/demo-token';
import { refreshAllActions } from './host/refresh-all';
import { announceKindsFailed, logKindAvailability } from './host/kind-notices';
import { platformFindingUrl, platformProjectUrl } from './core/model/links';
import { timeActivation } from './host/activation-profile';
import { WalkthroughProgress } from './host/walkthrough-progress';
import { openInProblems } from './core/services/folder-view';
import { AnswerShapes } from './core/services/answer-shapes';
import { StartMemory } from './host/start-memory';
import { createStories } from './stories';

const SBOM_HISTORY_KEY = 'appsecFindings.sbomHistory';

/** What integration tests reach. Other extensions get only the version: the internals can make authenticated calls. */
export type ExtensionApi = ReturnType<typeof activateApi>;

export function activate(context: vscode.ExtensionContext): ExtensionApi | { readonly version: string } {
  const api = activateApi(context);
  return context.extensionMode === vscode.ExtensionMode.Test ? api : { version: api.version };
}

function activateApi(context: vscode.ExtensionContext) {
  // Where activation's time goes, phase by phase, for the benchmark.
  const { phaseDone, finish: activationTiming } = timeActivation(process.env);
  const version = String((context.extension.packageJSON as { version?: unknown }).version);
  const log = new ExtensionLog();
  const push = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
  push(log);
  const netLog = log.for('Network');
  // Made for the first request rather than at activation: reading the CA bundles takes milliseconds.
  let dispatcher: NetworkDispatcher | undefined;
  const connections = (): NetworkDispatcher => (dispatcher ??= createHostDispatcher(netLog));
  push({ dispose: () => void dispatcher?.close().catch(() => undefined) });
  const tokens = new SecretTokenStore(context.secrets);
  const session = push(new Session(
    tokens,
    (getToken) => new PlatformClient({
      baseUrl: settings.baseUrl(), extensionVersion: version, getToken, dispatcher: connections,
      onRetry: (r) => netLog.warn(`${r.what}: ${r.method} attempt ${r.attempt} of ${r.maxAttempts} failed (${r.error.message}); trying again in ${r.delayMs} ms.`),
    }),
    () => ({ deploymentId: settings.deploymentId(), deploymentSlug: settings.deploymentSlug() }),
    deploymentMemory(context.globalState, () => settings.baseUrl()),
  ));
  const api = () => session.api;
  const slug = () => session.deployment?.slug;
  // What was learnt of how the deployment answers, shared by every list read.
  const shapes = new AnswerShapes();
  const projects = push(new ProjectsService(api, slug, shapes));
  const startMemory = new StartMemory({ workspaceState: context.workspaceState, globalState: context.globalState, shapes });
  const storeLog = log.for('Findings');
  const findings = push(new FindingsStore(api, {
    shapes,
    unshownLimit: () => settings.cacheUnshownFindings(),
    deploymentId: () => session.deployment?.id,
    onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of findings`, error),
    onLoadFailed: (query, error) => storeLog.warn(`Loading ${describeQuery(query)} failed: ${errorMessage(error)}`),
  }));
  push(logKindAvailability(findings.availability, storeLog));
  const baselines = push(new BranchBaselines({
    store: findings, project: (name) => projects.find(name),
    onLoadFailed: (name, error) => storeLog.warn(`Comparing ${name} with its primary branch failed, so no finding is marked new on this branch: ${errorMessage(error)}`),
    onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of the primary branches' findings`, error),
  }));
  // Whether a ref was scanned: decided once, read by every view.
  const scans = new RefScans(findings);
  const policies = push(new PoliciesService(api, () => session.deployment?.id));
  const sbom = push(new SbomService(api, () => session.deployment?.id, context.globalState.get<SbomExportRecord[]>(SBOM_HISTORY_KEY) ?? []));
  push(sbom.onDidChange((h) => void context.globalState.update(SBOM_HISTORY_KEY, h)));
  const viewState = push(new ViewState(context.workspaceState));
  phaseDone('services');
  const repos = push(new GitWorkspaceRepos(() => ({ names: (projects.listed ? projects.projects : projects.known).map((p) => p.name), listed: projects.listed }), log.for('Git')));
  // Read once and again on a change: every diagnostic links its finding, and a configuration
  // read per finding would dominate a large refresh (docs/performance.md, "Refresh").
  let baseUrl = settings.baseUrl();
  const findingUrl = (f: Finding): string | undefined => {
    const deployment = session.deployment;
    return deployment ? platformFindingUrl(baseUrl, deployment.slug, f) : undefined;
  };
  const projectUrl = (p: { readonly id: number }): string | undefined => {
    const deployment = session.deployment;
    return deployment ? platformProjectUrl(baseUrl, deployment.slug, p) : undefined;
  };
  const drift = push(new DriftTracker(new GitCli(() => repos.gitPath()), log.for('Drift')));
  const places = push(new FindingPlaces(repos, drift, latestScanCommitVia(session, projects), log.for('Drift')));
  const story = push(createStories({ api, deploymentId: () => session.deployment?.id, places, renderer: (): ProblemsRenderer => diagnostics }));
  // The one place that decides what the workspace shows; Problems draws it.
  const view = push(new WorkspaceView({
    store: findings, baselines, scans, folders: () => repos.repos(), keyOf: (repo) => repo.folder.uri.toString(),
    deploymentSlug: slug, project: (name) => projects.find(name), selection: () => viewState.selection(),
    mayShow: () => vscode.workspace.isTrusted,
  }));
  const diagnostics = push(new ProblemsRenderer({
    view, mapping: () => settings.severityMapping(), findingUrl, log: log.for('Diagnostics'),
    unreachableAsInformation: () => settings.unreachableAsInformation(), places, related: story.related,
  }));
  const cachedStart = new CachedStart({
    view, renderer: diagnostics, store: findings, deploymentSlug: slug, repos: () => repos.repos(), selection: () => viewState.selection(),
    mapping: () => settings.severityMapping(), unreachableAsInformation: () => settings.unreachableAsInformation(),
  });
  const details = new FindingDetails(api, slug);
  const signedIn = (): boolean => session.state.kind === 'signedIn';
  push(registerFindingHover({ collection: diagnostics.collection, repos, drift, commitOf: (f, repo) => places.commitOf(f, repo), novelty: baselines, details, stories: story.stories, signedIn }));
  push(registerFindingActions({ collection: diagnostics.collection, details, stories: story.stories, repos, signedIn }));
  const detailsPanel = push(new FindingDetailsPanel({
    extensionUri: context.extensionUri, store: findings, details, stories: story.stories, places, novelty: baselines, deploymentSlug: slug, findingUrl, errorMessage,
  }));
  push(offerToFetchScannedCommits(drift));
  const inventory = push(createInventory({
    api, deploymentId: () => session.deployment?.id, signedIn, repos, shown: view, projectId: (name) => projects.find(name)?.id,
    hintsEnabled: () => settings.dependencyInlayHints(), errorMessage,
  }));
  phaseDone('diagnostics and editor');
  const statusBar = push(new FindingsStatusBar((name) => viewState.refOverride(name), viewState.onDidChange));
  const walkthrough = push(new WalkthroughProgress());
  push(diagnostics.onDidChange(({ folders }) => {
    statusBar.update(folders);
    walkthrough.problemsDrawn(folders.some((folder) => openInProblems(folder).length > 0));
  }));
  const trees = createTreeViews({
    session, projects, findings, policies, workspaceRepos: repos, scans,
    selection: () => viewState.selection(), groupBy: () => viewState.groupBy(),
    refOverride: (name) => viewState.refOverride(name), policyIds: () => settings.policyIds(), errorMessage,
    severityMapping: () => settings.severityMapping(), unreachableAsInformation: () => settings.unreachableAsInformation(),
    todayPlace: (finding) => places.place(finding),
    novelty: baselines, inventory: inventory.tree,
    // Filters, grouping and refs change what the tree asks; placed findings and landed baselines how it reads.
    refreshOn: [viewState.onDidChange],
    redrawOn: [drift.onDidChange, baselines.onDidChange],
  });
  push(trees);
  push(detailsPanel.followSelection(trees.projectsView));
  phaseDone('trees');
  push(new FindingsAttention({
    view: trees.projectsView, onDidChange: diagnostics.onDidChange, log: log.for('Findings'),
    notifyNewFindings: () => settings.notifyNewFindings(), stopNotifying: () => settings.stopNotifyingNewFindings(),
    filtersKey: () => JSON.stringify(viewState.selection()),
  }));
  const describeFilters = (): void => updateFilterDescription(trees.projectsView, viewState.selection(), session.state.kind === 'signedIn');
  describeFilters();

  const triageService = new TriageService({ api, store: findings, deploymentSlug: slug, deploymentId: () => session.deployment?.id });
  // The findings of the workspace's projects on disk: shown at the next start before any answer.
  const cache = new FindingsCache({
    dir: context.globalStorageUri.fsPath, maxBytes: () => settings.cacheMaxBytes(), onProblem: (m) => storeLog.warn(m), origin: () => settings.baseUrl(),
  });
  const keeping: CacheKeepingDeps = {
    cache, store: findings, renderer: diagnostics, cachedStart, deploymentSlug: slug, projectNames: () => repos.projectNames(),
    enabled: () => settings.cacheMaxBytes() > 0, log: storeLog,
  };
  push(keepFindingsOnDisk(keeping));
  const startFromCache = (): Promise<boolean> => drawFromCache(keeping);
  phaseDone('cache');
  for (const tool of registerAgentTools({
    deploymentSlug: slug, project: (name) => projects.find(name), store: findings, scans, repos, places, novelty: baselines, details,
    triage: triageService, findingUrl, errorMessage, stories: story.stories,
  })) push(tool);

  const app: App = {
    version, currentToken: () => tokens.get(),
    log, logger: (c) => log.for(c), session, projects, findings, policies, sbom, repos, view, diagnostics, cachedStart, viewState, places, novelty: baselines,
    clipboard: vscode.env.clipboard, findingUrl, projectUrl, details, stories: story.stories,
    ...refreshAllActions({
      session, findings, projects, policies, inventory: inventory.service, repos, view, trees: { projects: trees.projects.model, policies: trees.policies }, places, cache,
      baseUrl: () => settings.baseUrl(), onKindsFailed: (gaps) => void announceKindsFailed(gaps),
      onDeploymentUnread: (e) => reportDeploymentUnread(settings.baseUrl(), e, log.for('Session')),
    }),
    cancelLoads: () => trees.projects.model.cancelAll(),
    revealRule: (ruleName) => revealRule(trees, ruleName),
    revealProject: (name) => revealProject(trees, name),
    dependencies: inventory.service, dependencyFilter: inventory.filter,
    selectedItem: () => trees.projectsView.selection[0] ?? trees.policiesView.selection[0],
    selectedItems: () => trees.projectsView.selection,
    triage: triageService,
    showDetails: (finding) => detailsPanel.show(finding),
    startFromCache,
  };
  phaseDone('agent tools');
  for (const registration of registerCommands(app, buildCommands(app, treeCommandHandlers(trees)), (id, result) => walkthrough.commandRan(id, result))) push(registration);
  phaseDone('commands');

  const sessionLog = log.for('Session');
  const rememberToken = async (): Promise<void> => log.setSecrets([await tokens.get()]);
  for (const d of startMemory.follow({ session, projects, repos, drawn: diagnostics.onDidChange, log: storeLog })) push(d);
  push(session.onDidChange((state) => {
    void vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
    walkthrough.signedIn(state.kind === 'signedIn');
    describeFilters();
    void rememberToken();
  }));
  // Another window signed in or out: follow it.
  push(tokens.onDidChange(() => {
    void session.restore().then((state) => (state.kind === 'signedIn' ? app.refreshAll(false) : app.clearAll()))
      .catch((e: unknown) => sessionLog.error('Could not follow a token change', e));
  }));
  push(repos.onDidChange(() => {
    void app.reposChanged().catch((e: unknown) => reportError('Updating diagnostics failed', e, log.for('Diagnostics')));
  }));
  // Filters also reach diagnostics (through their command); the tree follows the view state itself.
  push(viewState.onDidChange(() => describeFilters()));
  push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('appsecFindings.baseUrl')) baseUrl = settings.baseUrl();
    if (affectsConnection(e)) {
      const replaced = dispatcher;
      dispatcher = createHostDispatcher(log.for('Network'));
      session.resetApi();
      // Requests already on the old connections finish; then its sockets are released.
      replaced?.close().catch((error: unknown) => log.for('Network').warn(`Closing the previous connections failed: ${errorMessage(error)}`));
      warnIfUnusableBaseUrl(settings.baseUrl());
    }
    if (affectsDeployment(e)) void app.deploymentSettingsChanged();
    // The same findings, drawn with other levels: nothing is loaded.
    if (e.affectsConfiguration('appsecFindings.severityMapping') || e.affectsConfiguration('appsecFindings.unreachableAsInformation')) {
      diagnostics.redraw();
      trees.projects.redraw();
    }
  }));
  push(startAutoRefresh(() => settings.autoRefreshMinutes(), () => app.refreshAll(true), log.for('AutoRefresh')));

  // Restore without network (the remembered deployment), then connect git and show diagnostics.
  void (async () => {
    await adoptDemoToken(tokens, settings.baseUrl(), process.env, sessionLog);
    await rememberToken();
    const state = await session.restore();
    await vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
    walkthrough.signedIn(state.kind === 'signedIn');
    if (state.kind === 'signedIn') await warnOnceIfNoKeyring(context.globalState);
    await repos.connectGit();
    if (state.kind === 'signedIn') {
      await startFromCache().catch((e: unknown) => storeLog.warn(`The findings cache could not be read: ${errorMessage(e)}`));
      // SBOM jobs that were running when the window closed are followed again.
      resumeSbomExports(app);
      await app.refreshAll(false);
    }
  })().catch((e: unknown) => reportError('Starting failed', e, sessionLog));

  /** Everything the extension keeps outside SecretStorage, for tests that prove the token is not there. */
  const storedState = (): string => JSON.stringify([
    context.globalState.keys().map((k) => [k, context.globalState.get(k)]),
    context.workspaceState.keys().map((k) => [k, context.workspaceState.get(k)]),
  ]);
  // What activation itself cost (no network happens in it): the benchmark reports it.
  phaseDone('listeners');
  const timing = activationTiming();
  // What activation does after a window reload, for the test that proves SBOM jobs are resumed.
  const resumeSbom = (): void => resumeSbomExports(app);
  return { version, app, trees, statusBar, storedState, detailsPanel, ...timing, resumeSbom, globalStorage: context.globalStorageUri };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
