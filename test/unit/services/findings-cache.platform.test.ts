// The findings kept on disk between sessions: what was shown comes back the same; a damaged
// file or another version is dropped (and said) rather than trusted; the size bound keeps the
// newest answers; nothing of the token is written; clearing forgets it. Real files, real client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FindingsCache, writeInPieces } from '../../../src/core/services/findings-cache';
import { SNAPSHOT_VERSION } from '../../../src/core/services/findings-snapshot';
import { FindingsStore } from '../../../src/core/services/findings-store';
import type { FindingsQuery, FindingsResult } from '../../../src/core/services/findings-query';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { plain } from '../core/helpers/plain';
import { startHarness, type Harness } from './platform-harness';

const SLUG = 'acme';

void describe('the findings cache on disk', () => {
  let h: Harness;
  let data: PlatformData;
  let results: FindingsResult[];

  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 120, scaPerProject: 30, refsPerProject: 1 });
    h = await startHarness({ data });
    const store = new FindingsStore(() => h.client(), { pageSize: 100 });
    const query = (project: string, issueType: 'sast' | 'sca'): FindingsQuery => ({
      deploymentSlug: SLUG,
      issueType,
      filters: { repos: [project], ref: 'main', status: 'open', dedup: true },
    });
    results = [];
    for (const [i, project] of data.projects.map((p) => p.name).entries()) {
      results.push(await store.load(`a${i}`, query(project, 'sast')), await store.load(`b${i}`, query(project, 'sca')));
    }
    store.dispose();
  });
  const made: string[] = [];
  after(async () => {
    await h.close();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const cacheIn = (maxBytes = 200 * 1024 * 1024) => {
    const dir = mkdtempSync(join(tmpdir(), 'appsec-cache-'));
    made.push(dir);
    const problems: string[] = [];
    return { dir, problems, cache: new FindingsCache({ dir, maxBytes: () => maxBytes, onProblem: (m) => problems.push(m) }) };
  };
  const files = (dir: string): string[] => readdirSync(join(dir, 'findings-cache'));

  test('what was kept reads back as the same findings, for its deployment only; no temporary file is left', async () => {
    const { dir, cache } = cacheIn();
    const bytes = await cache.write(SLUG, results);
    assert.ok(bytes > 0);
    const back = await cache.read(SLUG);
    assert.ok(back);
    const byKey = (list: readonly FindingsResult[]) =>
      [...list].sort((a, b) => JSON.stringify(a.query).localeCompare(JSON.stringify(b.query))).map((r) => plain(r));
    assert.deepEqual(byKey(back), byKey(results));
    assert.equal(await cache.read('other-deployment'), undefined);
    assert.deepEqual(
      files(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
    const text = readFileSync(join(dir, 'findings-cache', files(dir)[0]), 'utf8');
    assert.ok(!text.includes(h.server.token), 'the token is never written');
  });

  test('another platform with a deployment of the same slug reads nothing of this one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appsec-cache-'));
    made.push(dir);
    let origin = 'https://one.example';
    const cache = new FindingsCache({ dir, maxBytes: () => 1 << 30, origin: () => origin });
    await cache.write(SLUG, results);
    origin = 'https://two.example';
    assert.equal(await cache.read(SLUG), undefined, "the second platform's start draws none of the first one's findings");
    origin = 'https://one.example';
    assert.equal((await cache.read(SLUG))?.length, results.length);
  });

  test('a damaged file, or one of another version, is dropped and said, never trusted', async () => {
    const { dir, cache, problems } = cacheIn();
    await cache.write(SLUG, results);
    const file = join(dir, 'findings-cache', files(dir)[0]);
    const good = readFileSync(file, 'utf8');
    for (const bad of [good.slice(0, good.length / 2), good.replace(`"version":${SNAPSHOT_VERSION}`, `"version":${SNAPSHOT_VERSION + 1}`), '']) {
      writeFileSync(file, bad);
      assert.equal(await cache.read(SLUG), undefined);
    }
    assert.equal(problems.length, 3);
    assert.match(problems[0] ?? '', /dropped and will be rebuilt/);
    assert.deepEqual(files(dir), [], 'the damaged file is removed');
  });

  test('the size bound keeps the newest answers; a bound too small for any keeps nothing', async () => {
    const dated = results.map((r, i) => ({ ...r, loadedAt: new Date(Date.UTC(2024, 0, 1 + i)) }));
    const whole = await cacheIn().cache.write(SLUG, dated);
    const { cache } = cacheIn(Math.floor(whole * 0.7));
    await cache.write(SLUG, dated);
    const kept = (await cache.read(SLUG)) ?? [];
    assert.ok(kept.length > 0 && kept.length < dated.length, `${kept.length} of ${dated.length} kept`);
    const oldestKept = Math.min(...kept.map((r) => r.loadedAt.getTime()));
    const dropped = dated.filter((r) => !kept.some((k) => JSON.stringify(k.query) === JSON.stringify(r.query)));
    assert.ok(
      dropped.every((r) => r.loadedAt.getTime() < oldestKept),
      'the oldest went first',
    );
    const tiny = cacheIn(10);
    assert.equal(await tiny.cache.write(SLUG, dated), 0);
    assert.equal(await tiny.cache.read(SLUG), undefined);
  });

  test('clear forgets it (sign-out)', async () => {
    const { cache, dir } = cacheIn();
    await cache.write(SLUG, results);
    await cache.writeOpen(SLUG, results.slice(0, 1));
    await cache.clear(SLUG);
    assert.equal(await cache.read(SLUG), undefined);
    assert.equal(await cache.readOpen(SLUG), undefined);
    assert.deepEqual(files(dir), [], "the open files' part goes with the whole");
    await cache.write(SLUG, results);
    await cache.clear();
    assert.equal(await cache.read(SLUG), undefined);
    // Signing out while a write is under way: the write does not land afterwards.
    const writing = cache.write(SLUG, results);
    const writingPart = cache.writeOpen(SLUG, results.slice(0, 1));
    await cache.clear();
    assert.equal(await writing, 0);
    await writingPart;
    assert.equal(await cache.read(SLUG), undefined);
    assert.ok(
      !existsSync(join(dir, 'findings-cache')) || files(dir).length === 0,
      `nothing on disk: ${existsSync(join(dir, 'findings-cache')) ? files(dir).join(', ') : ''}`,
    );
  });

  // The part for the files open in editors is read first at a start, so it must never show what
  // the whole cache it was cut from does not hold.
  const openPartOf = (list: readonly FindingsResult[]): FindingsResult[] =>
    list.map((r) => ({ ...r, findings: r.findings.filter((f) => f.location?.filePath === list[0].findings[0].location?.filePath) }));

  test("the open files' part reads back as written, only beside the whole file it was cut from", async () => {
    const { dir, cache } = cacheIn();
    const part = openPartOf(results);
    const cut = part.reduce((n, r) => n + r.findings.length, 0);
    assert.ok(cut > 0 && cut < results.reduce((n, r) => n + r.findings.length, 0));
    await cache.writeOpen(SLUG, part);
    assert.equal(await cache.readOpen(SLUG), undefined, 'nothing without a whole cache to be cut from');
    await cache.write(SLUG, results);
    await cache.writeOpen(SLUG, part);
    assert.deepEqual(
      (await cache.readOpen(SLUG))?.map((r) => plain(r)),
      part.map((r) => plain(r)),
    );
    assert.equal(await cache.readOpen('other-deployment'), undefined);
    const text = readFileSync(join(dir, 'findings-cache', files(dir).find((f) => f.endsWith('.open.json')) ?? ''), 'utf8');
    assert.ok(!text.includes(h.server.token), 'the token is never written');

    // The whole written again (a later refresh): the old part no longer goes with it.
    await new Promise((r) => setTimeout(r, 20));
    await cache.write(SLUG, results.slice(1));
    assert.equal(await cache.readOpen(SLUG), undefined);
    assert.equal((await cache.read(SLUG))?.length, results.length - 1, 'the whole is still read');
  });

  test("a damaged open files' part is not used; no findings in open files removes it", async () => {
    const { dir, cache } = cacheIn();
    await cache.write(SLUG, results);
    await cache.writeOpen(SLUG, openPartOf(results));
    const file = join(dir, 'findings-cache', files(dir).find((f) => f.endsWith('.open.json')) ?? '');
    const good = readFileSync(file, 'utf8');
    for (const bad of [good.slice(0, good.length - 10), good.slice(good.indexOf('\n') + 1), '', 'x\n{}']) {
      writeFileSync(file, bad);
      assert.equal(await cache.readOpen(SLUG), undefined, JSON.stringify(bad.slice(0, 40)));
    }
    await cache.writeOpen(
      SLUG,
      results.map((r) => ({ ...r, findings: [] })),
    );
    assert.ok(!files(dir).some((f) => f.endsWith('.open.json')));
    assert.ok(await cache.read(SLUG), 'the whole is untouched');
  });
});

