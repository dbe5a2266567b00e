// Which spelling of a branch the platform answers to: findings carry `main` on some deployments
// and `refs/heads/main` on others, and the `ref` filter matches what they carry. The service
// finds out once per deployment and remembers, through the real client and the local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { queryOf, startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('branch spelling of the ref filter (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;

  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 120, scaPerProject: 30, refsPerProject: 2 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());

  const query = (issueType: 'sast' | 'sca', ref: string): FindingsQuery => ({ deploymentSlug: SLUG, issueType, filters: { repos: [project], ref } });
  /**
   * The refs of the first pages asked since the mark: one per spelling tried. (The pages after
   * an earlier load's end, asked in its wave and then dropped, may reach the platform after it.)
   */
  const firstPageRefs = (mark: number): (string | null)[] =>
    h
      .requestsSince(mark, '/findings')
      .filter((r) => queryOf(r).get('page') === '0')
      .map((r) => queryOf(r).get('ref'));
  const onMain = (issueType: 'sast' | 'sca'): number[] =>
    (issueType === 'sast' ? data.sast : data.sca)
      .filter((f) => f.ref === 'refs/heads/main' || f.ref === 'main')
      .map((f) => f.id ?? -1)
      .sort((a, b) => a - b);
  const ids = (findings: readonly { id: number }[]): number[] => findings.map((f) => f.id).sort((a, b) => a - b);

  test('findings spelt like the local git branch: one set of requests, and the short spelling is remembered', async () => {
    const s = new FindingsStore(() => h.client(), { pageSize: 100 });
    const mark = h.mark();
    const result = await s.load('a', query('sast', 'main'));
    assert.deepEqual(ids(result.findings), onMain('sast'));
    assert.deepEqual(firstPageRefs(mark), ['main']);
    // Remembered: a branch without a scan answers empty in the short spelling, and is not asked again in the other.
    const again = h.mark();
    assert.equal((await s.load('b', query('sast', 'no-such-branch'))).findings.length, 0);
    assert.deepEqual(firstPageRefs(again), ['no-such-branch']);
    s.dispose();
  });

  test('findings spelt refs/heads/<name>: asked again in that spelling, remembered, and every later load asks it first', async () => {
    for (const f of [...data.sast, ...data.sca]) if (f.ref && !f.ref.startsWith('refs/')) f.ref = `refs/heads/${f.ref}`;
    try {
      const s = new FindingsStore(() => h.client(), { pageSize: 100 });
      let mark = h.mark();
      const sast = await s.load('a', query('sast', 'main'));
      assert.ok(sast.findings.length > 0);
      assert.deepEqual(ids(sast.findings), onMain('sast'));
      assert.equal(sast.query.filters.ref, 'main', 'the result is filed under the branch as the user names it');
      // The short spelling's first wave came back empty, then the full spelling's brought them.
      assert.deepEqual(firstPageRefs(mark), ['main', 'refs/heads/main']);

      mark = h.mark();
      const sca = await s.load('b', query('sca', 'refs/heads/main'));
      assert.deepEqual(ids(sca.findings), onMain('sca'));
      assert.deepEqual(firstPageRefs(mark), ['refs/heads/main'], 'no more guessing once known');

      // A branch without a scan: the known spelling answers empty, and nothing is tried twice.
      mark = h.mark();
      const none = await s.load('c', query('sast', 'no-such-branch'));
      assert.equal(none.findings.length, 0);
      assert.deepEqual(firstPageRefs(mark), ['refs/heads/no-such-branch']);

      // Pull-request refs are sent exactly as they are.
      mark = h.mark();
      await s.load('d', query('sast', 'refs/pull/12/merge'));
      assert.deepEqual(firstPageRefs(mark), ['refs/pull/12/merge']);

      // A new deployment (sign-out) learns again: the short spelling is tried first once more.
      s.clear();
      mark = h.mark();
      assert.deepEqual(ids((await s.load('e', query('sast', 'main'))).findings), onMain('sast'));
      assert.deepEqual(firstPageRefs(mark), ['main', 'refs/heads/main']);
      s.dispose();
    } finally {
      for (const f of [...data.sast, ...data.sca]) if (f.ref?.startsWith('refs/heads/')) f.ref = f.ref.slice('refs/heads/'.length);
    }
  });
});
