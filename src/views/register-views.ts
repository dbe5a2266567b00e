/**
 * The views' registration: the Projects and Policy Rules trees, what draws the eye to new work
 * (the badge, the new-findings notification), the filters in the Projects view's title, and the
 * details panel following the tree's selection. Filters, grouping and refs change what the tree
 * asks; placed findings, landed baselines and the severity settings only how it reads.
 */
import * as vscode from 'vscode';
import type { Event } from '../core/events';
import type { BranchBaselines } from '../core/services/branch-baselines';
import type { FindingsStore } from '../core/services/findings-store';
import type { FindingStories } from '../core/services/finding-stories';
import type { PoliciesService } from '../core/services/policies-service';
import type { ProjectsService } from '../core/services/projects-service';
import type { RefScans } from '../core/services/ref-scans';
import type { Session } from '../core/services/session';
import type { WorkspaceSnapshot } from '../core/services/workspace-view';
import type { TodayPlace } from '../core/workspace/today-place';
import type { Finding } from '../core/model/types';
import type { GitWorkspaceRepos } from '../host/git-workspace-repos';
import type { Logger } from '../host/logger';
import { affectsLevels, settings } from '../host/settings';
import { errorText } from '../host/user-errors';
import type { ViewState } from '../host/view-state';
import { FindingsAttention } from './attention';
import type { TreeInventory } from './projects-tree-deps';
import type { Node } from './tree-nodes';
import { createTreeViews, revealProject, revealRule, updateFilterDescription, type TreeViews } from './tree-views';

export interface ViewsDeps {
  readonly session: Session;
  readonly projects: ProjectsService;
  readonly findings: FindingsStore;
  readonly policies: PoliciesService;
  readonly repos: GitWorkspaceRepos;
  readonly scans: RefScans;
  readonly viewState: ViewState;
  readonly baselines: BranchBaselines;
  readonly places: { place(finding: Finding): TodayPlace | undefined };
  /** Findings' stories, read when something needs them: the tree marks those that block pull requests. */
  readonly stories: Pick<FindingStories, 'peek' | 'onDidRead'>;
  /** Findings placed in today's code: the tree reads them again. */
  readonly drift: { readonly onDidChange: Event<unknown> };
  readonly inventory: { readonly tree: TreeInventory };
  /** Problems, each time it is drawn, with why. */
  readonly diagnostics: { readonly onDidChange: vscode.Event<WorkspaceSnapshot> };
  readonly detailsPanel: { followSelection(view: vscode.TreeView<Node>): vscode.Disposable };
  logger(component: string): Logger;
}

export interface Views {
  readonly trees: TreeViews;
  /** Selects a rule in the Policy Rules view; false when no policy shown there has it. */
  revealRule(ruleName: string): Promise<boolean>;
  /** Selects a project in the Projects view; false when the view does not list it. */
  revealProject(projectName: string): Promise<boolean>;
  /** The item selected in the Projects or Policy Rules view, for commands run from the palette. */
  selectedItem(): unknown;
  /** Every item selected in the Projects view (it allows several). */
  selectedItems(): readonly unknown[];
  /** Cancels the tree's loads in progress. */
  cancelLoads(): void;
}

export function registerViews(context: vscode.ExtensionContext, deps: ViewsDeps): Views {
  const { session, viewState, baselines } = deps;
  const trees = createTreeViews({
    session,
    projects: deps.projects,
    findings: deps.findings,
    policies: deps.policies,
    workspaceRepos: deps.repos,
    scans: deps.scans,
    selection: () => viewState.selection(),
    defaultSelection: () => viewState.defaultSelection(),
    groupBy: () => viewState.groupBy(),
    refOverride: (name) => viewState.refOverride(name),
    policyIds: () => settings.policyIds(),
    errorMessage: errorText,
    severityMapping: () => settings.severityMapping(),
    unreachableAsInformation: () => settings.unreachableAsInformation(),
    todayPlace: (finding) => deps.places.place(finding),
    blocking: (finding) => blocksPullRequests(deps.stories.peek(finding)),
    baselines,
    inventory: deps.inventory.tree,
    // Filters, grouping and refs change what the tree asks; placed findings, landed baselines, stories and the scan list read how it reads.
    refreshOn: [viewState.onDidChange],
    redrawOn: [deps.drift.onDidChange, baselines.onDidChange, deps.stories.onDidRead, deps.scans.onDidList],
  });
  const describeFilters = (): void => updateFilterDescription(trees.projectsView, viewState.selection(), session.state.kind === 'signedIn');
  describeFilters();
  context.subscriptions.push(
    trees,
    deps.detailsPanel.followSelection(trees.projectsView),
    new FindingsAttention({
      view: trees.projectsView,
      onDidChange: deps.diagnostics.onDidChange,
      log: deps.logger('Findings'),
      notifyNewFindings: () => settings.notifyNewFindings(),
      stopNotifying: () => settings.stopNotifyingNewFindings(),
      filtersKey: () => JSON.stringify(viewState.selection()),
    }),
    session.onDidChange(() => describeFilters()),
    // Filters also reach diagnostics (through their command); the tree follows the view state itself.
    viewState.onDidChange(() => describeFilters()),
    // The same findings, drawn with other levels: nothing is loaded.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsLevels(e)) trees.projects.redraw();
    }),
  );
  return {
    trees,
    revealRule: (ruleName) => revealRule(trees, ruleName),
    revealProject: (name) => revealProject(trees, name),
    selectedItem: () => trees.projectsView.selection[0] ?? trees.policiesView.selection[0],
    selectedItems: () => trees.projectsView.selection,
    cancelLoads: () => trees.projects.model.cancelAll(),
  };
}

/** What the story read says of pull requests; nothing read, nothing said. */
function blocksPullRequests(known: ReturnType<FindingStories['peek']>): boolean {
  return known?.kind === 'story' && known.story.isBlocking === true;
}
