// The one model of what the workspace shows, over the real store, client and local platform: the
// ref and its fallback, each kind on its own, novelty, one snapshot per cause, and refreshes that
// coalesce instead of piling up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { RefScans } from '../../../src/core/services/ref-scans';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import { WorkspaceView, type WorkspaceSnapshot } from '../../../src/core/services/workspace-view';
import type { FolderRef } from '../../../src/core/services/folder-view';
import { FEATURE_REFS } from '../../platform/vocab';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { addAiAndSecrets } from '../../platform/secrets-and-ai';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('the workspace view (real store, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 60, scaPerProject: 12, refsPerProject: 2 });
    addAiAndSecrets(data, 6);
    h = await startHarness({ data });
  });
  after(() => h.close());

  interface Folder extends FolderRef {
    readonly key: string;
  }
  const setUp = (folders: Folder[], selection: FilterSelection = EMPTY_SELECTION) => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
    const project = (name: string) => {
      const p = data.projects.find((x) => x.name === name);
      return (
        p &&
        ({ id: p.id, name: p.name, primaryBranch: 'main', defaultBranch: 'main', tags: [] } as unknown as ReturnType<
          ConstructorParameters<typeof WorkspaceView<Folder>>[0]['project']
        >)
      );
    };
    const baselines = new BranchBaselines({ store, project });
    let trusted = true;
    const view = new WorkspaceView<Folder>({
      store,
      baselines,
      scans: new RefScans(store),
      folders: () => folders,
      keyOf: (f) => f.key,
      deploymentSlug: () => SLUG,
      project,
      selection: () => selection,
      mayShow: () => trusted,
    });
    const snapshots: WorkspaceSnapshot<Folder>[] = [];
    view.onDidChange((s) => snapshots.push(s));
    return { store, view, snapshots, distrust: () => (trusted = false) };
  };
  const projectName = (): string => data.projects[0]?.name ?? '';
  const restore = (): void => {
    h.server.restoreProducts();
    h.server.faults.clear();
  };

  void test('a folder on the primary branch shows every kind of its project on that branch, in one snapshot caused by the refresh', async () => {
    const { view, snapshots } = setUp([{ key: 'file:///w', projectName: projectName(), branch: 'main' }]);
    const gaps = await view.refresh();
    assert.deepEqual(gaps, []);
    // A first load's pages are drawn as they come (arriving-pages.platform.test.ts); one snapshot is the refresh's.
    assert.deepEqual(
      snapshots.filter((s) => s.cause !== 'arriving').map((s) => s.cause),
      ['refresh'],
    );
    const [folder] = view.snapshot.folders;
    assert.equal(view.snapshot.cause, 'refresh');
    assert.equal(folder?.ref, 'main');
    assert.equal(folder?.usedFallback, false);
    assert.deepEqual(new Set(folder?.findings.map((f) => f.issueType)), new Set(['sast', 'sca', 'secrets']));
    assert.ok(
      folder?.findings.every((f) => f.repositoryName === undefined || f.repositoryName === projectName()),
      "only the folder's project",
    );
    assert.equal(folder?.novelty, undefined, 'nothing is new on the primary branch itself');
  });

  void test("a branch without a scan shows the primary branch's findings; a scanned feature branch shows its own, compared with the primary", async () => {
    const unscanned = setUp([{ key: 'file:///a', projectName: projectName(), branch: 'never-scanned' }]);
    await unscanned.view.refresh();
    const fallback = unscanned.view.snapshot.folders[0];
    assert.equal(fallback?.usedFallback, true);
    assert.equal(fallback?.ref, 'main');
    assert.ok((fallback?.findings.length ?? 0) > 0);

    const feature = FEATURE_REFS[0] ?? '';
    const scanned = setUp([{ key: 'file:///b', projectName: projectName(), branch: feature }]);
    await scanned.view.refresh();
    const own = scanned.view.snapshot.folders[0];
    assert.equal(own?.usedFallback, false);
    assert.equal(own?.ref, feature);
    assert.equal(own?.novelty?.primary, 'main', 'the branch is compared with its primary branch');
  });

  void test('a kind that fails keeps what it showed, marked stale, never taken for "not scanned"; the others show fresh', async (t) => {
    t.after(restore);
    const { view } = setUp([{ key: 'file:///c', projectName: projectName(), branch: 'main' }]);
    await view.refresh();
    const before = view.snapshot.folders[0]?.findings.filter((f) => f.issueType === 'sca').length ?? 0;
    assert.ok(before > 0);
    h.server.setProduct('sca', 503);
    const gaps = await view.refresh(true);
    const folder = view.snapshot.folders[0];
    assert.equal(folder?.usedFallback, false);
    assert.equal(folder?.findings.filter((f) => f.issueType === 'sca').length, before, 'the earlier supply-chain findings stay');
    assert.ok(
      gaps.some((g) => g.kind === 'sca' && 'failedBecause' in g),
      'the failed kind is named',
    );
    assert.ok(
      folder?.findings.some((f) => f.issueType === 'sast'),
      'code still shows',
    );
    assert.deepEqual(await view.settled(), gaps, "the last refresh's gaps are kept for whoever waits after it");
  });

  void test('a kind the deployment lacks is a gap of its own and the rest shows', async (t) => {
    t.after(restore);
    h.server.setProduct('secrets', 404);
    const { view } = setUp([{ key: 'file:///d', projectName: projectName(), branch: 'main' }]);
    const gaps = await view.refresh();
    assert.ok(gaps.some((g) => g.kind === 'secrets' && 'unavailable' in g));
    assert.equal(
      view.snapshot.folders[0]?.findings.some((f) => f.issueType === 'secrets'),
      false,
    );
    assert.ok(view.snapshot.folders[0]?.findings.some((f) => f.issueType === 'sast'));
  });

  void test('refreshes asked for while one runs are coalesced into one more run', async () => {
    const { view, snapshots } = setUp([{ key: 'file:///e', projectName: projectName(), branch: 'main' }]);
    const mark = h.mark();
    const first = view.refresh(true);
    const second = view.refresh(true);
    const third = view.refresh(true);
    assert.equal(second, third, 'the waiting run is shared');
    assert.equal(view.refreshing, true);
    await Promise.all([first, second, third]);
    assert.equal(view.refreshing, false);
    assert.equal(snapshots.filter((s) => s.cause === 'refresh').length, 2, 'two runs, not three');
    const codeLists = h.requestsSince(mark, '/findings').filter((r) => r.rawUrl.includes('issue_type=sast') && /page=0\b/.test(r.rawUrl));
    assert.equal(codeLists.length, 2, 'each run asked for the code findings once');
  });

  void test('a patch to a finding shown publishes a snapshot caused by the change, with the patched finding; a rollback publishes the original back', async () => {
    const { store, view, snapshots } = setUp([{ key: 'file:///f', projectName: projectName(), branch: 'main' }]);
    await view.refresh();
    const target = view.snapshot.folders[0]?.findings.find((f) => f.issueType === 'sast' && f.status === 'open');
    assert.ok(target);
    const handle = store.patch(SLUG, 'sast', [target.id], { status: 'ignored' });
    const changed = snapshots.at(-1);
    assert.equal(changed?.cause, 'change');
    assert.equal(changed?.folders[0]?.findings.find((f) => f.id === target.id)?.status, 'ignored');
    handle.rollback();
    assert.equal(
      view.snapshot.folders[0]?.findings.find((f) => f.id === target.id),
      target,
      'the very same object is back',
    );
  });

  void test('the extension\'s own filters and "only new" are part of what the view decides', async () => {
    const feature = FEATURE_REFS[0] ?? '';
    const { view } = setUp([{ key: 'file:///g', projectName: projectName(), branch: feature }], { ...EMPTY_SELECTION, newOnBranch: true });
    await view.refresh();
    const folder = view.snapshot.folders[0];
    assert.equal(folder?.newOnBranch, true);
    assert.ok(folder?.keep, 'a local filter is set');
    const kept = folder?.findings.filter((f) => folder.keep?.(f)) ?? [];
    assert.ok(
      kept.every((f) => folder?.novelty?.isNew(f)),
      'only findings new on the branch are kept',
    );
  });

  void test('in an untrusted workspace nothing is shown, and clearing publishes an empty snapshot', async () => {
    const { view, snapshots, distrust } = setUp([{ key: 'file:///h', projectName: projectName(), branch: 'main' }]);
    await view.refresh();
    assert.equal(view.snapshot.folders.length, 1);
    distrust();
    await view.refresh();
    assert.equal(view.snapshot.folders.length, 0);
    assert.equal(snapshots.at(-1)?.cause, 'cleared');
    assert.ok(
      snapshots.every((s, i) => i === 0 || s.version > (snapshots[i - 1]?.version ?? 0)),
      'versions grow',
    );
  });

  void test("the last session's answers are shown before any request, and not once fresher ones are", async () => {
    const { store, view, snapshots } = setUp([{ key: 'file:///i', projectName: projectName(), branch: 'main' }]);
    const warm = setUp([{ key: 'file:///i', projectName: projectName(), branch: 'main' }]);
    await warm.view.refresh();
    store.adopt(warm.store.shownResults());
    const mark = h.mark();
    assert.equal(await view.showHeld(), true);
    assert.equal(h.requestsSince(mark, '/').length, 0, 'no request');
    assert.equal(snapshots.at(-1)?.cause, 'cached');
    assert.ok(view.snapshot.folders[0]?.cachedAt instanceof Date);
    await view.refresh();
    assert.equal(view.mayShowHeld(), false);
    assert.equal(await view.showHeld(), false, 'older findings never replace fresher ones');
  });
});
