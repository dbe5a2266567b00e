/**
 * The Projects view: every project of the deployment (the workspace's first), each with its code,
 * supply-chain and secrets findings, loaded when expanded. What each node shows is decided by
 * `core/services/projects-model.ts`; the provider maps its snapshots to nodes (pure, in
 * `*-children.ts`) and redraws on its one event.
 */
import * as vscode from 'vscode';
import { withProgress } from '../host/notify';
import type { Finding, Project } from '../core/model/types';
import type { FindingsResult } from '../core/services/findings-query';
import { ProjectsModel, type ProjectsChange } from '../core/services/projects-model';
import {
  FindingGroupsCache,
  findingPageChildren,
  groupChildren,
  issueTypeChildren,
  issueTypeDescription,
  issueTypeTooltip,
  onePerPolicy,
} from './findings-children';
import { issueTypeNodes, projectsRoot } from './projects-children';
import type { ProjectsTreeDeps } from './projects-tree-deps';
import { actionChildren } from './state-messages';
import { packagePageChildren } from './dependencies-children';
import { resolveTooltip, toTreeItem } from './tree-items';
import { type IssueTypeNode, type Node } from './tree-nodes';
import { DependencyChildren } from './dependency-children-source';
import { treeSlot } from '../core/services/slot-ids';
import { kindOf } from '../core/model/finding-kinds';

export const PROJECTS_VIEW_ID = 'appsecFindings.projects';

