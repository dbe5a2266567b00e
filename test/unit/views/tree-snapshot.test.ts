// The plain-data walk integration tests use to assert what a tree shows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { snapshotTree, type SnapshotItem, type SnapshotSource } from '../../integration/suite/tree-snapshot';

interface FakeNode {
  readonly name: string;
  readonly children?: FakeNode[];
  readonly loads?: boolean;
}

/** A tree whose "lazy" node shows a loading child until settled, like an issue-type node. */
function source(root: FakeNode[]): SnapshotSource<FakeNode> & { settled: Set<string> } {
  const settled = new Set<string>();
  return {
    settled,
    getChildren: (node) => {
      if (!node) return root;
      if (node.loads && !settled.has(node.name)) return [{ name: 'Loading…' }];
      return node.children ?? [];
    },
    getTreeItem: (node): SnapshotItem => ({
      label: node.name === 'labelled' ? { label: 'from TreeItemLabel' } : node.name,
      description: node.loads ? (settled.has(node.name) ? String(node.children?.length ?? 0) : false) : '',
      contextValue: node.children || node.loads ? 'parent' : undefined,
      collapsibleState: node.children || node.loads ? 1 : 0,
    }),
    settle: (node) => {
      if (node?.loads) settled.add(node.name);
      return Promise.resolve();
    },
  };
}

const tree: FakeNode[] = [
  { name: 'project', children: [{ name: 'Code findings', loads: true, children: [{ name: 'high' }, { name: 'low' }] }] },
  { name: 'labelled' },
];

void describe('snapshotTree', () => {
  void test('depth 1 gives the roots only', async () => {
    assert.deepEqual(await snapshotTree(source(tree), 1), [{ label: 'project', contextValue: 'parent' }, { label: 'from TreeItemLabel' }]);
  });

  void test('deeper levels wait for loads and show descriptions read after them', async () => {
    assert.deepEqual(await snapshotTree(source(tree), 3), [
      {
        label: 'project',
        contextValue: 'parent',
        children: [{ label: 'Code findings', description: '2', contextValue: 'parent', children: [{ label: 'high' }, { label: 'low' }] }],
      },
      { label: 'from TreeItemLabel' },
    ]);
  });

  void test('depth 0 is empty', async () => {
    assert.deepEqual(await snapshotTree(source(tree), 0), []);
  });
});
