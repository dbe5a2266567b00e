// One model of a place for every view: a workspace folder (Problems, the status bar, the badge)
// and the Projects tree's node of the same project, ref and filters get the same place from
// `placeOf`: the same queries, the same answer to "was this branch scanned", the same fallback.
// Over the real store, client and local platform, the two readers side by side.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events';
import type { IssueType, Project } from '../../../src/core/model/types';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { EMPTY_SELECTION, type FilterSelection } from '../../../src/core/services/filters';
import type { FolderRef } from '../../../src/core/services/folder-view';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { Place } from '../../../src/core/services/place';
import type { ShownPlace } from '../../../src/core/services/project-view';
import { ProjectsModel, type PlaceSnapshot } from '../../../src/core/services/projects-model';
import { ProjectsService } from '../../../src/core/services/projects-service';
import { RefScans } from '../../../src/core/services/ref-scans';
import { treeSlot } from '../../../src/core/services/slot-ids';
import { WorkspaceView } from '../../../src/core/services/workspace-view';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { scannedFeatureBranch, startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';
interface Folder extends FolderRef {
  readonly key: string;
}

void describe('one place for Problems and the Projects tree (real store, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 60, scaPerProject: 12, refsPerProject: 2 });
    h = await startHarness({ data });
  });
  after(() => h.close());

  const projectName = (): string => data.projects[0]?.name ?? '';
  const feature = (): string => scannedFeatureBranch(data, projectName());

  /** Both readers over one store, as the extension builds them, on a folder checked out at `branch`. */
  const setUp = (branch: string, selection: FilterSelection) => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
    const listed: Project = { id: data.projects[0]?.id ?? 0, name: projectName(), primaryBranch: 'main', defaultBranch: 'main', tags: [] };
    const project = (name: string): Project | undefined => (name === listed.name ? listed : undefined);
    const scans = new RefScans(store);
    const baselines = new BranchBaselines({ store, project });
    const folder: Folder = { key: 'file:///w', projectName: listed.name, branch };
    const workspace = new WorkspaceView<Folder>({
      store,
      baselines,
      scans,
      folders: () => [folder],
      keyOf: (f) => f.key,
      deploymentSlug: () => SLUG,
      project,
      selection: () => selection,
      mayShow: () => true,
    });
    const tree = new ProjectsModel({
      session: { deployment: { slug: SLUG }, state: { kind: 'signedIn', deployment: { id: '1', slug: SLUG, name: 'Acme' } } },
      projects: new ProjectsService(
        () => h.client(),
        () => SLUG,
      ),
      findings: store,
      scans,
      baselines,
      selection: () => selection,
      workspaceRepos: { projectNames: () => new Set([listed.name]), repos: () => [folder], onDidChange: new Emitter<void>().event },
      refOverride: () => undefined,
    });
    /** The tree's node of one kind of the project, at the ref the tree shows it. */
    const node = (issueType: IssueType): ShownPlace => ({
      parent: { project: listed, ref: tree.root().refOf(listed) },
      issueType,
      slot: treeSlot(listed.name, issueType),
    });
    return { workspace, tree, node };
  };

  /** What the tree shows of a kind once its answer and the "scanned at all?" question are in. */
  const treeShows = async (tree: ProjectsModel, node: ShownPlace): Promise<PlaceSnapshot> => {
    tree.place(node);
    await tree.settle(node.slot);
    for (const deadline = Date.now() + 5_000; tree.place(node).checkingScan; await new Promise((resolve) => setTimeout(resolve, 5))) {
      if (Date.now() > deadline) throw new Error('The tree never had the answer to "was this branch scanned?".');
    }
    return tree.place(node);
  };

  /** What the two readers must agree on. */
  const decided = (place: Place | undefined) =>
    place && { ref: place.ref, primary: place.primary, scan: place.scan, fallback: place.fallback, queries: place.queries };

  void test('a scanned branch with a filter that keeps nothing: both say scanned, neither falls back to the primary branch', async (t) => {
    const ref = feature();
    const critical = [...data.sast, ...data.sca].filter((f) => f.repository?.name === projectName() && f.ref === ref && f.severity === 'critical');
    t.after(() => critical.forEach((f) => Object.assign(f, { severity: 'critical' })));
    for (const f of critical) Object.assign(f, { severity: 'high' });
    const { workspace, tree, node } = setUp(ref, { ...EMPTY_SELECTION, severities: ['critical'] });
    const mark = h.mark();
    await workspace.refresh();
    const folder = workspace.snapshot.folders[0];
    assert.ok(folder, 'the folder is shown');
    const shown = await treeShows(tree, node('sast'));
    assert.equal(folder.place.scan, 'scanned');
    assert.deepEqual(decided(shown.place), decided(folder.place), "the tree's place is the folder's");
    assert.equal(folder.place.fallback, undefined);
    assert.equal(folder.usedFallback, false);
    assert.equal(folder.ref, ref);
    assert.equal(folder.findings.length, 0, 'nothing of the branch is critical, and nothing of main is shown instead');
    assert.equal(shown.unscanned, undefined, 'the tree does not call the branch unscanned');
    assert.equal(shown.result?.findings.length, 0);
    const filtered = h.requestsSince(mark, '/findings').filter((r) => r.rawUrl.includes('severit'));
    assert.ok(filtered.length > 0, 'the branch is asked for under the filter');
    assert.equal(filtered.filter((r) => r.rawUrl.includes('ref=main')).length, 0, "main's critical findings are never asked for");
    await tree.settle();
    tree.dispose();
    workspace.dispose();
  });

  void test('a branch the platform never scanned: both fall back to the primary branch', async () => {
    const { workspace, tree, node } = setUp('never-scanned', { ...EMPTY_SELECTION, status: 'open' });
    // The tree asks first this time: the answer it gets is the one the refresh reads.
    const shown = await treeShows(tree, node('sca'));
    await workspace.refresh();
    const folder = workspace.snapshot.folders[0];
    assert.ok(folder, 'the folder is shown');
    assert.equal(shown.place?.scan, 'unscanned');
    assert.deepEqual(decided(folder.place), decided(shown.place), "the folder's place is the tree's");
    assert.equal(folder.place.fallback, 'main');
    assert.equal(folder.usedFallback, true);
    assert.equal(folder.ref, 'main');
    assert.ok(folder.findings.length > 0, "Problems shows the primary branch's findings");
    assert.deepEqual(shown.unscanned, { projectName: projectName(), primary: 'main' }, 'the tree offers the primary branch');
    await tree.settle();
    tree.dispose();
    workspace.dispose();
  });
});