export class ProjectsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly groups = new FindingGroupsCache();
  private readonly policyFindings = new WeakMap<FindingsResult, Finding[]>();
  /** slot → the issue-type node last handed to VS Code, which refreshes by object identity. */
  private readonly issueTypeNodes = new Map<string, IssueTypeNode>();
  readonly model: ProjectsModel;
  private readonly subscription: vscode.Disposable;
  private readonly dependencies: DependencyChildren | undefined;

  constructor(
    private readonly deps: ProjectsTreeDeps,
    private readonly viewId = PROJECTS_VIEW_ID,
  ) {
    this.model = new ProjectsModel({ ...deps, onLoadStarted: (done) => this.showProgress(done) });
    this.subscription = this.model.onDidChange((change) => this.onModelChanged(change));
    this.dependencies =
      deps.inventory &&
      new DependencyChildren(deps.inventory, {
        scaFindings: (projectName) => {
          const node = this.issueTypeNodes.get(treeSlot(projectName, 'sca'));
          return node ? (this.model.read(node).result?.findings ?? []) : [];
        },
        errorMessage: (error) => deps.errorMessage(error),
        redraw: (node) => this.changed.fire(node),
      });
  }

  /** Draws the tree again with what is loaded: the severity levels changed, nothing else. */
  redraw(): void {
    this.changed.fire(undefined);
  }

  /**
   * The groups the user opened, by id. A group that leaves the tree (its last finding ignored)
   * and comes back (Undo) is drawn anew, and VS Code has forgotten it was open: it opens again.
   */
  private readonly openGroups = new Set<string>();

  /** Follows what the user opens and closes in `view`. */
  followExpansion(view: vscode.TreeView<Node>): vscode.Disposable {
    return vscode.Disposable.from(
      view.onDidExpandElement(({ element }) => (element.kind === 'group' ? this.openGroups.add(element.id) : undefined)),
      view.onDidCollapseElement(({ element }) => this.openGroups.delete(element.id)),
    );
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return toTreeItem(node, {
      wasOpened: (n) => this.openGroups.has(n.id),
      severityMapping: this.deps.severityMapping(),
      levels: { unreachableLevel: this.deps.unreachableAsInformation?.() ? 'information' : undefined },
      todayPlace: (finding) => this.deps.todayPlace?.(finding),
      isNew: (finding) => this.deps.baselines?.isNew(finding) ?? false,
      blocking: (finding) => this.deps.blocking?.(finding) ?? false,
      issueTypeDescription: (n) => {
        const shown = this.model.read(n);
        return issueTypeDescription(shown, (result) => this.groups.count(result, this.deps.groupBy(), shown.only));
      },
      issueTypeTooltip: (n) => issueTypeTooltip(n, this.model.read(n)),
      lockfileShown: (n) => this.dependencies?.shownCount(n),
    });
  }

  async resolveTreeItem(item: vscode.TreeItem, node: Node, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    // A failed detail load still gives a tooltip: the list's facts and the reason.
    const loadDetails = (name: string, signal: AbortSignal): Promise<Project | { readonly error: string }> =>
      this.deps.projects.loadDetails(name, signal).catch((error: unknown) => ({ error: this.deps.errorMessage(error) }));
    const newAgainst = (finding: Finding): string | undefined =>
      finding.repositoryName !== undefined && this.deps.baselines?.isNew(finding) ? this.deps.baselines.comparedWith(finding.repositoryName) : undefined;
    item.tooltip = (await resolveTooltip(node, token, loadDetails, newAgainst, (finding) => this.deps.blocking?.(finding) ?? false)) ?? item.tooltip;
    return item;
  }

  getParent(node: Node): Node | undefined {
    return node.parent;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.rootChildren();
    switch (node.kind) {
      case 'project': {
        const children = issueTypeNodes(node);
        for (const child of children) {
          this.issueTypeNodes.set(child.slot, child);
          // An open project's kinds each show their count, collapsed or not: their findings load now.
          this.model.place(child);
        }
        return this.dependencies ? [...children, this.dependencies.node(node)] : children;
      }
      case 'dependencies':
      case 'lockfile':
        return this.dependencies?.children(node) ?? [];
      case 'issueType': {
        const shown = this.model.place(node);
        return issueTypeChildren(node, shown, {
          groupBy: this.deps.groupBy(),
          selection: this.deps.selection(),
          ...(this.deps.defaultSelection ? { defaults: this.deps.defaultSelection() } : {}),
          groupsOf: (result) => this.groups.get(result, this.deps.groupBy(), shown.only),
          errorMessage: (error) => this.deps.errorMessage(error),
        });
      }
      case 'group':
        return groupChildren(node);
      case 'page':
        return node.of === 'packages' ? packagePageChildren(node) : findingPageChildren(node);
      case 'message':
        return actionChildren(node);
      default:
        return [];
    }
  }

  /**
   * Waits for the load `getChildren(node)` started, if one is under way (the project list for the
   * root); true when it waited. What a caller that walks the tree waits on between two reads.
   */
  settle(node?: Node): Promise<boolean> {
    if (!node) return this.model.settle();
    if (node.kind === 'dependencies' || node.kind === 'lockfile') return this.dependencies?.settle(node) ?? Promise.resolve(false);
    return node.kind === 'issueType' ? this.model.settle(node.slot) : Promise.resolve(false);
  }

  /** Findings naming each policy once, from the slots this tree loaded, for the Policy Rules view. */
  *loadedPolicyFindings(): Iterable<Finding> {
    for (const [place, shown] of this.model.shown()) {
      const result = shown.result;
      if (!kindOf(place).ruled || !result) continue;
      let named = this.policyFindings.get(result);
      if (!named) this.policyFindings.set(result, (named = onePerPolicy(result.findings)));
      yield* named;
    }
  }

  private rootChildren(): Node[] {
    const root = this.model.root();
    return projectsRoot(root.session, root.projects, {
      workspaceProjects: root.workspaceProjects,
      refOf: root.refOf,
      checkedOutOf: root.checkedOutOf,
      errorMessage: (error) => this.deps.errorMessage(error),
    });
  }

  private onModelChanged(change: ProjectsChange): void {
    if (!change) return this.redraw();
    // A project's supply-chain findings changed: its packages' counts follow.
    this.dependencies?.findingsChanged(change);
    // A place never shown as a node is redrawn with the whole tree.
    for (const slot of change) this.changed.fire(this.issueTypeNodes.get(slot));
  }

  private showProgress(done: Promise<void>): void {
    void withProgress({ location: { viewId: this.viewId } }, () => done);
  }

  dispose(): void {
    this.dependencies?.dispose();
    this.subscription.dispose();
    this.model.dispose();
    this.changed.dispose();
  }
}
