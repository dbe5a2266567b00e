// The model the Projects tree renders, over the real store, projects service, client and local
// platform: the ref each project shows, snapshots that stay the same object until something they
// hold changes, one event naming what changed, and what a refresh, Retry and Cancel do.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events';
import type { Project } from '../../../src/core/model/types';
import { EMPTY_SELECTION } from '../../../src/core/services/filters';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { RefScans } from '../../../src/core/services/ref-scans';
import type { ShownPlace } from '../../../src/core/services/project-view';
import { ProjectsModel, type ProjectsChange } from '../../../src/core/services/projects-model';
import { ProjectsService } from '../../../src/core/services/projects-service';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe("the Projects tree's model (real store, local platform)", () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 30, scaPerProject: 6, refsPerProject: 1 });
    h = await startHarness({ data });
  });
  after(() => h.close());

  const setUp = (options: { override?: string; checkedOut?: string } = {}) => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100, deploymentId: () => String(data.deployment.id) });
    const projects = new ProjectsService(
      () => h.client(),
      () => SLUG,
    );
    const filtersChanged = new Emitter<void>();
    const placesMoved = new Emitter<void>();
    const name = data.projects[0]?.name ?? '';
    const model = new ProjectsModel({
      session: { deployment: { slug: SLUG }, state: { kind: 'signedIn', deployment: { id: '1', slug: SLUG, name: 'Acme' } } },
      projects,
      findings: store,
      scans: new RefScans(store),
      selection: () => EMPTY_SELECTION,
      workspaceRepos: {
        projectNames: () => new Set([name]),
        repos: () => [{ projectName: name, branch: options.checkedOut }],
        onDidChange: new Emitter<void>().event,
      },
      refOverride: (n) => (n === name ? options.override : undefined),
      refreshOn: [filtersChanged.event],
      redrawOn: [placesMoved.event],
    });
    const changes: ProjectsChange[] = [];
    model.onDidChange((change) => changes.push(change));
    const place = (ref = 'main'): ShownPlace => ({ parent: { project: { name, primaryBranch: 'main' }, ref }, issueType: 'sast', slot: `tree:${name}:sast` });
    return { store, projects, model, changes, place, filtersChanged, placesMoved, name };
  };
  /** Loads asked for since `mark`: the first pages of lists whose address holds `part`. */
  const firstPages = (mark: number, part: string): number =>
    h.server.requests.slice(mark).filter((r) => r.rawUrl.includes(part) && r.rawUrl.includes('page=0&')).length;
  const until = async (done: () => boolean): Promise<void> => {
    for (const deadline = Date.now() + 5_000; !done(); await new Promise((resolve) => setTimeout(resolve, 5))) {
      if (Date.now() > deadline) throw new Error('The model never showed it.');
    }
  };
  const project = (name: string, extra: Partial<Project> = {}): Project => ({ id: 1, name, tags: [], ...extra });

  void test('a project shows the chosen ref, else the branch checked out in the workspace, else its primary, else its default branch', async () => {
    const chosen = setUp({ override: 'release', checkedOut: 'feature' });
    assert.equal(chosen.model.root().refOf(project(chosen.name, { primaryBranch: 'main' })), 'release');
    const checkedOut = setUp({ checkedOut: 'feature' });
    assert.equal(checkedOut.model.root().refOf(project(checkedOut.name, { primaryBranch: 'main' })), 'feature');
    assert.equal(checkedOut.model.root().refOf(project('elsewhere', { primaryBranch: 'main', defaultBranch: 'master' })), 'main');
    assert.equal(checkedOut.model.root().refOf(project('elsewhere', { defaultBranch: 'master' })), 'master');
    await Promise.all([chosen.model.settle(), checkedOut.model.settle()]);
  });

  void test('signed in, the root starts the project list once and shows it when it lands', async () => {
    const { model, changes } = setUp();
    const mark = h.mark();
    assert.equal(model.root().projects.kind, 'loading');
    model.root();
    await model.settle();
    assert.equal(firstPages(mark, '/projects?'), 1, 'one list load');
    const root = model.root();
    assert.equal(root.projects.kind, 'loaded');
    assert.ok(changes.includes(undefined), 'the list landing redraws everything');
    assert.equal(model.root(), root, 'the same snapshot until something changes');
  });

  void test('a place loads when first shown; its snapshot is one object until its slot changes, and the event names that place only', async () => {
    const { model, changes, place, store } = setUp();
    const mark = h.mark();
    const loading = model.place(place());
    assert.equal(loading.loading, true);
    assert.equal(model.place(place()), loading, 'asked again while nothing changed: the same snapshot, no new request');
    await model.settle(place().slot);
    const loaded = model.place(place());
    assert.notEqual(loaded, loading);
    assert.ok(loaded.version > loading.version);
    assert.equal(loaded.result?.findings.length, 30);
    assert.equal(firstPages(mark, 'issue_type=sast&'), 1);
    assert.ok(
      changes.every((c) => c === undefined || (c.length === 1 && c[0] === place().slot)),
      'only this place was named',
    );
    const before = changes.length;
    await store.load('problems:file:///w:sast', {
      deploymentSlug: SLUG,
      issueType: 'sast',
      filters: { repos: [data.projects[1]?.name ?? ''], ref: 'main', dedup: true },
    });
    assert.equal(changes.length, before, 'a slot the tree does not show changes nothing here');
    assert.equal(model.place(place()), loaded);
  });

  void test('reading a place loads nothing: neither the places shown so far (the Policy Rules view) nor a node of a ref no longer shown (VS Code may still hold one)', async () => {
    const { model, place } = setUp();
    model.place(place('main'));
    await model.settle(place().slot);
    const feature = place('feature');
    model.place(feature);
    await model.settle(feature.slot);
    const mark = h.mark();
    const main = model.read(place('main'));
    assert.equal(main.loading, false);
    assert.equal(main.result, undefined, "the slot holds the feature branch's answer, not one for main");
    const shown = [...model.shown()];
    assert.equal(shown.length, 1);
    assert.equal(shown[0]?.[0], feature, 'the place as the tree last showed it');
    assert.equal(shown[0]?.[1].result?.query.filters.ref, 'feature');
    assert.equal(h.server.requests.length, mark, 'nothing asked');
  });

  void test('a failed place stays failed on a redraw, and is tried again when what is asked changes', async (t) => {
    t.after(() => h.server.faults.clear());
    const { model, place, placesMoved, filtersChanged } = setUp();
    // Every code request answers 502 until the first load has failed, however its wave is shaped
    // (pages and retries in flight depend on scheduling); then the platform answers again.
    h.server.faults.inject({ kind: 'status', status: 502 }, { pathIncludes: 'issue_type=sast' }, 1_000);
    model.place(place());
    await model.settle(place().slot);
    assert.notEqual(model.place(place()).error, undefined);
    h.server.faults.clear();
    const mark = h.mark();
    placesMoved.fire();
    const redrawn = model.place(place());
    assert.equal(redrawn.loading, false, 'a redraw does not ask again (a failure and its redraw never loop)');
    assert.notEqual(redrawn.error, undefined);
    filtersChanged.fire();
    assert.equal(model.place(place()).loading, true);
    await model.settle(place().slot);
    assert.equal(model.place(place()).result?.findings.length, 30);
    assert.equal(firstPages(mark, 'issue_type=sast&'), 1);
  });

  void test('Cancel stops waiting and says so; Retry loads that place again', async (t) => {
    t.after(() => h.server.faults.clear());
    const { model, place, changes } = setUp();
    h.server.faults.inject({ kind: 'delay', ms: 1_000 }, { pathIncludes: 'issue_type=sast' });
    model.place(place());
    model.cancelAll();
    assert.deepEqual(changes.at(-1), [place().slot]);
    assert.equal(model.place(place()).cancelled, true);
    model.retry(place().slot);
    await model.settle(place().slot);
    const shown = model.place(place());
    assert.equal(shown.cancelled, false);
    assert.equal(shown.result?.findings.length, 30);
  });

  void test('a branch without any finding of a kind says it was never scanned, with the primary branch to offer', async () => {
    const { model, place } = setUp();
    const unscanned = place('never-scanned');
    model.place(unscanned);
    await model.settle(unscanned.slot);
    // The "scanned at all?" question is a load of its own, asked beside the first.
    await until(() => model.place(unscanned).unscanned !== undefined);
    const shown = model.place(unscanned);
    assert.equal(shown.result?.findings.length, 0);
    assert.deepEqual(shown.unscanned, { projectName: place().parent.project.name, primary: 'main' });
  });
});
