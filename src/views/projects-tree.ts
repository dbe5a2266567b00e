/**
 * The Projects view: every project of the deployment (the workspace's first), each with its code
 * and supply-chain findings, loaded when expanded. The provider only asks the services, maps
 * their state to nodes (pure, in `*-children.ts`) and refreshes on their events.
 */
import * as vscode from 'vscode';
import type { Disposable, Event } from '../core/events';
import type { Deployment, Finding, Project } from '../core/model/types';
import { toQueryFilters, type FilterSelection } from '../core/services/filters';
import { queryKey, type FindingsQuery, type FindingsResult, type FindingsService } from '../core/services/findings-service';
import type { GroupBy } from '../core/services/grouping';
import type { ProjectsService } from '../core/services/projects-service';
import type { SessionState } from '../core/services/session';
import type { WorkspaceRepos } from '../host/workspace-repos';
import {
  FindingGroupsCache, findingPageChildren, groupChildren, issueTypeChildren, issueTypeDescription, onePerPolicy, type SlotView,
} from './findings-children';
import { issueTypeNodes, projectsRoot } from './projects-children';
import { actionChildren } from './state-messages';
import { resolveTooltip, toTreeItem } from './tree-items';
import type { IssueTypeNode, Node } from './tree-nodes';
import { snapshotTree, type SnapshotNode } from './tree-snapshot';

export const PROJECTS_VIEW_ID = 'appsecFindings.projects';

/** What the trees need of the session (the `Session` class fits). */
export interface TreeSession {
  readonly deployment: Deployment | undefined;
  readonly state: SessionState;
  /** When given, the tree refreshes itself on sign-in, sign-out and deployment changes. */
  readonly onDidChange?: Event<SessionState>;
}

export interface ProjectsTreeDeps {
  readonly session: TreeSession;
  readonly projects: ProjectsService;
  readonly findings: FindingsService;
  readonly workspaceRepos: WorkspaceRepos;
  selection(): FilterSelection;
  groupBy(): GroupBy;
  refOverride(projectName: string): string | undefined;
  /** Short user-facing text for an error; the detail goes to the log. */
  errorMessage(error: unknown): string;
}

/** What this tree asked of one slot. */
interface SlotLoad {
  readonly key: string;
  readonly generation: number;
  readonly controller: AbortController;
  cancelled: boolean;
  done: Promise<void>;
}

