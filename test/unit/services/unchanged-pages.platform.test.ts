// A refresh that changes nothing reads every page, but a page whose bytes are those it read last
// time is given back as it was, unparsed: only a page that changed is parsed and decoded again.
// Over the real store, client and local platform, counting the parses of page-sized text.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery } from '../../../src/core/services/findings-query';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

/** How many times `JSON.parse` is handed a page-sized text while `work` runs. */
async function pageParses<T>(work: () => Promise<T>): Promise<{ result: T; parses: number }> {
  const parse = JSON.parse;
  let parses = 0;
  JSON.parse = ((text: string, reviver?: (key: string, value: unknown) => unknown) => {
    if (typeof text === 'string' && text.length > 2_000) parses++;
    return parse(text, reviver) as unknown;
  }) as typeof JSON.parse;
  try {
    return { result: await work(), parses };
  } finally {
    JSON.parse = parse;
  }
}

void describe('pages sent again byte for byte (real store, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  before(async () => {
    data = generateDeployment({ projects: 1, sastPerProject: 450, scaPerProject: 0, refsPerProject: 1 });
    h = await startHarness({ data });
  });
  after(() => h.close());

  const query = (): FindingsQuery => ({
    deploymentSlug: SLUG,
    issueType: 'sast',
    filters: { repos: [data.projects[0]?.name ?? ''], ref: 'main', dedup: true },
  });

  void test('an unchanged refresh asks every page again and parses none; a changed page alone is parsed, and shows its change', async () => {
    const store = new FindingsStore(() => h.client(), { pageSize: 100 });
    const first = await pageParses(() => store.load('s', query()));
    const shown = first.result.findings;
    assert.ok(shown.length > 300, `several pages (${shown.length} findings)`);
    assert.ok(first.parses >= 4, `the first load parses its pages (${first.parses})`);

    const mark = h.mark();
    const again = await pageParses(() => store.load('s', query(), { force: true }));
    assert.ok(h.requestsSince(mark, '/findings').length >= 4, 'every page is asked for again');
    assert.equal(again.parses, 0, 'none is parsed: each came back byte for byte');
    assert.equal(again.result.findings.length, shown.length);
    assert.ok(
      again.result.findings.every((f, i) => f === shown[i]),
      'the very objects shown',
    );

    // One finding of the list changes on the platform: its page alone is parsed, and the change shows.
    const changed = data.sast.find((f) => f.id === shown[150]?.id);
    assert.ok(changed);
    changed.severity = changed.severity === 'critical' ? 'low' : 'critical';
    const third = await pageParses(() => store.load('s', query(), { force: true }));
    assert.equal(third.parses, 1, 'the changed page alone');
    const now = third.result.findings.find((f) => f.id === changed.id);
    assert.equal(now?.severity, changed.severity, 'the change is shown');
    assert.ok(
      third.result.findings.filter((f) => f.id !== changed.id).every((f) => shown.includes(f)),
      'the others are the objects shown',
    );
    store.dispose();
  });
});
