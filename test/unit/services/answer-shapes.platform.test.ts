// How many requests wait for each other: each list asks at once the pages it took last time and
// its end, so a list that kept its length is read in one round trip; what was learnt survives a
// restart through its record. Through the real client against the local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerShapes, FIRST_READ_PAGES } from '../../../src/core/services/answer-shapes';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { queryOf, startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';
const PAGE_SIZE = 100;

void describe('answer shapes (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;
  before(async () => {
    // 550 code findings on main: 6 pages of 100, one more than a first wave asks.
    data = generateDeployment({ projects: 1, sastPerProject: 550, scaPerProject: 0, refsPerProject: 1 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());

  const query = (): FindingsQuery => ({ deploymentSlug: SLUG, issueType: 'sast', filters: { repos: [project] } });
  const codePages = (mark: number): number[] =>
    h
      .requestsSince(mark, '/findings')
      .filter((r) => r.rawUrl.includes('issue_type=sast&'))
      .map((r) => Number(queryOf(r).get('page')));
  /** The longest chain of requests that each came after an answer, since the mark. */
  const depth = (): number => h.server.roundTrips.report().depth;

  test('a list never read asks 4 pages at once and the next ones when the 4th has items; the next read asks them all and the end at once', async () => {
    const shapes = new AnswerShapes();
    const store = new FindingsStore(() => h.client(), { pageSize: PAGE_SIZE, shapes });
    h.server.setLatency(30);
    try {
      let mark = h.mark();
      h.server.roundTrips.mark();
      const first = await store.load('a', query());
      assert.equal(first.findings.length, 550);
      assert.deepEqual(codePages(mark).slice(0, FIRST_READ_PAGES).sort(), [0, 1, 2, 3], 'the first wave');
      assert.ok(depth() >= 2, 'a list longer than the first wave takes a second round trip');

      mark = h.mark();
      h.server.roundTrips.mark();
      const again = await store.load('a', query(), { force: true });
      assert.equal(again.findings.length, 550);
      assert.deepEqual(
        codePages(mark).sort((x, y) => x - y),
        [0, 1, 2, 3, 4, 5, 6],
        'the 6 pages it took, and its end, at once',
      );
      assert.equal(depth(), 1, 'one round trip');

      // A restart: what was learnt comes back from its record.
      const restarted = new AnswerShapes();
      restarted.adopt(JSON.parse(JSON.stringify(shapes.record())) as unknown);
      const later = new FindingsStore(() => h.client(), { pageSize: PAGE_SIZE, shapes: restarted });
      h.server.roundTrips.mark();
      assert.equal((await later.load('a', query())).findings.length, 550);
      assert.equal(depth(), 1, 'one round trip after a restart too');
      store.dispose();
      later.dispose();
    } finally {
      h.server.setLatency(0);
    }
  });

  test('a record of another version, or broken, teaches nothing', () => {
    const shapes = new AnswerShapes();
    shapes.adopt({ version: 2, spelling: 'full', pages: [['x', 9]] });
    shapes.adopt({ version: 1, spelling: 'sideways', pages: [['x', -1], ['y'], 'z', ['w', 2.5]] });
    assert.equal(shapes.spelling, undefined);
    assert.equal(shapes.hints('x').firstWave, FIRST_READ_PAGES);
    assert.equal(shapes.hints('w').firstWave, FIRST_READ_PAGES);
    assert.equal(shapes.unsaved, false);
  });
});