export class ProjectsTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly groups = new FindingGroupsCache();
  private readonly policyFindings = new WeakMap<FindingsResult, Finding[]>();
  /** slot → the issue-type node last handed to VS Code, which refreshes by object identity. */
  private readonly issueTypeNodes = new Map<string, IssueTypeNode>();
  private readonly loads = new Map<string, SlotLoad>();
  /** Bumped by `reload()`: a slot loaded in an older generation is fetched again when shown. */
  private generation = 0;
  private readonly subscriptions: Disposable[];

  constructor(private readonly deps: ProjectsTreeDeps, private readonly viewId = PROJECTS_VIEW_ID) {
    this.subscriptions = [
      deps.projects.onDidChange(() => this.refresh()),
      deps.workspaceRepos.onDidChange(() => this.refresh()),
      deps.findings.onDidChange((slot) => this.onSlotChanged(slot)),
      ...(deps.session.onDidChange ? [deps.session.onDidChange(() => this.refresh())] : []),
    ];
  }

  /** Redraws the tree from the services' current state (after a filter, grouping or ref change). */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Fetches the projects and every shown findings slot again. */
  reload(): void {
    this.generation++;
    if (this.deps.session.state.kind === 'signedIn') this.loadProjects(true);
    this.refresh();
  }

  /** Stops waiting for a slot's load; the node then offers to load again. */
  cancelLoad(slot: string): void {
    const load = this.loads.get(slot);
    if (!load) return;
    load.cancelled = true;
    load.controller.abort();
    this.refreshSlot(slot);
  }

  /** Loads a slot again (Retry, Load Again); without a slot, the project list. */
  retry(slot?: string): void {
    const node = slot === undefined ? undefined : this.issueTypeNodes.get(slot);
    const query = node && this.queryFor(node);
    if (!node || !query) {
      this.reload();
      return;
    }
    this.startLoad(node, query, queryKey(query), true);
    this.refreshSlot(node.slot);
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return toTreeItem(node, { issueTypeDescription: (n) => issueTypeDescription(this.slotView(n), (r) => this.groups.count(r, this.deps.groupBy())) });
  }

  async resolveTreeItem(item: vscode.TreeItem, node: Node, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    // A failed detail load still gives a tooltip: the list's facts and the reason.
    const loadDetails = (name: string, signal: AbortSignal): Promise<Project | { readonly error: string }> =>
      this.deps.projects.loadDetails(name, signal).catch((error: unknown) => ({ error: this.deps.errorMessage(error) }));
    item.tooltip = (await resolveTooltip(node, token, loadDetails)) ?? item.tooltip;
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
      case 'issueType':
        this.ensureLoad(node);
        return issueTypeChildren(node, this.slotView(node), {
          groupBy: this.deps.groupBy(),
          selection: this.deps.selection(),
          groupsOf: (result) => this.groups.get(result, this.deps.groupBy()),
          errorMessage: (error) => this.deps.errorMessage(error),
        });
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

  /** Findings naming each policy once, from the slots this tree loaded, for the Policy Rules view. */
  *loadedPolicyFindings(): Iterable<Finding> {
    for (const node of this.issueTypeNodes.values()) {
      if (node.issueType !== 'sast') continue;
      const state = this.deps.findings.state(node.slot);
      const result = state.kind === 'loaded' ? state.result : state.kind === 'loading' ? state.previous : undefined;
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
      refOverride: (name) => this.deps.refOverride(name),
      errorMessage: (error) => this.deps.errorMessage(error),
    });
  }

  private loadProjects(force: boolean): void {
    // A failure is kept in the service's state, which the root shows.
    this.showProgress(this.deps.projects.load({ force }).then(() => undefined, () => undefined));
  }

  private queryFor(node: IssueTypeNode): FindingsQuery | undefined {
    const deployment = this.deps.session.deployment;
    if (!deployment) return undefined;
    const { project, ref } = node.parent;
    const filters = toQueryFilters(this.deps.selection(), node.issueType, { repo: project.name, ref, dedup: true });
    return { deploymentSlug: deployment.slug, issueType: node.issueType, filters };
  }

  /** Starts a load unless this query was already asked for in this generation (then its outcome stands). */
  private ensureLoad(node: IssueTypeNode): void {
    const query = this.queryFor(node);
    if (!query) return;
    const key = queryKey(query);
    const load = this.loads.get(node.slot);
    if (load && load.key === key && load.generation === this.generation) return;
    // The same query again means `reload()` was asked for: fetch, do not take the cache.
    this.startLoad(node, query, key, load?.key === key);
  }

  private startLoad(node: IssueTypeNode, query: FindingsQuery, key: string, force: boolean): void {
    this.loads.get(node.slot)?.controller.abort();
    const controller = new AbortController();
    const load: SlotLoad = { key, generation: this.generation, controller, cancelled: false, done: Promise.resolve() };
    // Recorded before `load()`, which fires a change (and so a redraw) before it returns.
    this.loads.set(node.slot, load);
    // A failure is kept in the slot's state, which the node shows; an abort is the user's cancel.
    load.done = this.deps.findings.load(node.slot, query, { force, signal: controller.signal }).then(() => undefined, () => undefined);
    this.showProgress(load.done);
  }

  /** The slot's state as it concerns the current query only. */
  private slotView(node: IssueTypeNode): SlotView {
    const query = this.queryFor(node);
    if (!query) return { loading: false, cancelled: false };
    const key = queryKey(query);
    const load = this.loads.get(node.slot);
    const asked = load?.key === key;
    const cancelled = asked && load.cancelled;
    const matching = (result: FindingsResult | undefined): FindingsResult | undefined =>
      result && queryKey(result.query) === key ? result : undefined;
    const state = this.deps.findings.state(node.slot);
    switch (state.kind) {
      case 'idle':
        return { loading: false, cancelled };
      case 'loading':
        return { loading: true, cancelled, result: matching(state.previous) };
      case 'failed':
        // A failure of a query this tree did not ask for is not this query's: it is about to be asked.
        return asked ? { loading: false, cancelled, error: state.error } : { loading: false, cancelled };
      case 'loaded': {
        const result = matching(state.result);
        // An answer for other filters, marked stale: the load for these filters is what failed.
        if (!result && asked && state.result.staleBecause !== undefined) return { loading: false, cancelled, error: state.result.staleBecause };
        return { loading: false, cancelled, result };
      }
    }
  }

  private async settle(node?: Node): Promise<boolean> {
    if (!node) {
      if (this.deps.projects.state.kind !== 'loading') return false;
      await this.deps.projects.load().catch(() => undefined);
      return true;
    }
    if (node.kind !== 'issueType') return false;
    const load = this.loads.get(node.slot);
    if (!load || load.cancelled || this.deps.findings.state(node.slot).kind !== 'loading') return false;
    await load.done;
    return true;
  }

  private onSlotChanged(slot: string): void {
    if (!slot.startsWith('tree:')) return; // another consumer's slot (diagnostics): not shown here
    this.refreshSlot(slot);
  }

  private refreshSlot(slot: string): void {
    const node = this.issueTypeNodes.get(slot);
    this.changed.fire(node);
  }

  private showProgress(done: Promise<void>): void {
    void vscode.window.withProgress({ location: { viewId: this.viewId } }, () => done);
  }

  dispose(): void {
    for (const load of this.loads.values()) load.controller.abort();
    this.loads.clear();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
