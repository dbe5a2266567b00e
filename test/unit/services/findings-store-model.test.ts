// The store as the base of every view: equal queries share one load, one object per finding,
// lookup by id, patches with one event and an exact undo, filters re-judged for patched
// findings, eviction of answers no view shows, and the snapshot round trip. Real client, real
// local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../../src/core/model/types';
import { FindingsStore } from '../../../src/core/services/findings-store';
import { describeQuery, type FindingsQuery } from '../../../src/core/services/findings-query';
import { FindingsFetcher } from '../../../src/core/services/findings-fetcher';
import { FindingIndex, indexKey } from '../../../src/core/services/finding-index';
import { decodeSnapshot, decodeSnapshotInSlices, encodeSnapshot, encodeSnapshotInSlices, SNAPSHOT_VERSION } from '../../../src/core/services/findings-snapshot';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { plain } from '../core/helpers/plain';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('the findings store (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let project: string;

  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 150, scaPerProject: 40, refsPerProject: 1 });
    h = await startHarness({ data });
    project = data.projects[0]?.name ?? '';
  });
  after(() => h.close());

  const query = (extra: FindingsQuery['filters'] = {}, issueType: 'sast' | 'sca' = 'sast'): FindingsQuery => ({
    deploymentSlug: SLUG,
    issueType,
    filters: { repos: [project], ref: 'main', dedup: true, ...extra },
  });
  const store = (options: ConstructorParameters<typeof FindingsStore>[1] = {}): FindingsStore => {
    const client = h.client();
    return new FindingsStore(() => client, { pageSize: 100, ...options });
  };
  const requests = (mark: number): number => h.requestsSince(mark, '/findings').length;
  /** Runs `work` while the platform answers finding `id` with another severity (`changedTo`); puts it back after. */
  const withSeverityChanged = async (id: number, work: (changedTo: string) => Promise<void>): Promise<void> => {
    const wire = data.sast.find((f) => f.id === id);
    assert.ok(wire);
    const severity = wire.severity;
    const changedTo = severity === 'low' ? 'critical' : 'low';
    wire.severity = changedTo;
    try {
      await work(changedTo);
    } finally {
      wire.severity = severity;
    }
  };

  test('the tree and Problems showing the same branch share one load and one answer', async () => {
    const s = store();
    const mark = h.mark();
    const [tree, problems] = await Promise.all([s.load('tree:p:sast', query()), s.load('problems:f:sast', query())]);
    assert.equal(tree, problems);
    assert.equal(requests(mark), 3, 'pages 0, 1 and the empty 2, once');
    assert.equal(await s.load('problems:f:sast', query()), tree, 'a later equal query is answered from memory');
    assert.equal(requests(mark), 3);
    s.dispose();
  });

  test('one object per finding: a finding that two answers hold is the same object, reachable by id', async () => {
    const s = store();
    const open = await s.load('a', query({ status: 'open' }));
    const all = await s.load('b', query());
    const shared = open.findings[0];
    assert.ok(shared);
    assert.equal(
      all.findings.find((f) => f.id === shared.id),
      shared,
    );
    assert.equal(s.finding(SLUG, 'sast', shared.id), shared);
    assert.equal(s.finding(SLUG, 'sca', shared.id), undefined, 'ids are per issue type');
    assert.equal(s.finding('other', 'sast', shared.id), undefined, 'and per deployment');
    s.dispose();
  });

  test('a reload keeps the held object of each unchanged finding as its page is decoded, a changed one fresh', async () => {
    // Given each finding while its page is decoded (not after the last page): the fresh copy of
    // an unchanged finding is dropped at once, so 50 000 of them are not held through the load.
    const index = new FindingIndex();
    const key = indexKey(SLUG, 'sast');
    const fetcher = new FindingsFetcher(() => h.client(), 100);
    const first = await fetcher.fetch(query(), new AbortController().signal);
    index.admit(key, first.findings);
    const changed = first.findings[120];
    assert.ok(changed);
    await withSeverityChanged(changed.id, async (changedTo) => {
      const heldAtProgress: number[] = [];
      const reuse = index.reuser(key);
      let given = 0;
      const again = await fetcher.fetch(
        query(),
        new AbortController().signal,
        () => heldAtProgress.push(given),
        (fresh) => {
          given++;
          return reuse(fresh);
        },
      );
      assert.deepEqual(heldAtProgress, [100, 150], 'each finding is given over as its page arrives');
      const byId = new Map(first.findings.map((f) => [f.id, f]));
      const kept = again.findings.filter((f) => byId.get(f.id) === f);
      assert.equal(kept.length, first.findings.length - 1, 'every unchanged finding is the held object');
      const fresh = again.findings.find((f) => f.id === changed.id);
      assert.notEqual(fresh, changed);
      assert.equal(fresh?.severity, changedTo, 'the changed one is the fresh copy');
      const { findings, replaced } = index.admit(key, again.findings);
      assert.deepEqual(findings, again.findings);
      assert.equal(replaced?.get(changed), fresh, 'and admitting the answer still replaces it');
      index.clear();
      assert.ok(
        again.findings.slice(0, 3).every((f) => reuse({ ...f }) !== f),
        'once the index is cleared nothing is reused',
      );
    });
  });

  test('a finding that changed on the platform is replaced in every answer that holds it', async () => {
    const s = store();
    const open = await s.load('a', query({ status: 'open' }));
    const target = open.findings[0];
    assert.ok(target);
    await withSeverityChanged(target.id, async (changedTo) => {
      await s.load('b', query());
      const updated = s.finding(SLUG, 'sast', target.id);
      assert.equal(updated?.severity, changedTo);
      const state = s.state('a');
      assert.equal(state.kind === 'loaded' ? state.result.findings.find((f) => f.id === target.id) : undefined, updated);
    });
    s.dispose();
  });

  test('a patch changes the finding everywhere with one event, leaves an "open" view by its filter, and rolls back to the same objects', async () => {
    const s = store();
    const open = await s.load('tree:p:sast', query({ status: 'open' }));
    const all = await s.load('problems:f:sast', query());
    const target = open.findings[0];
    assert.ok(target);
    const events: (readonly string[])[] = [];
    s.onDidChange((slots) => events.push(slots));
    const mark = h.mark();
    const handle = s.patch(SLUG, 'sast', [target.id], { status: 'ignored', triageReason: 'false_positive' });
    assert.equal(events.length, 1, 'one change event');
    assert.deepEqual([...(events[0] ?? [])].sort(), ['problems:f:sast', 'tree:p:sast']);
    assert.equal(requests(mark), 0, 'no request');
    const patched = s.finding(SLUG, 'sast', target.id);
    assert.equal(patched?.status, 'ignored');
    const openNow = s.state('tree:p:sast');
    assert.ok(openNow.kind === 'loaded' && !openNow.result.findings.some((f) => f.id === target.id), 'it left the open view');
    const allNow = s.state('problems:f:sast');
    assert.ok(allNow.kind === 'loaded' && allNow.result.findings.includes(patched), 'the unfiltered view shows it ignored');

    handle.rollback();
    assert.equal(events.length, 2, 'one event for the undo');
    assert.equal(s.finding(SLUG, 'sast', target.id), target, 'the very object from before');
    const restored = s.state('tree:p:sast');
    assert.equal(restored.kind === 'loaded' ? restored.result : undefined, open, 'the very answer from before');
    const restoredAll = s.state('problems:f:sast');
    assert.equal(restoredAll.kind === 'loaded' ? restoredAll.result : undefined, all);
    s.dispose();
  });

  test('a load that started before a patch lands with the patch applied; one that started after it wins', async () => {
    const s = store();
    const first = await s.load('a', query());
    const target = first.findings[0];
    assert.ok(target);
    h.server.setLatency(40);
    const reload = s.load('a', query(), { force: true });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const handle = s.patch(SLUG, 'sast', [target.id], { status: 'reviewing' });
    h.server.setLatency(0);
    const landed = await reload;
    assert.equal(landed.findings.find((f) => f.id === target.id)?.status, 'reviewing', 'the older answer did not undo the patch');
    handle.commit();
    const fresh = await s.load('a', query(), { force: true });
    assert.equal(fresh.findings.find((f) => f.id === target.id)?.status, target.status, 'the platform answer after the patch wins');
    handle.rollback();
    assert.equal(s.finding(SLUG, 'sast', target.id)?.status, target.status, 'an undo after a newer answer changes nothing');
    s.dispose();
  });

  test('while a load is in flight, the state says how many findings have arrived so far', async () => {
    const s = store();
    const seen: number[] = [];
    s.onDidChange(() => {
      const state = s.state('a');
      if (state.kind === 'loading' && state.arrived !== undefined) seen.push(state.arrived);
    });
    const result = await s.load('a', query());
    assert.deepEqual(seen, [100, result.findings.length].slice(0, seen.length), `arrived: ${seen.join(', ')}`);
    assert.ok(seen.length >= 1 && seen.every((n, i) => i === 0 || n > (seen[i - 1] ?? 0)));
    s.dispose();
  });

  test('answers no view shows are dropped beyond the limit, least recently used first; shown ones stay', async () => {
    const s = store({ unshownLimit: () => 10 });
    const shown = await s.load('tree:p:sast', query({ status: 'open' }));
    await s.load('old', query({ severities: ['low'] }));
    await s.load('old', query({ severities: ['medium'] }));
    await s.load('old', query({ severities: ['high'] }));
    const kept = s.state('tree:p:sast');
    assert.equal(kept.kind === 'loaded' ? kept.result : undefined, shown, 'what a view shows is never dropped');
    const mark = h.mark();
    await s.load('again', query({ severities: ['low'] }));
    assert.ok(requests(mark) > 0, 'the least recently used unshown answer was dropped and is fetched again');
    s.release('tree:p:sast');
    s.release('again');
    s.release('old');
    assert.ok(s.size <= 10, `the store holds ${s.size} findings after its views let go`);
    s.dispose();
  });

  test('a snapshot of what is shown reads back to the same findings; another version or a broken one is dropped', async () => {
    const s = store();
    const sast = await s.load('tree:p:sast', query());
    const sca = await s.load('tree:p:sca', query({}, 'sca'));
    const text = encodeSnapshot(s.shownResults());
    const back = decodeSnapshot(text);
    assert.ok(back);
    assert.deepEqual(
      back.map((r) => plain(r)),
      [sast, sca].map((r) => plain(r)),
    );
    // The match key is a hash the platform's answer does not carry: it must survive on its own.
    assert.ok(
      back.every((r) => r.findings.length > 0 && r.findings.every((f) => typeof f.matchKey === 'number')),
      'every finding keeps its match key',
    );
    assert.ok(text.length < JSON.stringify([sast, sca]).length / 2, `compact: ${text.length} characters`);

    const other = new FindingsStore(() => h.client(), { pageSize: 100 });
    other.adopt(back);
    const mark = h.mark();
    const shownAtOnce = other.state('tree:p:sast');
    assert.equal(shownAtOnce.kind, 'idle', 'nothing is shown in a slot before a view asks');
    const adopted = other.load('tree:p:sast', query());
    assert.equal(other.state('tree:p:sast').kind, 'loading');
    const previous = other.state('tree:p:sast');
    assert.deepEqual(
      previous.kind === 'loading' ? previous.previous?.findings.length : -1,
      sast.findings.length,
      'the snapshot is shown while the fresh answer loads',
    );
    await adopted;
    assert.ok(requests(mark) > 0, 'a snapshot is refreshed, never trusted as current');

    // Read while the same query is already loading (a refresh began first): shown meanwhile.
    const late = new FindingsStore(() => h.client(), { pageSize: 100 });
    const loading = late.load('tree:p:sast', query());
    late.adopt(back);
    const meanwhile = late.state('tree:p:sast');
    assert.equal(
      meanwhile.kind === 'loading' ? meanwhile.previous?.findings.length : -1,
      sast.findings.length,
      'a load under way shows the snapshot until it answers',
    );
    const fresh = await loading;
    assert.equal(
      late.state('tree:p:sast').kind === 'loaded' ? (late.state('tree:p:sast') as { result: unknown }).result : undefined,
      fresh,
      'then its own answer',
    );
    late.dispose();

    // The head line, then segments: each broken in turn.
    const [headLine, ...segmentLines] = text.split('\n').filter((line) => line !== '');
    const head = JSON.parse(headLine) as Record<string, unknown>;
    const segment = JSON.parse(segmentLines[0]) as Record<string, unknown>;
    const firstQuery = (head.results as { query: unknown }[])[0]?.query;
    const withHead = (h: Record<string, unknown>): string => [JSON.stringify(h), ...segmentLines].join('\n');
    const withSegment = (seg: Record<string, unknown>): string => [headLine, JSON.stringify(seg), ...segmentLines.slice(1)].join('\n');
    for (const broken of [
      '',
      'null',
      '[]',
      '{',
      text.slice(0, text.length / 2),
      withHead({ ...head, version: SNAPSHOT_VERSION - 1 }),
      withHead({ ...head, version: SNAPSHOT_VERSION + 1 }),
      withHead({ ...head, format: 'x' }),
      withHead({ ...head, results: [{ query: { deploymentSlug: 'a', issueType: 'dast', filters: {} }, loadedAt: 1, findings: 0 }] }),
      // Cut off between lines: every line parses, but the counts do not add up.
      [headLine, ...segmentLines.slice(0, -1)].join('\n'),
      withSegment({ ...segment, strings: [1, 2] }),
      withSegment({ ...segment, result: 9 }),
      withSegment({ ...segment, findings: [[null]] }),
      // A finding without a safe integer id, or without a rule name, is no finding: the whole is dropped.
      withSegment({ ...segment, findings: [[1.5, 0, 0], ...(segment.findings as unknown[]).slice(1)] }),
      withSegment({ ...segment, findings: [[7, -1, 0], ...(segment.findings as unknown[]).slice(1)] }),
      JSON.stringify({ format: head.format, version: SNAPSHOT_VERSION, results: [{ query: firstQuery, loadedAt: 1, findings: 1 }] }),
    ]) {
      assert.equal(decodeSnapshot(broken), undefined, broken.slice(0, 80));
    }
    other.dispose();
    s.dispose();
  });
});

