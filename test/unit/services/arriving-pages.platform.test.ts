// A start with nothing to show (no disk cache): Problems draws a first load's pages as they come,
// not after the last one, over the real store, client and a slow local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { RefScans } from '../../../src/core/services/ref-scans';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import { WorkspaceView, type WorkspaceSnapshot } from '../../../src/core/services/workspace-view';
import type { FolderRef } from '../../../src/core/services/folder-view';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

interface Folder extends FolderRef { readonly key: string }

void describe('a first load\'s pages, drawn as they come', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    // One project whose code findings take many pages of 100: more than the 4 a first load asks at once.
    data = generateDeployment({ projects: 1, sastPerProject: 1200, scaPerProject: 10, refsPerProject: 1 });
    h = await startHarness({ data });
  });
  after(() => h.close());

  const setUp = () => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
    const name = data.projects[0]?.name ?? '';
    const project = (n: string) => (n === name ? { id: data.projects[0]?.id, name, primaryBranch: 'main', defaultBranch: 'main', tags: [] } : undefined) as unknown as ReturnType<ConstructorParameters<typeof WorkspaceView<Folder>>[0]['project']>;
    const folders: Folder[] = [{ key: 'file:///w', projectName: name, branch: 'main' }];
    const view = new WorkspaceView<Folder>({
      store, baselines: new BranchBaselines({ store, project }), scans: new RefScans(store), folders: () => folders, keyOf: (f) => f.key, deploymentSlug: () => 'acme', project,
      selection: () => EMPTY_SELECTION, mayShow: () => true,
    });
    const seen: { cause: WorkspaceSnapshot['cause']; count: number; ms: number }[] = [];
    const started = performance.now();
    view.onDidChange((s) => seen.push({ cause: s.cause, count: s.folders.reduce((n, f) => n + f.findings.length, 0), ms: performance.now() - started }));
    return { view, seen };
  };

  void test('with nothing held, the first pages are shown a round trip in, long before the last page; the refresh\'s drawing then replaces them', async () => {
    h.server.setLatency(150);
    try {
      const { view, seen } = setUp();
      await view.refresh();
      const last = seen.at(-1);
      assert.equal(last?.cause, 'refresh');
      const total = last?.count ?? 0;
      const codeOnMain = data.sast.filter((f) => f.ref === 'main' || f.ref === 'refs/heads/main').length;
      assert.ok(total >= 400, `the list is long enough to take several waves (${total} findings, ${codeOnMain} code findings on main)`);
      const arriving = seen.filter((s) => s.cause === 'arriving');
      assert.ok(arriving.length > 0, `pages are shown as they come: ${JSON.stringify(seen)}`);
      const first = arriving[0];
      assert.ok(first && first.count > 0 && first.count < total, `the first drawing holds the first pages only (${first?.count} of ${total})`);
      assert.ok(first.ms < (last?.ms ?? 0) - 150, `it comes at least a round trip before the last page (${first.ms.toFixed(0)} ms vs ${last?.ms.toFixed(0)} ms)`);
      assert.ok(arriving.every((s) => s.count <= total), 'a drawing of arrived pages never shows more than the answer');
    } finally {
      h.server.setLatency(0);
    }
  });

  void test('a refresh of what is already shown draws no arriving pages: the answer shown stays until the new one is whole', async () => {
    const { view, seen } = setUp();
    await view.refresh();
    const mark = seen.length;
    await view.refresh(true);
    assert.deepEqual(seen.slice(mark).map((s) => s.cause), ['refresh']);
  });

  void test('a refresh that asks for a dozen pages at once writes no "possible memory leak" warning to the host\'s log', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    h.server.setLatency(50);
    try {
      const { view } = setUp();
      await view.refresh();
      // The second read knows the list's length and asks for all of its 12 pages in one wave.
      h.server.roundTrips.mark();
      await view.refresh(true);
      assert.ok(h.server.roundTrips.report().requests >= 11, `the pages went at once (${h.server.roundTrips.report().requests} requests)`);
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(warnings.filter((w) => w.includes('MaxListeners')), []);
    } finally {
      h.server.setLatency(0);
      process.off('warning', onWarning);
    }
  });
});
