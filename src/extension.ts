/**
 * Composition root: builds the pieces, wires their events, registers commands, and returns a
 * small API (used by the integration tests). No network here: the first request happens when a
 * view is opened or a command runs.
 */
import * as vscode from 'vscode';
import type { App } from './app';
import { parseBaseUrl } from './core/api/baseUrl';
import { PlatformClient } from './core/api/client';
import type { Deployment, Finding } from './core/model/types';
import { describeQuery, FindingsStore } from './core/services/findings-store';
import { KIND_PRODUCTS, unavailableText } from './core/services/kind-availability';
import { failureNotice, type KindGap } from './core/services/kind-gaps';
import { PoliciesService } from './core/services/policies-service';
import { ProjectsService } from './core/services/projects-service';
import { SbomService, type SbomExportRecord } from './core/services/sbom-service';
import { resumeSbomExports } from './commands/sbom-commands';
import { Session } from './core/services/session';
import { DiagnosticsController } from './diagnostics/diagnostics-controller';
import { buildCommands } from './commands/command-map';
import { registerCommands } from './commands/register';
import { GitWorkspaceRepos } from './host/git-workspace-repos';
import { ExtensionLog } from './host/logger';
import { createHostDispatcher } from './host/network';
import type { NetworkDispatcher } from './core/net/dispatcher';
import { SecretTokenStore, warnOnceIfNoKeyring } from './host/secrets';
import { affectsConnection, settings } from './host/settings';
import { errorMessage, reportError } from './host/user-errors';
import { ViewState } from './host/view-state';
import { FindingsStatusBar } from './status-bar';
import { createTreeViews, revealRule, treeCommandHandlers, updateFilterDescription } from './views/tree-views';
import { startAutoRefresh } from './host/auto-refresh';
import { FindingsAttention } from './views/attention';
import { registerFindingHover } from './editor/finding-hover';
import { BranchBaselines } from './core/services/branch-baselines';
import { TriageService } from './core/services/triage-service';
import { FindingsCache } from './core/services/findings-cache';
import { decodeShownInSlices, encodeShownInSlices } from './core/services/shown-snapshot';
import { shownReader, shownRecord } from './diagnostics/shown-diagnostics';
import { registerAgentTools } from './agent/findings-tools';
import { FindingDetails } from './core/services/finding-details';
import { registerFindingActions } from './editor/finding-actions';
import { FindingDetailsPanel } from './webviews/finding-details-panel';
import { DriftTracker } from './host/drift-tracker';
import { GitCli } from './host/git-cli';
import { offerToFetchScannedCommits } from './host/scanned-commit-notice';
import { FindingPlaces, latestScanCommitVia, todayLocationOf } from './diagnostics/finding-places';
import { adoptDemoToken } from './host/demo-token';
import { refreshAllActions } from './host/refresh-all';
import { platformFindingUrl, platformProjectUrl } from './core/model/links';
import { startActivationProfile } from './host/activation-profile';

const DEPLOYMENT_KEY = 'appsecFindings.deployment';
const SBOM_HISTORY_KEY = 'appsecFindings.sbomHistory';
/** Findings at most in the cache's part for open files: it must stay quick to read at a start. */
const OPEN_PART_LIMIT = 5000;

/** What integration tests reach. Other extensions get only the version: the internals can make authenticated calls. */
export type ExtensionApi = ReturnType<typeof activateApi>;

export function activate(context: vscode.ExtensionContext): ExtensionApi | { readonly version: string } {
  const api = activateApi(context);
  return context.extensionMode === vscode.ExtensionMode.Test ? api : { version: api.version };
}

