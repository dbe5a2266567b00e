// "New on this branch": a branch's findings compared with its primary branch's by match_based_id,
// loaded through the store from the real client and the local platform. The generator puts most
// of a feature branch's findings on main too (same match_based_id, own id), the rest only there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BranchBaselines } from '../../../src/core/services/branch-baselines';
import { baselineSlot } from '../../../src/core/services/slot-ids';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { Finding, IssueType } from '../../../src/core/model/types';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('branch baselines (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;
  let feature: string;

  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 120, scaPerProject: 40, refsPerProject: 2 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
    feature = [...new Set(data.sast.filter((f) => f.repository?.name === project).map((f) => f.ref))].find((r) => r !== 'main') ?? '';
    assert.ok(feature, 'the generator made a feature branch');
  });
  after(() => h.close());

  const primaries = { find: (name: string) => data.projects.find((p) => p.name === name) };
  const setup = (onLoadFailed?: (name: string, e: unknown) => void) => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100 });
    const baselines = new BranchBaselines({
      store,
      project: (name) => {
        const p = primaries.find(name);
        return p ? { primaryBranch: p.primary_branch, defaultBranch: p.default_branch } : undefined;
      },
      onLoadFailed,
    });
    return { store, baselines };
  };
  const branchFindings = (store: FindingsStore, issueType: IssueType, ref: string): Promise<readonly Finding[]> =>
    store.load(`tree:${issueType}:${ref}`, { deploymentSlug: SLUG, issueType, filters: { repos: [project], ref, dedup: true } }).then((r) => r.findings);
  const mainRequests = (mark: number) => h.requestsSince(mark, '/findings').filter((r) => r.rawUrl.includes('ref=main'));
  /** What the platform's data says is new: on the branch, with a match_based_id main lacks. */
  const expectedNew = (issueType: IssueType): Set<number> => {
    const wire = issueType === 'sast' ? data.sast : data.sca;
    const ofProject = wire.filter((f) => f.repository?.name === project);
    const onMain = new Set(ofProject.filter((f) => f.ref === 'main').map((f) => f.match_based_id));
    return new Set(
      ofProject
        .filter((f) => f.ref === feature && !onMain.has(f.match_based_id))
        .map((f) => f.id)
        .filter((id): id is number => id !== undefined),
    );
  };

  test("when the primary branch changes, nothing is called new from the old branch's findings until the new one's are loaded", async () => {
    const { store, baselines } = setup();
    const stored = data.projects[0];
    const primaryBefore = stored.primary_branch;
    const sast = await branchFindings(store, 'sast', feature);
    await baselines.ensure(SLUG, project);
    assert.ok(
      sast.some((f) => baselines.isNew(f)),
      'compared with main, some are new',
    );
    stored.primary_branch = feature;
    try {
      assert.equal(sast.filter((f) => baselines.isNew(f)).length, 0, "main's findings no longer decide");
      assert.equal(baselines.comparedWith(project), undefined, 'not compared with anything yet');
      await baselines.ensure(SLUG, project);
      assert.equal(baselines.comparedWith(project), feature);
      assert.equal(sast.filter((f) => baselines.isNew(f)).length, 0, 'on its own primary branch nothing is new');
    } finally {
      stored.primary_branch = primaryBefore;
    }
  });

  test('a branch finding is new exactly when the primary branch has no finding with its match_based_id', async () => {
    const { store, baselines } = setup();
    let announced = 0;
    baselines.onDidChange(() => announced++);
    const sast = await branchFindings(store, 'sast', feature);
    const sca = await branchFindings(store, 'sca', feature);
    assert.ok(sast.length > 0 && sca.length > 0);
    assert.equal([...sast, ...sca].filter((f) => baselines.isNew(f)).length, 0, 'nothing is called new before the primary branch is loaded');
    assert.equal(baselines.comparedWith(project), undefined);

    await baselines.ensure(SLUG, project);
    assert.equal(announced, 1, 'the landing of the baseline is announced once');
    assert.equal(baselines.comparedWith(project), 'main');
    for (const [issueType, findings] of [
      ['sast', sast],
      ['sca', sca],
    ] as const) {
      const expected = expectedNew(issueType);
      assert.ok(expected.size > 0 && expected.size < findings.length, `${issueType}: some new, some not (${expected.size} of ${findings.length})`);
      assert.deepEqual(new Set(findings.filter((f) => baselines.isNew(f)).map((f) => f.id)), expected, issueType);
    }
    const onMain = await branchFindings(store, 'sast', 'main');
    assert.equal(onMain.filter((f) => baselines.isNew(f)).length, 0, 'a primary-branch finding is never new');
    const versionBefore = baselines.version;
    await baselines.ensure(SLUG, project);
    assert.equal(baselines.version, versionBefore, 'an answer already held changes nothing');
    store.dispose();
  });

  test('the baseline holds every status: a finding fixed or ignored on main is not new on the branch', async () => {
    const { store, baselines } = setup();
    await baselines.ensure(SLUG, project);
    const mark = h.mark();
    await baselines.ensure(SLUG, project, true);
    const queries = mainRequests(mark);
    assert.ok(queries.length > 0);
    assert.ok(
      queries.every((r) => !r.rawUrl.includes('status=')),
      'no status filter on the baseline',
    );
    const closedOnMain = data.sast.find((f) => f.repository?.name === project && f.ref === 'main' && f.status !== 'open');
    assert.ok(closedOnMain, 'the generator has a closed finding on main');
    const held = store.state(baselineSlot(project, 'sast'));
    assert.ok(held.kind === 'loaded' && held.result.findings.some((f) => f.id === closedOnMain.id), 'the closed finding is in the baseline');
    const twin = { ...(await branchFindings(store, 'sast', feature))[0], matchKey: undefined } as Finding;
    assert.equal(baselines.isNew(twin), false, 'a finding without a match key is never called new');
    store.dispose();
  });

  test('a failed baseline marks nothing new, is reported, and is asked again only by a forced load', async () => {
    const failures: unknown[] = [];
    const { store, baselines } = setup((_name, e) => failures.push(e));
    // Page 0 of the code baseline of main (a 500 is not retried; a 400 would read as a deployment
    // without Code). The other pages of its wave answer; a failed page past the end would not count.
    h.server.faults.inject({ kind: 'status', status: 500, body: '{"error":"bad"}' }, { pathIncludes: 'issue_type=sast&page=0&' }, 1);
    await baselines.ensure(SLUG, project);
    assert.equal(failures.length, 1, 'the failure is reported');
    assert.equal(baselines.comparedWith(project), undefined);
    const sast = await branchFindings(store, 'sast', feature);
    assert.equal(sast.filter((f) => baselines.isNew(f)).length, 0, 'nothing is claimed new without the comparison');

    const mark = h.mark();
    await baselines.ensure(SLUG, project);
    assert.equal(mainRequests(mark).length, 0, 'a redraw does not ask again');
    await baselines.ensure(SLUG, project, true);
    assert.ok(mainRequests(mark).length > 0, 'a refresh does');
    assert.equal(baselines.comparedWith(project), 'main');
    store.dispose();
  });

  test('keepOnly releases the baselines of projects no folder shows, and announces it', async () => {
    const { store, baselines } = setup();
    await baselines.ensure(SLUG, project);
    assert.equal(store.state(baselineSlot(project, 'sast')).kind, 'loaded');
    let announced = 0;
    baselines.onDidChange(() => announced++);
    baselines.keepOnly([project]);
    assert.equal(announced, 0, 'keeping what is there changes nothing');
    baselines.keepOnly([]);
    assert.equal(announced, 1);
    assert.equal(store.state(baselineSlot(project, 'sast')).kind, 'idle', 'released');
    assert.equal(baselines.comparedWith(project), undefined);
    store.dispose();
  });
});
