// The inventory's tree levels load when first shown and redraw their node when the answer is in,
// a failure included: it is shown (with Refresh) rather than "Loading…" for ever.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../../../src/core/events';
import { DependencyFilterState } from '../../../src/core/services/dependency-view-filter';
import { DependencyChildren } from '../../../src/views/dependency-children-source';
import { dependenciesNode } from '../../../src/views/dependencies-children';
import { lockfileDescription } from '../../../src/views/dependency-presentation';
import type { Node, ProjectNode } from '../../../src/views/tree-nodes';

const project: ProjectNode = {
  kind: 'project',
  id: 'project/d/acme%2Fapi',
  deploymentSlug: 'd',
  inWorkspace: true,
  project: { id: 7, name: 'acme/api', tags: [] },
};

function source(lockfiles: () => Promise<never> | Promise<{ items: []; skipped: 0 }>) {
  const changed = new Emitter<void>();
  const redrawn: Node[] = [];
  const children = new DependencyChildren(
    {
      service: {
        lockfiles,
        lockfileDependencies: () => Promise.reject(new Error('unused')),
        licenseOutcomes: () => Promise.resolve(new Map()),
        onDidChange: changed.event,
      },
      filter: new DependencyFilterState(),
    },
    { scaFindings: () => [], errorMessage: (e) => (e instanceof Error ? e.message : String(e)), redraw: (n) => redrawn.push(n) },
  );
  return { children, redrawn, changed };
}

void test('a failed load redraws its node with the reason and Refresh, and a refresh asks again', async () => {
  let calls = 0;
  const { children, redrawn, changed } = source(() =>
    ++calls === 1 ? Promise.reject(new Error('the platform answered 500')) : Promise.resolve({ items: [], skipped: 0 }),
  );
  const node = children.node(project);
  assert.match((children.children(node)[0] as { text?: string }).text ?? '', /Loading lockfiles/);
  await children.settle(node);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(redrawn, [node]);
  const shown = children.children(node);
  assert.equal(shown.length, 1);
  const failed = shown[0] as { text: string; actions: readonly { title: string }[] };
  assert.match(failed.text, /Could not load the dependencies: the platform answered 500/);
  assert.ok(failed.actions.some((a) => a.title === 'Refresh'));
  assert.equal(calls, 1, 'not asked again by looking');
  changed.fire();
  children.children(node);
  assert.equal(calls, 2, 'a refresh asks again');
});

void test("dependenciesNode names the project as the inventory's repository", () => {
  assert.equal(dependenciesNode(project).repositoryId, '7');
});

void test('a loaded lockfile under a filter counts what it leaves ("1 of 3"); nothing before its load or without a filter', async () => {
  const dependency = (name: string, transitivity: 'direct' | 'transitive') => ({
    repositoryId: '7',
    ecosystem: 'npm',
    name,
    version: '1.0.0',
    transitivity,
    licenses: ['MIT'],
  });
  const filter = new DependencyFilterState();
  const children = new DependencyChildren(
    {
      service: {
        lockfiles: () => Promise.resolve({ items: [], skipped: 0 }),
        lockfileDependencies: () =>
          Promise.resolve({ items: [dependency('a', 'direct'), dependency('b', 'transitive'), dependency('c', 'transitive')], skipped: 0 }),
        licenseOutcomes: () => Promise.resolve(new Map()),
        onDidChange: new Emitter<void>().event,
      },
      filter,
    },
    { scaFindings: () => [], errorMessage: String, redraw: () => undefined },
  );
  const lockfile: Node = {
    kind: 'lockfile',
    id: `${project.id}/package-lock.json`,
    parent: children.node(project),
    lockfile: { path: 'package-lock.json', dependencies: 3 },
  };
  assert.equal(children.shownCount(lockfile), undefined, "not loaded: the platform's count stands");
  children.children(lockfile);
  await children.settle(lockfile);
  assert.equal(children.shownCount(lockfile), undefined, "no filter: the platform's count stands, whatever was read");
  filter.set({ transitivity: ['direct'] });
  assert.equal(children.shownCount(lockfile), 1);
  assert.equal(lockfileDescription(lockfile.lockfile, children.shownCount(lockfile)), '1 of 3 dependencies');
});
