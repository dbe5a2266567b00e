/**
 * The Problems registration: the workspace view (the one place that decides what the workspace's
 * folders show) and Problems drawing its snapshots, with what a start draws before the platform
 * answers (`cached-start.ts`). A story's trace read later re-sets only its finding's file; a
 * change of the severity settings redraws the same snapshot, loading nothing.
 */
import * as vscode from 'vscode';
import type { FindingPlaces } from '../code-places/finding-places';
import type { Finding, Project } from '../core/model/types';
import type { BranchBaselines } from '../core/services/branch-baselines';
import type { FindingsStore } from '../core/services/findings-store';
import type { RefScans } from '../core/services/ref-scans';
import { WorkspaceView } from '../core/services/workspace-view';
import type { Logger } from '../host/logger';
import { affectsLevels, settings } from '../host/settings';
import type { ViewState } from '../host/view-state';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';
import { CachedStart } from './cached-start';
import { ProblemsRenderer } from './problems-renderer';

export interface ProblemsDeps {
  readonly findings: FindingsStore;
  readonly baselines: BranchBaselines;
  readonly scans: RefScans;
  readonly repos: WorkspaceRepos;
  readonly viewState: Pick<ViewState, 'selection'>;
  readonly places: FindingPlaces;
  readonly projects: { find(name: string): Project | undefined };
  readonly deploymentSlug: () => string | undefined;
  readonly findingUrl: (finding: Finding) => string | undefined;
  logger(component: string): Logger;
  /** A finding's trace steps as related information, once its story was read. */
  readonly traceRelated: (finding: Finding) => readonly vscode.DiagnosticRelatedInformation[] | undefined;
  /** A file whose findings' related information changed. */
  readonly onDidChangeTraceFile: vscode.Event<vscode.Uri>;
}

export interface Problems {
  /** What the workspace shows: the one place that decides it. */
  readonly view: WorkspaceView<WorkspaceRepo>;
  /** Problems, drawn from the view's snapshots. */
  readonly diagnostics: ProblemsRenderer;
  /** What a start draws before the platform answers, and what the cache keeps of Problems. */
  readonly cachedStart: CachedStart;
}

export function registerProblems(context: vscode.ExtensionContext, deps: ProblemsDeps): Problems {
  const { findings, repos, viewState, deploymentSlug } = deps;
  const view = new WorkspaceView({
    store: findings,
    baselines: deps.baselines,
    scans: deps.scans,
    folders: () => repos.repos(),
    keyOf: (repo) => repo.folder.uri.toString(),
    deploymentSlug,
    project: (name) => deps.projects.find(name),
    selection: () => viewState.selection(),
    mayShow: () => vscode.workspace.isTrusted,
  });
  const diagnostics = new ProblemsRenderer({
    view,
    mapping: () => settings.severityMapping(),
    findingUrl: deps.findingUrl,
    log: deps.logger('Diagnostics'),
    unreachableAsInformation: () => settings.unreachableAsInformation(),
    places: deps.places,
    traceRelated: deps.traceRelated,
  });
  const cachedStart = new CachedStart({
    view,
    renderer: diagnostics,
    store: findings,
    deploymentSlug,
    repos: () => repos.repos(),
    selection: () => viewState.selection(),
    mapping: () => settings.severityMapping(),
    unreachableAsInformation: () => settings.unreachableAsInformation(),
  });
  context.subscriptions.push(
    view,
    diagnostics,
    deps.onDidChangeTraceFile((file) => diagnostics.redrawDocument(file)),
    // The same findings, drawn with other levels: nothing is loaded.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsLevels(e)) diagnostics.redraw();
    }),
  );
  return { view, diagnostics, cachedStart };
}
