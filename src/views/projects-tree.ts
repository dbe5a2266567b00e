/**
 * The Projects view: every project of the deployment (the workspace's first), each with its code
 * and supply-chain findings, loaded when expanded. The provider only asks the services, maps
 * their state to nodes (pure, in `*-children.ts`) and refreshes on their events; what each
 * issue-type node asks the store is `core/services/project-view.ts`.
 */
import * as vscode from 'vscode';
import type { Disposable } from '../core/events';
import type { Finding, Project } from '../core/model/types';
import type { FindingsResult } from '../core/services/findings-query';
import { shownResult } from '../core/services/slot-bindings';
import {
  FindingGroupsCache, findingPageChildren, groupChildren, issueTypeChildren, issueTypeDescription, issueTypeTooltip, onePerPolicy, type SlotView,
} from './findings-children';
import { placeSlotOf, ProjectView } from '../core/services/project-view';
import { issueTypeNodes, projectsRoot } from './projects-children';
import type { ProjectsTreeDeps } from './projects-tree-deps';
import { TreeSlotLoads } from './slot-loads';
import { actionChildren } from './state-messages';
import { resolveTooltip, toTreeItem } from './tree-items';
import type { FindingNode, IssueTypeNode, Node } from './tree-nodes';
import { snapshotTree, type SnapshotNode } from './tree-snapshot';

export const PROJECTS_VIEW_ID = 'appsecFindings.projects';

