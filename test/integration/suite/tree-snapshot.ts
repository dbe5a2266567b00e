/**
 * A plain-data picture of a tree, for the in-host tests: walks a provider's `getChildren` and
 * `getTreeItem` as VS Code would, waiting for loads to settle (the provider's `settle`), so a test
 * can assert on what the user would see. Test code only: the shipped providers carry none of it.
 * Pure (no `vscode`): it relies only on the shape of a TreeItem; tested in Node
 * (`test/unit/views/tree-snapshot.test.ts`).
 */

export interface SnapshotNode {
  readonly label: string;
  readonly description?: string;
  readonly contextValue?: string;
  readonly children?: SnapshotNode[];
}

/** The parts of a TreeItem a snapshot reads. `collapsibleState` 0 is VS Code's `None`. */
export interface SnapshotItem {
  readonly label?: string | { readonly label: string };
  readonly description?: string | boolean;
  readonly contextValue?: string;
  readonly collapsibleState?: number;
}

export interface SnapshotSource<T> {
  getChildren(node?: T): T[] | Promise<T[]>;
  getTreeItem(node: T): SnapshotItem | Promise<SnapshotItem>;
  /** Waits for the load that `getChildren(node)` started, if any is still pending (none: `getChildren` waits itself). */
  settle?(node?: T): Promise<unknown>;
}

/**
 * A node's children once any load they start has ended. Asked twice: the first call starts the
 * load, the second reads its outcome (the load may end before `settle` looks, so whether it
 * waited says nothing).
 */
export async function settledChildren<T>(source: SnapshotSource<T>, parent?: T): Promise<T[]> {
  await source.getChildren(parent);
  await source.settle?.(parent);
  return source.getChildren(parent);
}

/**
 * `depth` counts levels: 1 gives the root items, 2 adds their children, and so on. Collapsed
 * nodes are expanded too (that is what a test wants to see), which starts their loads.
 */
export async function snapshotTree<T>(source: SnapshotSource<T>, depth: number, parent?: T): Promise<SnapshotNode[]> {
  if (depth < 1) return [];
  const children = await settledChildren(source, parent);
  const nodes: SnapshotNode[] = [];
  for (const child of children) {
    let item = await source.getTreeItem(child);
    const expandable = item.collapsibleState !== undefined && item.collapsibleState !== 0;
    const grandchildren = expandable && depth > 1 ? await snapshotTree(source, depth - 1, child) : undefined;
    // Read the item again after its children loaded: counts in descriptions appear only then.
    if (grandchildren) item = await source.getTreeItem(child);
    const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
    nodes.push({
      label,
      ...(typeof item.description === 'string' && item.description !== '' ? { description: item.description } : {}),
      ...(item.contextValue !== undefined ? { contextValue: item.contextValue } : {}),
      ...(grandchildren ? { children: grandchildren } : {}),
    });
  }
  return nodes;
}

/** A node and the item VS Code would draw for it. */
export interface WalkedNode<T> {
  readonly node: T;
  readonly item: SnapshotItem;
}

/**
 * The nodes themselves, as menus pass them to commands, `depth` levels deep with loads awaited;
 * at most `perParent` children of each node, since a menu test needs kinds, not every finding.
 */
export async function walkTree<T>(source: SnapshotSource<T>, depth: number, perParent: number, parent?: T): Promise<WalkedNode<T>[]> {
  if (depth < 1) return [];
  const children = (await settledChildren(source, parent)).slice(0, perParent);
  const walked: WalkedNode<T>[] = [];
  for (const node of children) {
    const item = await source.getTreeItem(node);
    walked.push({ node, item });
    if (item.collapsibleState !== undefined && item.collapsibleState !== 0) walked.push(...(await walkTree(source, depth - 1, perParent, node)));
  }
  return walked;
}

/**
 * The first finding node in tree order (loading what it must), e.g. to `reveal` it. Messages,
 * actions and the dependencies are not searched.
 */
export async function firstFindingNode<T extends { readonly kind: string }>(source: SnapshotSource<T>): Promise<Extract<T, { readonly kind: 'finding' }>> {
  const search = async (nodes: readonly T[]): Promise<Extract<T, { readonly kind: 'finding' }> | undefined> => {
    for (const node of nodes) {
      if (isFinding(node)) return node;
      if (node.kind === 'message' || node.kind === 'action' || node.kind === 'dependencies') continue;
      const found = await search(await settledChildren(source, node));
      if (found) return found;
    }
    return undefined;
  };
  const found = await search(await settledChildren(source));
  if (!found) throw new Error('The tree shows no finding.');
  return found;
}

function isFinding<T extends { readonly kind: string }>(node: T): node is Extract<T, { readonly kind: 'finding' }> {
  return node.kind === 'finding';
}
