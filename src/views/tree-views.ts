/**
 * Creates both tree views and wires what connects them; the views' registration
 * (`register-views.ts`) calls this once, and the commands' registers `treeCommandHandlers` with
 * the other commands.
 */
import * as vscode from 'vscode';
import { describeSelection, type FilterSelection } from '../core/services/filters';
import type { PoliciesService } from '../core/services/policies-service';
import { POLICIES_VIEW_ID, PoliciesTreeProvider } from './policies-tree';
import { PROJECTS_VIEW_ID, ProjectsTreeProvider } from './projects-tree';
import type { ProjectsTreeDeps } from './projects-tree-deps';
import { TREE_COMMANDS, type RetryTarget } from './tree-commands';
import type { Node } from './tree-nodes';

export interface TreeViewsDeps extends ProjectsTreeDeps {
  readonly policies: PoliciesService;
  /** Policy ids from the `appsecFindings.policyIds` setting. */
  policyIds(): readonly string[];
}

export interface TreeViews {
  readonly projectsView: vscode.TreeView<Node>;
  readonly policiesView: vscode.TreeView<Node>;
  readonly projects: ProjectsTreeProvider;
  readonly policies: PoliciesTreeProvider;
  dispose(): void;
}

export function createTreeViews(deps: TreeViewsDeps): TreeViews {
  const projects = new ProjectsTreeProvider(deps);
  const policies = new PoliciesTreeProvider({
    session: deps.session,
    policies: deps.policies,
    // Policies named by the findings the Projects view loaded.
    policyFindings: () => projects.loadedPolicyFindings(),
    policyIds: () => deps.policyIds(),
    errorMessage: (error) => deps.errorMessage(error),
  });
  // Several findings can be selected to triage or ticket them together.
  const projectsView = vscode.window.createTreeView(PROJECTS_VIEW_ID, { treeDataProvider: projects, showCollapseAll: true, canSelectMany: true });
  const policiesView = vscode.window.createTreeView(POLICIES_VIEW_ID, { treeDataProvider: policies, showCollapseAll: true });
  updateFilterDescription(projectsView, deps.selection(), deps.session.state.kind === 'signedIn');
  // What is selected, as a context key: the palette offers a tree item's actions for it (keyboard).
  const announceSelection = (view: vscode.TreeView<Node>, provider: { getTreeItem(node: Node): vscode.TreeItem }): vscode.Disposable =>
    view.onDidChangeSelection((e) => {
      const node = e.selection[0];
      void vscode.commands.executeCommand('setContext', 'appsecFindings.selection', node ? (provider.getTreeItem(node).contextValue ?? '') : '');
    });
  const disposables: vscode.Disposable[] = [
    deps.findings.onDidChange(() => policies.onPolicySourcesChanged()),
    announceSelection(projectsView, projects),
    announceSelection(policiesView, policies),
    projects.followExpansion(projectsView),
    projectsView,
    policiesView,
    projects,
    policies,
  ];
  return {
    projectsView,
    policiesView,
    projects,
    policies,
    dispose: () => {
      for (const disposable of disposables) disposable.dispose();
    },
  };
}

/**
 * Selects a rule in the Policy Rules view (its policy and mode open), focused for the keyboard;
 * false when no policy shown there has it.
 */
export async function revealRule(views: Pick<TreeViews, 'policies' | 'policiesView'>, ruleName: string): Promise<boolean> {
  const node = await views.policies.findRule(ruleName);
  if (!node) return false;
  await views.policiesView.reveal(node, { select: true, focus: true, expand: true });
  return true;
}

/** Selects a project in the Projects view, focused; false when the view does not list it. */
export async function revealProject(views: Pick<TreeViews, 'projects' | 'projectsView'>, projectName: string): Promise<boolean> {
  const node = views.projects.getChildren().find((n) => n.kind === 'project' && n.project.name === projectName);
  if (!node) return false;
  await views.projectsView.reveal(node, { select: true, focus: true, expand: true });
  return true;
}

/**
 * Shows the active filters in the Projects view's title ("open · critical, high"); call on every
 * filter and session change. Signed out, nothing is filtered, so nothing is said.
 */
export function updateFilterDescription(view: vscode.TreeView<Node>, selection: FilterSelection, signedIn: boolean): void {
  const text = signedIn ? describeSelection(selection) : '';
  view.description = text === '' ? undefined : text;
}

export type TreeCommandId = (typeof TREE_COMMANDS)[keyof typeof TREE_COMMANDS];

/** The views' own commands, as the command map types them (their arguments are checked there). */
export interface TreeCommandHandlers {
  readonly [TREE_COMMANDS.cancelLoad]: (slot: string) => void;
  readonly [TREE_COMMANDS.retryLoad]: (target: RetryTarget) => void;
}

/** Handlers of the views' own commands, registered with every other command (`commands/register-command-map.ts`). */
export function treeCommandHandlers(views: Pick<TreeViews, 'projects' | 'policies'>): TreeCommandHandlers {
  return {
    [TREE_COMMANDS.cancelLoad]: (slot) => views.projects.model.cancel(slot),
    [TREE_COMMANDS.retryLoad]: (target) => {
      if (target.view === 'projects') views.projects.model.retry(target.slot);
      else views.policies.retry(target.policyId);
    },
  };
}