export class ProjectsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly groups = new FindingGroupsCache();
  private readonly policyFindings = new WeakMap<FindingsResult, Finding[]>();
  /** slot → the issue-type node last handed to VS Code, which refreshes by object identity. */
  private readonly issueTypeNodes = new Map<string, IssueTypeNode>();
  private readonly loads: TreeSlotLoads;
  private readonly queries: ProjectView;
  private readonly subscriptions: Disposable[];

  constructor(private readonly deps: ProjectsTreeDeps, private readonly viewId = PROJECTS_VIEW_ID) {
    this.queries = new ProjectView(deps);
    this.loads = new TreeSlotLoads({ findings: deps.findings, onLoadStarted: (_slot, done) => this.showProgress(done) });
    this.subscriptions = [
      deps.projects.onDidChange(() => this.redraw()),
      deps.workspaceRepos.onDidChange(() => this.redraw()),
      deps.findings.onDidChange((slots) => this.onSlotsChanged(slots), 'the Projects tree'),
      ...(deps.session.onDidChange ? [deps.session.onDidChange(() => this.redraw())] : []),
    ];
  }

  /**
   * Redraws the tree from the services' state: after a filter, grouping or ref change, or a
   * refresh that expired findings slots. Shown slots without a fresh answer load; failed ones
   * are tried again.
   */
  refresh(): void {
    this.loads.nextEpoch({ force: false });
    this.redraw();
  }

  /** Stops waiting for a slot's load; its node then offers to load again. */
  cancelLoad(slot: string): void {
    if (this.loads.cancel(slot)) this.refreshSlot(slot);
  }

  /** Stops waiting for every load this tree started. */
  cancelLoads(): void {
    for (const slot of this.loads.cancelAll()) this.refreshSlot(slot);
  }

  /** Loads a slot again (Retry, Load Again); without a slot, the project list. */
  retry(slot?: string): void {
    if (slot === undefined) {
      this.loadProjects(true);
      return;
    }
    const node = this.issueTypeNodes.get(slot);
    const query = node && this.queries.query(node);
    if (!node || !query) {
      this.refresh();
      return;
    }
    this.loads.start(node.slot, query, true);
    this.refreshSlot(node.slot);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return toTreeItem(node, {
      severityMapping: this.deps.severityMapping(),
      levels: { unreachableLevel: this.deps.unreachableAsInformation?.() ? 'information' : undefined },
      todayPlace: (finding) => this.deps.todayPlace?.(finding),
      isNew: (finding) => this.deps.novelty?.isNew(finding) ?? false,
      issueTypeDescription: (n) => issueTypeDescription(this.slotView(n), (result) => this.groups.count(result, this.deps.groupBy(), this.queries.localFilter())),
      issueTypeTooltip: (n) => issueTypeTooltip(n, this.slotView(n)),
    });
  }

  async resolveTreeItem(item: vscode.TreeItem, node: Node, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    // A failed detail load still gives a tooltip: the list's facts and the reason.
    const loadDetails = (name: string, signal: AbortSignal): Promise<Project | { readonly error: string }> =>
      this.deps.projects.loadDetails(name, signal).catch((error: unknown) => ({ error: this.deps.errorMessage(error) }));
    const newAgainst = (finding: Finding): string | undefined =>
      finding.repositoryName !== undefined && this.deps.novelty?.isNew(finding) ? this.deps.novelty.comparedWith(finding.repositoryName) : undefined;
    item.tooltip = (await resolveTooltip(node, token, loadDetails, newAgainst)) ?? item.tooltip;
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
        for (const child of children) this.issueTypeNodes.set(child.slot, child);
        return children;
      }
      case 'issueType': {
        const query = this.queries.query(node);
        if (query) this.loads.ensure(node.slot, query);
        const primary = this.queries.compareWithPrimary(node);
        const only = this.queries.localFilter();
        return issueTypeChildren(node, this.slotView(node), {
          groupBy: this.deps.groupBy(),
          selection: this.deps.selection(),
          groupsOf: (result) => this.groups.get(result, this.deps.groupBy(), only),
          errorMessage: (error) => this.deps.errorMessage(error),
          unscanned: (n) => this.queries.unscanned(n),
          novelty: () => ({ primary, comparedWith: primary && this.deps.novelty?.comparedWith(node.parent.project.name) }),
        });
      }
      case 'group':
        return groupChildren(node);
      case 'page':
        return findingPageChildren(node);
      case 'message':
        return actionChildren(node);
      default:
        return [];
    }
  }

  /** For tests: the tree as plain data, `depth` levels deep, with every load awaited. */
  snapshot(depth: number): Promise<SnapshotNode[]> {
    return snapshotTree<Node>({ getChildren: (n) => this.getChildren(n), getTreeItem: (n) => this.getTreeItem(n), settle: (n) => this.settle(n) }, depth);
  }

  /** For tests: the first finding node in tree order (loading what it must), e.g. to `reveal` it. */
  async firstFindingNode(): Promise<FindingNode> {
    const search = async (nodes: readonly Node[]): Promise<FindingNode | undefined> => {
      for (const node of nodes) {
        if (node.kind === 'finding') return node;
        if (node.kind === 'message' || node.kind === 'action') continue;
        const found = await search(await this.settledChildren(node));
        if (found) return found;
      }
      return undefined;
    };
    const found = await search(await this.settledChildren(undefined));
    if (!found) throw new Error('The Projects tree shows no finding.');
    return found;
  }

  /** Children once any load they start has ended (asked again: the load may end before `settle` looks). */
  private async settledChildren(node: Node | undefined): Promise<Node[]> {
    this.getChildren(node);
    await this.settle(node);
    return this.getChildren(node);
  }

  /** Findings naming each policy once, from the slots this tree loaded, for the Policy Rules view. */
  *loadedPolicyFindings(): Iterable<Finding> {
    for (const node of this.issueTypeNodes.values()) {
      if (node.issueType !== 'sast') continue;
      const result = shownResult(this.deps.findings.state(node.slot));
      if (!result) continue;
      let named = this.policyFindings.get(result);
      if (!named) this.policyFindings.set(result, (named = onePerPolicy(result.findings)));
      yield* named;
    }
  }

  private rootChildren(): Node[] {
    const { session, projects, workspaceRepos } = this.deps;
    if (session.state.kind === 'signedIn' && projects.state.kind === 'idle') this.loadProjects(false);
    return projectsRoot(session.state, projects.state, {
      workspaceProjects: workspaceRepos.projectNames(),
      // A chosen ref wins; else a workspace project shows the branch checked out, as Problems does.
      refOverride: (name) => this.deps.refOverride(name) ?? workspaceRepos.repos().find((r) => r.projectName === name)?.branch,
      errorMessage: (error) => this.deps.errorMessage(error),
    });
  }

  private loadProjects(force: boolean): void {
    // A failure is kept in the service's state, which the root shows.
    this.showProgress(this.deps.projects.load({ force }).then(() => undefined, () => undefined));
  }

  private slotView(node: IssueTypeNode): SlotView {
    const query = this.queries.query(node);
    return query ? this.loads.view(node.slot, query) : { loading: false, cancelled: false };
  }

  private async settle(node?: Node): Promise<boolean> {
    if (!node) {
      if (this.deps.projects.state.kind !== 'loading') return false;
      await this.deps.projects.load().catch(() => undefined);
      return true;
    }
    return node.kind === 'issueType' ? this.loads.settle(node.slot) : false;
  }

  private onSlotsChanged(slots: readonly string[]): void {
    // Other consumers' slots (Problems) are not shown here.
    for (const slot of slots) if (slot.startsWith('tree:')) this.refreshSlot(placeSlotOf(slot));
  }

  /** Redraws one issue-type node, or the whole tree when that node was never shown. */
  private refreshSlot(slot: string): void {
    this.changed.fire(this.issueTypeNodes.get(slot));
  }

  private redraw(): void {
    this.changed.fire(undefined);
  }

  private showProgress(done: Promise<void>): void {
    void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => done);
  }

  dispose(): void {
    this.loads.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
