/**
 * Loads the inventory's levels of the Projects tree when they are expanded and keeps the nodes it
 * handed out, so a change redraws only what it touches: the filter or a refresh redraws every
 * "Dependencies" node shown, a project's supply-chain findings redraw that project's lockfiles.
 * Pure of `vscode`: the provider passes its redraw.
 */
import type { Disposable } from '../core/events';
import { describeFilter } from '../core/services/dependency-view-filter';
import type { Finding } from '../core/model/types';
import { packageFindingsOf } from '../core/workspace/package-findings';
import { dependenciesNode, inventoryFailed, lockfileChildren, packageChildren, packageItems, type PackageContext } from './dependencies-children';
import { message } from './state-messages';
import type { TreeInventory } from './projects-tree-deps';
import { type DependenciesNode, type LockfileNode, type Node, type ProjectNode } from './tree-nodes';
import { treeSlot } from '../core/services/slot-ids';
import { t } from '../core/l10n';

export interface DependencyChildrenHost {
  /** The supply-chain findings the tree holds for a project (its shown ref and filters). */
  scaFindings(projectName: string): readonly Finding[];
  errorMessage(error: unknown): string;
  /** Redraws a node and what is under it. */
  redraw(node: Node): void;
}

type DrawContext = Omit<PackageContext, 'outcomes'>;
type Draw = (context: DrawContext) => Node[];
/** How a loaded node draws, and for a lockfile how many of its packages the filter leaves. */
interface Loaded {
  readonly draw: Draw;
  readonly shown?: (context: DrawContext) => number;
}
interface Load {
  readonly pending: Promise<Loaded>;
  done?: Loaded;
}

export class DependencyChildren implements Disposable {
  /** project node id → the "Dependencies" node last handed out. */
  private readonly shown = new Map<string, DependenciesNode>();
  /** node id → its load, and once done how to draw it. */
  private readonly loads = new Map<string, Load>();
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly inventory: TreeInventory,
    private readonly host: DependencyChildrenHost,
  ) {
    const redrawAll = (): void => {
      for (const node of this.shown.values()) host.redraw(node);
    };
    const reload = (): void => {
      this.loads.clear();
      redrawAll();
    };
    this.subscriptions = [inventory.service.onDidChange(reload), inventory.filter.onDidChange(redrawAll)];
  }

  node(project: ProjectNode): DependenciesNode {
    const node = dependenciesNode(project);
    this.shown.set(project.id, node);
    return node;
  }

  /**
   * The node's children as far as they are loaded: the first look starts the load and shows
   * "Loading…", and the node is redrawn when the answer is in (a tree never waits on a promise,
   * so a slow inventory holds nothing else up).
   */
  children(node: DependenciesNode | LockfileNode): Node[] {
    const held = this.loads.get(node.id);
    if (held?.done) return held.done.draw(this.context(node));
    if (!held) {
      const load: Load = { pending: this.load(node) };
      this.loads.set(node.id, load);
      void load.pending.then((done) => {
        if (this.loads.get(node.id) !== load) return;
        load.done = done;
        this.host.redraw(node);
      });
    }
    return [
      message(node, node.id, { state: 'loading', tone: 'loading', text: node.kind === 'dependencies' ? t('Loading lockfiles…') : t('Loading dependencies…') }),
    ];
  }

  /**
   * How many of a loaded lockfile's packages a dependency filter leaves (its row says "3 of 14");
   * undefined without a filter, so the row keeps the platform's own count.
   */
  shownCount(node: LockfileNode): number | undefined {
    if (describeFilter(this.inventory.filter.value) === undefined) return undefined;
    return this.loads.get(node.id)?.done?.shown?.(this.context(node));
  }

  /** Waits for the node's load, if one is under way (for tree snapshots in tests). */
  async settle(node: Node): Promise<boolean> {
    const held = this.loads.get(node.id);
    if (!held || held.done) return false;
    await held.pending;
    return true;
  }

  /** Reads the node's lists; what it gives draws them with the filter and findings of the moment. */
  private async load(node: DependenciesNode | LockfileNode): Promise<Loaded> {
    try {
      if (node.kind === 'dependencies') {
        const answer = await this.inventory.service.lockfiles(node.repositoryId);
        return { draw: () => lockfileChildren(node, answer) };
      }
      const repositoryId = node.parent.repositoryId;
      const [answer, outcomes] = await Promise.all([
        this.inventory.service.lockfileDependencies(repositoryId, node.lockfile.path),
        this.inventory.service.licenseOutcomes(repositoryId),
      ]);
      return {
        draw: (context) => packageChildren(node, answer, { ...context, outcomes }),
        // A deployment without the inventory has no count to compare: the row keeps the platform's.
        ...(answer.unavailable ? {} : { shown: (context: DrawContext) => packageItems(answer.items, { ...context, outcomes }).length }),
      };
    } catch (error) {
      const reason = this.host.errorMessage(error);
      // Shown until Refresh, which reads the inventory again (its change clears every load).
      return { draw: () => inventoryFailed(node, reason) };
    }
  }

  private context(node: DependenciesNode | LockfileNode): DrawContext {
    const project = node.kind === 'dependencies' ? node.parent : node.parent.parent;
    const index = packageFindingsOf(this.host.scaFindings(project.project.name));
    return { filter: this.inventory.filter.value, findingsOf: (d) => index.of(d) };
  }

  /** The tree's slots that changed: projects whose supply-chain findings did redraw their inventory. */
  findingsChanged(slots: readonly string[]): void {
    const changed = new Set(slots);
    for (const node of this.shown.values()) {
      if (changed.has(treeSlot(node.parent.project.name, 'sca'))) this.host.redraw(node);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.shown.clear();
    this.loads.clear();
  }
}