void describe('what Problems showed, kept beside the cache', () => {
  let h: Harness;
  let results: FindingsResult[];
  const made: string[] = [];
  before(async () => {
    h = await startHarness({ data: generateDeployment({ projects: 1, sastPerProject: 20, scaPerProject: 5, refsPerProject: 1 }) });
    const store = new FindingsStore(() => h.client(), { pageSize: 100 });
    results = [await store.load('a', { deploymentSlug: SLUG, issueType: 'sast', filters: { ref: 'main', status: 'open' } })];
    store.dispose();
  });
  after(async () => {
    await h.close();
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  const cacheIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'appsec-shown-'));
    made.push(dir);
    return { dir, cache: new FindingsCache({ dir, maxBytes: () => 1 << 30 }) };
  };
  const VIEW = '["acme",[["file:///w","acme/app","main"]]]';
  const SHOWN = '{"format":"appsec-findings/shown"}';

  test('reads back only beside the whole cache it was drawn from, and only for the same view', async () => {
    const { dir, cache } = cacheIn();
    await cache.writeShown(SLUG, VIEW, SHOWN);
    assert.equal(await cache.readShown(SLUG, VIEW), undefined, 'nothing without a whole cache');
    await cache.write(SLUG, results);
    await cache.writeShown(SLUG, VIEW, SHOWN);
    assert.equal(await cache.readShown(SLUG, VIEW), SHOWN);
    assert.equal(await cache.readShown(SLUG, VIEW.replace('main', 'feature')), undefined, 'another branch (or filter, or setting) draws otherwise');
    assert.equal(await cache.readShown('other-deployment', VIEW), undefined);
    // The whole written again (a later refresh): what was drawn from the old one is not used.
    await new Promise((r) => setTimeout(r, 20));
    await cache.write(SLUG, results);
    assert.equal(await cache.readShown(SLUG, VIEW), undefined);
    const file = join(dir, 'findings-cache', readdirSync(join(dir, 'findings-cache')).find((f) => f.endsWith('.shown.json')) ?? '');
    for (const bad of ['', 'x\n{}', SHOWN]) {
      writeFileSync(file, bad);
      assert.equal(await cache.readShown(SLUG, VIEW), undefined, bad);
    }
    await cache.clear(SLUG);
    assert.ok(!existsSync(file), 'forgotten with the whole at sign-out');
  });
});

void describe('writing the cache a piece at a time', () => {
  test('pieces that would split a character keep it whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'appsec-pieces-'));
    const file = join(dir, 'text.json');
    // With pieces of 4 characters, the boundaries fall inside the surrogate pairs of the emoji.
    const text = `a${'🙂é'.repeat(25)}漢字`;
    await writeInPieces(file, text, 4);
    assert.equal(readFileSync(file, 'utf8'), text);
    await writeInPieces(file, 'short');
    assert.equal(readFileSync(file, 'utf8'), 'short', 'a shorter text replaces a longer one whole');
    await writeInPieces(file, ['{"a":', '"🙂é', '"}'], 2);
    assert.equal(readFileSync(file, 'utf8'), '{"a":"🙂é"}', 'parts are written in order, each in pieces');
    rmSync(dir, { recursive: true, force: true });
  });
});