function activateApi(context: vscode.ExtensionContext) {
  const activationProfiler = startActivationProfile(process.env);
  const activationStart = performance.now();
  const activationCpuStart = process.cpuUsage();
  // Where activation's time goes, phase by phase, for the benchmark.
  const activationPhases: [string, number][] = [];
  const phaseDone = (name: string): void => void activationPhases.push([name, performance.now() - activationStart]);
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
    {
      get: () => context.globalState.get<Deployment>(DEPLOYMENT_KEY),
      set: (d) => Promise.resolve(context.globalState.update(DEPLOYMENT_KEY, d)),
    },
  ));
  const api = () => session.api;
  const slug = () => session.deployment?.slug;
  const projects = push(new ProjectsService(api, slug));
  const storeLog = log.for('Findings');
  const findings = push(new FindingsStore(api, {
    unshownLimit: () => settings.cacheUnshownFindings(),
    deploymentId: () => session.deployment?.id,
    onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of findings`, error),
    onLoadFailed: (query, error) => storeLog.warn(`Loading ${describeQuery(query)} failed: ${errorMessage(error)}`),
  }));
  // One line when the deployment is found to lack a kind, or to have it again: never a toast.
  push(findings.availability.onDidChange((change) => {
    if (!change) return;
    const product = KIND_PRODUCTS[change.kind];
    if (change.unavailable) storeLog.info(`${product}: ${unavailableText(change.unavailable)}. ${change.unavailable.detail}`);
    else storeLog.info(`${product}: the deployment answers for it again.`);
  }, 'the log of what the deployment has'));
  const baselines = push(new BranchBaselines({
    store: findings, project: (name) => projects.find(name),
    onLoadFailed: (name, error) => storeLog.warn(`Comparing ${name} with its primary branch failed, so no finding is marked new on this branch: ${errorMessage(error)}`),
    onListenerError: (name, error) => storeLog.error(`${name} failed to follow a change of the primary branches' findings`, error),
  }));
  const policies = push(new PoliciesService(api, () => session.deployment?.id));
  const sbom = push(new SbomService(api, () => session.deployment?.id, context.globalState.get<SbomExportRecord[]>(SBOM_HISTORY_KEY) ?? []));
  push(sbom.onDidChange((h) => void context.globalState.update(SBOM_HISTORY_KEY, h)));
  const viewState = push(new ViewState(context.workspaceState));
  phaseDone('services');
  const repos = push(new GitWorkspaceRepos(() => projects.projects.map((p) => p.name), log.for('Git')));
  // Read once and again on a change: every diagnostic links its finding, and a configuration
  // read per finding was the largest cost of a 50 000-finding refresh (bench:host's profile).
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
  const diagnostics = push(new DiagnosticsController({
    repos, findings, deploymentSlug: slug, project: (name) => projects.find(name),
    selection: () => viewState.selection(), mapping: () => settings.severityMapping(), findingUrl, log: log.for('Diagnostics'),
    unreachableAsInformation: () => settings.unreachableAsInformation(), places, baselines,
  }));
  const details = new FindingDetails(api, slug);
  const signedIn = (): boolean => session.state.kind === 'signedIn';
  push(registerFindingHover({ collection: diagnostics.collection, repos, drift, commitOf: (f, repo) => places.commitOf(f, repo), novelty: baselines, details, signedIn }));
  push(registerFindingActions({ collection: diagnostics.collection, details, repos, signedIn }));
  const detailsPanel = push(new FindingDetailsPanel({
    extensionUri: context.extensionUri, store: findings, details, places, novelty: baselines, deploymentSlug: slug, findingUrl, errorMessage,
  }));
  push(offerToFetchScannedCommits(drift));
  phaseDone('diagnostics and editor');
  const statusBar = push(new FindingsStatusBar());
  push(diagnostics.onDidChange((folders) => statusBar.update(folders)));
  const trees = createTreeViews({
    session, projects, findings, policies, workspaceRepos: repos,
    selection: () => viewState.selection(), groupBy: () => viewState.groupBy(),
    refOverride: (name) => viewState.refOverride(name), policyIds: () => settings.policyIds(), errorMessage,
    severityMapping: () => settings.severityMapping(),
    todayLocation: (finding) => todayLocationOf(places, finding),
    novelty: baselines,
  });
  push(trees);
  phaseDone('trees');
  // Findings placed onto today's code: the tree shows the lines Problems shows.
  push(drift.onDidChange(() => trees.projects.refresh()));
  // A primary branch's findings landed: the tree marks (and may filter) what is new on a branch.
  push(baselines.onDidChange(() => trees.projects.refresh()));
  push(new FindingsAttention({
    view: trees.projectsView, onDidChange: diagnostics.onDidChange, log: log.for('Findings'),
    notifyNewFindings: () => settings.notifyNewFindings(), stopNotifying: () => settings.stopNotifyingNewFindings(),
    filtersKey: () => JSON.stringify(viewState.selection()),
    fromRefresh: () => diagnostics.lastCause === 'refresh',
  }));
  const describeFilters = (): void => updateFilterDescription(trees.projectsView, viewState.selection(), session.state.kind === 'signedIn');
  describeFilters();

  const triageService = new TriageService({ api, store: findings, deploymentSlug: slug, deploymentId: () => session.deployment?.id });
  // The findings of the workspace's projects on disk: shown at the next start before any answer.
  const cache = new FindingsCache({
    dir: context.globalStorageUri.fsPath, maxBytes: () => settings.cacheMaxBytes(), onProblem: (m) => storeLog.warn(m),
  });
  let cacheWrite: ReturnType<typeof setTimeout> | undefined;
  push({ dispose: () => clearTimeout(cacheWrite) });
  push(diagnostics.onDidChange(() => {
    const deployment = session.deployment?.slug;
    if (diagnostics.lastCause !== 'refresh' || !deployment) return;
    clearTimeout(cacheWrite);
    cacheWrite = setTimeout(() => {
      const mine = new Set(repos.projectNames());
      const results = findings.shownResults().filter((r) => (r.query.filters.repos ?? []).every((name) => mine.has(name)));
      void cache.write(deployment, results).then(async (bytes) => {
        storeLog.info(`Kept ${results.length} answers of the workspace's projects on disk (${Math.round(bytes / 1024)} KiB).`);
        await cache.writeOpen(deployment, diagnostics.openAnswers(OPEN_PART_LIMIT));
        await keepShown(deployment);
      });
    }, 1000);
  }));
  // The files open in editors are opened again at the next start: their part of the cache is
  // kept up to date as editors change, so that start draws them first.
  let openPartWrite: ReturnType<typeof setTimeout> | undefined;
  push({ dispose: () => clearTimeout(openPartWrite) });
  push(vscode.window.onDidChangeVisibleTextEditors(() => {
    clearTimeout(openPartWrite);
    openPartWrite = setTimeout(() => {
      const deployment = session.deployment?.slug;
      if (deployment && settings.cacheMaxBytes() > 0 && diagnostics.current.length > 0) void cache.writeOpen(deployment, diagnostics.openAnswers(OPEN_PART_LIMIT));
    }, 1500);
  }));
  // What Problems shows, kept beside the cache it was drawn from: the next start draws it first.
  const keepShown = async (deployment: string): Promise<void> => {
    const files = diagnostics.shownFiles();
    const view = diagnostics.viewKey();
    if (files && view) await cache.writeShown(deployment, view, await encodeShownInSlices(files, shownRecord));
  };
  const startFromCache = async (): Promise<boolean> => {
    const deployment = session.deployment?.slug;
    if (!deployment || settings.cacheMaxBytes() === 0) return false;
    // The open files' part first: a few hundred findings, drawn before the whole is read.
    const openPart = await cache.readOpen(deployment);
    let previewed = openPart !== undefined && diagnostics.previewCached(openPart);
    // Then every diagnostic the last session showed, as it showed them: drawn before the findings
    // behind them are read (as long again for 50 000), given those findings when they are.
    const view = diagnostics.viewKey();
    const shownText = view === undefined ? undefined : await cache.readShown(deployment, view);
    // A URI that no longer parses makes the reader throw: the file is then not used, like a broken one.
    const shownFiles = shownText === undefined ? undefined : await decodeShownInSlices(shownText, shownReader).catch(() => undefined);
    if (shownText !== undefined && !shownFiles) storeLog.warn('What Problems showed in the last session could not be read; the findings are drawn from the cache instead.');
    if (shownFiles && await diagnostics.drawShown(shownFiles)) previewed = true;
    const results = await cache.read(deployment);
    if (results && results.length > 0) findings.adopt(results);
    const shown = results !== undefined && results.length > 0 && await diagnostics.showCached();
    // The whole cache could not be used: its open files' part does not stay on its own.
    if (previewed && !shown) diagnostics.dropPreview();
    if (shown) storeLog.info(`Showing ${results.length} answers from the last session until the platform answers.`);
    return shown;
  };

  phaseDone('cache');
  for (const tool of registerAgentTools({
    deploymentSlug: slug, project: (name) => projects.find(name), store: findings, repos, places, novelty: baselines, details,
    triage: triageService, findingUrl, errorMessage,
  })) push(tool);

  const app: App = {
    version, currentToken: () => tokens.get(),
    log, logger: (c) => log.for(c), session, projects, findings, policies, sbom, repos, diagnostics, viewState, places,
    clipboard: vscode.env.clipboard, findingUrl, projectUrl,
    ...refreshAllActions({ session, findings, projects, policies, repos, diagnostics, trees, places, cache, onKindsFailed: (gaps) => void announceKindsFailed(gaps) }),
    cancelLoads: () => trees.projects.cancelLoads(),
    revealRule: (ruleName) => revealRule(trees, ruleName),
    selectedItem: () => trees.projectsView.selection[0] ?? trees.policiesView.selection[0],
    selectedItems: () => trees.projectsView.selection,
    triage: triageService,
    showDetails: (finding) => detailsPanel.show(finding),
    startFromCache,
  };
  phaseDone('agent tools');
  for (const registration of registerCommands(app, buildCommands(app, treeCommandHandlers(trees)))) push(registration);
  phaseDone('commands');

  const sessionLog = log.for('Session');
  const rememberToken = async (): Promise<void> => log.setSecrets([await tokens.get()]);
  push(session.onDidChange((state) => {
    void vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
    describeFilters();
    void rememberToken();
  }));
  // Another window signed in or out: follow it.
  push(tokens.onDidChange(() => {
    void session.restore().then((state) => (state.kind === 'signedIn' ? app.refreshAll(false) : app.clearAll()))
      .catch((e: unknown) => sessionLog.error('Could not follow a token change', e));
  }));
  push(repos.onDidChange(() => {
    // A checkout or a new commit changes what differs from the scanned commit.
    drift.invalidate();
    trees.projects.refresh();
    void diagnostics.refresh(false).catch((e: unknown) => reportError('Updating diagnostics failed', e, log.for('Diagnostics')));
  }));
  // Grouping and refs change only the tree; filters also reach diagnostics (through their command).
  push(viewState.onDidChange(() => {
    describeFilters();
    trees.projects.refresh();
  }));
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
    if (e.affectsConfiguration('appsecFindings.severityMapping') || e.affectsConfiguration('appsecFindings.unreachableAsInformation')) {
      void diagnostics.refresh(false);
      trees.projects.refresh();
    }
  }));
  push(startAutoRefresh(() => settings.autoRefreshMinutes(), () => app.refreshAll(true), log.for('AutoRefresh')));

  // Restore without network (the remembered deployment), then connect git and show diagnostics.
  void (async () => {
    await adoptDemoToken(tokens, settings.baseUrl(), process.env, sessionLog);
    await rememberToken();
    const state = await session.restore();
    await vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
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
  const activationMs = performance.now() - activationStart;
  // CPU time next to wall time: at start-up the workbench and other extensions compete for the CPU.
  const activationCpu = process.cpuUsage(activationCpuStart);
  const activationCpuMs = (activationCpu.user + activationCpu.system) / 1000;
  const activationProfile = activationProfiler?.stop();
  // What activation does after a window reload, for the test that proves SBOM jobs are resumed.
  const resumeSbom = (): void => resumeSbomExports(app);
  return { version, app, trees, statusBar, storedState, detailsPanel, activationMs, activationCpuMs, activationPhases, activationProfile, resumeSbom, globalStorage: context.globalStorageUri };
}

/** The refresh's one notification when kinds failed, with the way to see why and to try again. */
async function announceKindsFailed(gaps: readonly KindGap[]): Promise<void> {
  const text = failureNotice(gaps);
  if (!text) return;
  const picked = await vscode.window.showWarningMessage(`AppSec: ${text}`, 'Retry', 'Show Logs');
  if (picked === 'Retry') await vscode.commands.executeCommand('appsecFindings.refresh');
  if (picked === 'Show Logs') await vscode.commands.executeCommand('appsecFindings.showLogs');
}

/** Says at once, not at the next request, when the base URL cannot be used (e.g. plain http to another host). */
function warnIfUnusableBaseUrl(baseUrl: string): void {
  try {
    parseBaseUrl(baseUrl);
  } catch (error) {
    void vscode.window.showWarningMessage(`AppSec: ${errorMessage(error)}`, 'Open Setting').then((picked) =>
      picked ? vscode.commands.executeCommand('workbench.action.openSettings', 'appsecFindings.baseUrl') : undefined);
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
