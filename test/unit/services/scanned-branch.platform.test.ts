// Whether a branch was scanned is a fact about the platform, never about the user's filters: on a
// scanned feature branch, a filter that keeps nothing shows nothing (never the primary branch's
// findings), and only a branch the platform never scanned falls back. Over the real store, client
// and local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { RefScans, scanQuestion } from '../../../src/core/services/ref-scans';
import { scanSlot } from '../../../src/core/services/slot-ids';
import { WorkspaceView } from '../../../src/core/services/workspace-view';
import type { FolderRef } from '../../../src/core/services/folder-view';
import { generateDeployment, scansOf, type PlatformData } from '../../platform/generator';
import { scannedFeatureBranch, startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';
interface Folder extends FolderRef {
  readonly key: string;
}

void describe("a scanned branch and the user's filters (real store, local platform)", () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 60, scaPerProject: 12, refsPerProject: 2 });
    h = await startHarness({ data });
  });
  after(() => h.close());

  const projectName = (): string => data.projects[0]?.name ?? '';
  const feature = (): string => scannedFeatureBranch(data, projectName());
  const onBranch = (ref: string) => [...data.sast, ...data.sca].filter((f) => f.repository?.name === projectName() && f.ref === ref);

  const setUp = (branch: string, selection: FilterSelection = EMPTY_SELECTION, listScans = false) => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
    const project = (name: string) =>
      name === projectName() ? { id: data.projects[0]?.id ?? 0, name, primaryBranch: 'main', defaultBranch: 'main', tags: [] } : undefined;
    // The platform's scan list, as the extension asks it (it names a branch scanned clean).
    const scans = new RefScans(
      store,
      listScans ? (_slug, name, signal) => h.client().scannedBranches(String(data.deployment.id), project(name)?.id ?? 0, { signal }) : undefined,
    );
    const view = new WorkspaceView<Folder>({
      store,
      baselines: new BranchBaselines({ store, project }),
      scans,
      folders: () => [{ key: 'file:///w', projectName: projectName(), branch }],
      keyOf: (f) => f.key,
      deploymentSlug: () => SLUG,
      project,
      selection: () => selection,
      mayShow: () => true,
    });
    return { store, view, scans };
  };

  /** What the folder shows after a refresh: its ref, whether it fell back, and how many findings. */
  const shown = async (branch: string, selection?: FilterSelection, listScans = false) => {
    const { view } = setUp(branch, selection, listScans);
    await view.refresh();
    const folder = view.snapshot.folders[0];
    assert.ok(folder, 'the folder is shown');
    return folder;
  };

  /** Ignores every finding of the branch on the platform, until the test ends. */
  const ignoreAll = (t: { after(fn: () => void): void }, ref: string): void => {
    const before = onBranch(ref).map((f) => ({ f, status: f.status, triage: f.triage_state, state: f.state }));
    t.after(() => before.forEach(({ f, status, triage, state }) => Object.assign(f, { status, triage_state: triage, state })));
    for (const { f } of before) Object.assign(f, { status: 'ignored', triage_state: 'ignored', state: 'muted' });
  };

  void test("the branch's last open finding ignored: the branch shows no open finding, not the primary branch's", async (t) => {
    const ref = feature();
    ignoreAll(t, ref);
    const folder = await shown(ref, { ...EMPTY_SELECTION, status: 'open' });
    assert.equal(folder.ref, ref, 'the branch checked out is the one shown');
    assert.equal(folder.usedFallback, false, 'the branch was scanned: nothing of main comes back');
    assert.equal(folder.findings.length, 0);
    assert.equal(folder.filters, 'open', 'the filters that kept nothing are told');
  });

  void test('a severity filter that keeps nothing of the branch shows nothing of it', async (t) => {
    const ref = feature();
    const critical = onBranch(ref).filter((f) => f.severity === 'critical');
    t.after(() => critical.forEach((f) => Object.assign(f, { severity: 'critical' })));
    for (const f of critical) Object.assign(f, { severity: 'high' });
    const primaryHasIt = [...data.sast, ...data.sca].some((f) => f.repository?.name === projectName() && f.ref === 'main' && f.severity === 'critical');
    assert.ok(primaryHasIt, 'main has critical findings, which the defect showed');
    const folder = await shown(ref, { ...EMPTY_SELECTION, severities: ['critical'] });
    assert.equal(folder.usedFallback, false);
    assert.equal(folder.ref, ref);
    assert.equal(folder.findings.length, 0);
    assert.equal(folder.filters, 'critical');
  });

  void test('a status filter that keeps nothing of the branch ("fixed") shows nothing of it', async (t) => {
    const ref = feature();
    const fixed = onBranch(ref).filter((f) => f.status === 'fixed');
    t.after(() => fixed.forEach((f) => Object.assign(f, { status: 'fixed' })));
    for (const f of fixed) Object.assign(f, { status: 'open' });
    const folder = await shown(ref, { ...EMPTY_SELECTION, status: 'fixed' });
    assert.equal(folder.usedFallback, false);
    assert.equal(folder.findings.length, 0);
  });

  void test("a branch the platform never scanned still shows the primary branch's findings, and says so", async () => {
    const folder = await shown('never-scanned', { ...EMPTY_SELECTION, status: 'open' });
    assert.equal(folder.usedFallback, true);
    assert.equal(folder.ref, 'main');
    assert.ok(folder.findings.length > 0);
  });

  void test('a failed question proves nothing: the branch is not taken for unscanned', async (t) => {
    t.after(() => h.server.faults.clear());
    // Every request about the never-scanned branch fails: its emptiness is not known.
    h.server.faults.inject({ kind: 'status', status: 503, body: 'unavailable' }, { pathIncludes: 'ref=never-scanned' }, 1000);
    const folder = await shown('never-scanned');
    assert.equal(folder.usedFallback, false, 'not known to be unscanned: the primary branch is not shown as if it were');
    assert.equal(folder.ref, 'never-scanned');
  });

  void test('the cached start on a scanned branch whose filtered answer is empty shows nothing of main either', async (t) => {
    const ref = feature();
    ignoreAll(t, ref);
    const selection = { ...EMPTY_SELECTION, status: 'open' as const };
    const warm = setUp(ref, selection);
    await warm.view.refresh();
    assert.equal(warm.view.snapshot.folders[0]?.findings.length ?? 0, 0, 'the filters keep nothing of the branch');
    // Main's answers are held too (the tree showed them), as a cache written then would hold them.
    const main = setUp('main', selection);
    await main.view.refresh();
    const cold = setUp(ref, selection);
    cold.store.adopt([...warm.store.shownResults(), ...main.store.shownResults()]);
    const mark = h.mark();
    assert.equal(await cold.view.showHeld(), true);
    assert.equal(h.requestsSince(mark, '/').length, 0, 'no request');
    const folder = cold.view.snapshot.folders[0];
    assert.equal(folder?.usedFallback, false);
    assert.equal(folder?.ref, ref);
  });

  void test('the rule itself: findings under any filter prove a scan with no request; an empty answer asks once, unfiltered', async () => {
    const { scans } = setUp('main');
    const ref = feature();
    const mark = h.mark();
    assert.equal(await scans.ask(SLUG, projectName(), ref, { seen: 3 }), 'scanned');
    assert.equal(h.requestsSince(mark, '/').length, 0);
    assert.equal(scans.now(SLUG, projectName(), 'never-scanned'), 'checking');
    assert.equal(await scans.ask(SLUG, projectName(), 'never-scanned'), 'unscanned');
    const asked = h.requestsSince(mark, '/findings').filter((r) => r.rawUrl.includes('never-scanned'));
    assert.deepEqual(new Set(asked.map((r) => /issue_type=(\w+)/.exec(r.rawUrl)?.[1])), new Set(['sast', 'sca']), 'code and supply chain are asked');
    assert.ok(
      asked.every((r) => !/status=|severit/.test(r.rawUrl)),
      "with no filter of the user's",
    );
    const again = h.mark();
    assert.equal(scans.now(SLUG, projectName(), 'never-scanned'), 'unscanned', 'answered from the store afterwards');
    assert.equal(await scans.ask(SLUG, projectName(), 'never-scanned'), 'unscanned');
    assert.equal(h.requestsSince(again, '/').length, 0, 'asked once');
    assert.equal(await scans.ask(SLUG, projectName(), ref), 'scanned');
  });

  /** A completed scan of `branch` that found nothing, until the test ends. */
  const scannedClean = (t: { after(fn: () => void): void }, branch: string): void => {
    const added = scansOf(data.projects[0]?.repository_id ?? 0, { name: branch, sha: 'c'.repeat(40) }, data.scans.length).slice(0, 2);
    data.scans.push(...added);
    t.after(() => {
      data.scans = data.scans.filter((scan) => !added.includes(scan));
    });
  };

  void test("a branch scanned clean (a completed scan, no finding of any status) shows nothing, not the primary branch's", async (t) => {
    scannedClean(t, 'scanned-clean');
    const folder = await shown('scanned-clean', { ...EMPTY_SELECTION, status: 'open' }, true);
    assert.equal(folder.usedFallback, false, 'the scan list names the branch: it was scanned');
    assert.equal(folder.ref, 'scanned-clean');
    assert.equal(folder.findings.length, 0);
    const never = await shown('never-scanned', { ...EMPTY_SELECTION, status: 'open' }, true);
    assert.equal(never.usedFallback, true, 'a branch the list does not name either still falls back');
  });

  void test('the scan list is asked once per project, only when the findings prove nothing, and the pickers read the same list', async (t) => {
    scannedClean(t, 'scanned-clean');
    const { scans } = setUp('main', EMPTY_SELECTION, true);
    const mark = h.mark();
    assert.equal(await scans.ask(SLUG, projectName(), feature()), 'scanned');
    assert.equal(h.requestsSince(mark, '/scans').length, 0, 'a branch with findings asks no scan list');
    assert.equal(scans.now(SLUG, projectName(), 'scanned-clean'), 'checking');
    assert.equal(await scans.ask(SLUG, projectName(), 'scanned-clean'), 'scanned');
    assert.equal(await scans.ask(SLUG, projectName(), 'never-scanned'), 'unscanned');
    assert.equal(h.requestsSince(mark, '/scans').length, 1, 'one scan list for both branches');
    assert.equal(scans.now(SLUG, projectName(), 'scanned-clean'), 'scanned', 'a view drawing at once says the same afterwards');
    assert.equal(scans.now(SLUG, projectName(), 'never-scanned'), 'unscanned');
    assert.ok((await scans.branches(SLUG, projectName()))?.includes('scanned-clean'), 'what the branch pickers mark scanned');
    assert.equal(h.requestsSince(mark, '/scans').length, 1, 'still one');
  });

  void test('a view that drew "checking" for a branch only the scan list can tell hears when it has', async (t) => {
    scannedClean(t, 'scanned-clean');
    const { scans, store } = setUp('main', EMPTY_SELECTION, true);
    // The branch's findings are held (a refresh, or the disk cache, brought them); the list is not.
    for (const kind of ['sast', 'sca'] as const) {
      const question = scanQuestion(SLUG, projectName(), 'scanned-clean', kind);
      await store.load(scanSlot(question), question);
    }
    assert.equal(scans.known(SLUG, projectName(), 'scanned-clean'), undefined, 'no finding is not yet "never scanned"');
    const heard = new Promise<void>((resolve) => scans.onDidList(() => resolve()));
    assert.equal(scans.now(SLUG, projectName(), 'scanned-clean'), 'checking');
    await heard;
    assert.equal(scans.now(SLUG, projectName(), 'scanned-clean'), 'scanned');
  });
});