void describe('the store, without a platform', () => {
  test('describeQuery names what failed to load, for the log', () => {
    assert.equal(
      describeQuery({
        deploymentSlug: 'acme',
        issueType: 'sca',
        filters: { repos: ['acme/api'], ref: 'main', dedup: true, status: 'open', severities: ['high', 'critical'] },
      }),
      'supply-chain findings of acme/api on main (status open; severities high,critical)',
    );
    assert.equal(describeQuery({ deploymentSlug: 'acme', issueType: 'sast', filters: {} }), 'code findings of acme');
  });
});

void describe('the snapshot, encoded in slices', () => {
  test('many findings are encoded with the event loop turning between slices, to the same text as in one go', async () => {
    const results = [0, 1, 2].map((r) => ({
      query: { deploymentSlug: 'x', issueType: 'sast' as const, filters: { ref: `r${r}` } },
      findings: Array.from({ length: r === 1 ? 0 : 7000 }, (_, i) => ({
        ...sastLike(r * 10_000 + i),
        location: { filePath: `f${i % 40}.py`, line: 1 + (i % 9) },
      })),
      skipped: r,
      loadedAt: new Date(1_700_000_000_000 + r),
    }));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const parts = await encodeSnapshotInSlices(results);
    clearInterval(ticking);
    assert.ok(turns >= 1, 'the event loop turned while 14 000 findings were encoded');
    assert.ok(parts.length > 5, `in parts, never one giant string (${parts.length})`);
    const sliced = parts.join('');
    assert.equal(sliced, encodeSnapshot(results));
    const back = decodeSnapshot(sliced);
    assert.deepEqual(
      back?.map((r) => [r.query.filters.ref, r.findings.length, r.skipped]),
      [
        ['r0', 7000, 0],
        ['r1', 0, 1],
        ['r2', 7000, 2],
      ],
    );
    assert.deepEqual([back?.[2]?.findings[6999]?.location?.filePath, back?.[2]?.findings[6999]?.location?.line], ['f39.py', 7]);
    turns = 0;
    const ticking2 = setInterval(() => turns++, 0);
    const backInSlices = await decodeSnapshotInSlices(sliced);
    clearInterval(ticking2);
    assert.ok(turns >= 1, 'the event loop turned while 14 000 findings were read back');
    assert.deepEqual(backInSlices, back);
    assert.equal(await decodeSnapshotInSlices(sliced.replace('"id"', '"id" ').slice(0, -2)), undefined, 'a broken one is dropped');
    // Read from the file's bytes, each segment decoded from UTF-8 in its turn: the same findings,
    // characters outside ASCII included.
    const worded = results.map((r) => ({ ...r, findings: r.findings.map((f, i) => ({ ...f, message: `ünïcode 🙂 ${i % 3}` })) }));
    const fromBytes = await decodeSnapshotInSlices(Buffer.from(encodeSnapshot(worded), 'utf8'));
    assert.deepEqual(
      fromBytes?.map((r) => r.findings.map((f) => f.message)),
      worded.map((r) => r.findings.map((f) => f.message)),
    );
  });
});

void describe('the snapshot, in steps', () => {
  test('findings of either kind are read back 1 000 at a time, each step in a turn of its own', () => {
    const result = (issueType: 'sast' | 'sca'): { query: FindingsQuery; findings: Finding[]; skipped: number; loadedAt: Date } => ({
      query: { deploymentSlug: 'x', issueType, filters: {} },
      findings: Array.from({ length: 2500 }, (_, i) => ({
        ...sastLike(i + 1),
        issueType,
        ...(issueType === 'sca'
          ? {
              sca: {
                package: 'lodash',
                version: '4.17.20',
                fixVersions: ['4.17.21'],
                lockfileLineUrl: `https://github.com/a/b/blob/c/package-lock.json#L${i + 1}`,
                lockfileLine: i + 1,
              },
            }
          : {}),
      })),
      skipped: 0,
      loadedAt: new Date(1_700_000_000_000),
    });
    // A line per segment after the head; each segment is read back in a turn of its own.
    const segments = (issueType: 'sast' | 'sca'): number =>
      encodeSnapshot([result(issueType)])
        .trimEnd()
        .split('\n').length - 1;
    assert.equal(segments('sast'), 3);
    assert.equal(segments('sca'), 3);
    const back = decodeSnapshot(encodeSnapshot([result('sca')]));
    assert.deepEqual(
      back?.[0]?.findings.map((f) => f.sca?.lockfileLine),
      result('sca').findings.map((f) => f.sca?.lockfileLine),
    );
    assert.deepEqual(
      decodeSnapshot(encodeSnapshot([result('sast')]))?.[0]?.findings.map((f) => f.id),
      result('sast').findings.map((f) => f.id),
    );
  });
});

function sastLike(id: number): Finding {
  return { issueType: 'sast', id, ruleName: 'r', message: 'm', severity: 'high', status: 'open' };
}
