// A project's settings changed through ProjectsService.changes, over HTTP against the local
// platform through the real client: tags added and removed, the primary branch, managed scans.
// Each shows at once with one change event, is refused before any request when the input is
// wrong, and rolled back to the very same objects when the platform refuses (a role that may not
// write: 403, and the client's plain message).
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import type { Project } from '../../../src/core/model/types';
import { TagsNotRemoved } from '../../../src/core/services/project-changes';
import { ProjectsService } from '../../../src/core/services/projects-service';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import type { StoredProject } from '../../platform/types';
import { startHarness, type Harness } from './platform-harness';

void describe("changing a project's settings (real client, local platform)", () => {
  let h: Harness;
  let data: PlatformData;
  let stored: StoredProject;
  let name: string;
  before(async () => {
    data = generateDeployment({ projects: 3, sastPerProject: 0, scaPerProject: 0 });
    stored = data.projects[1];
    name = stored.name;
    h = await startHarness({ data });
  });
  after(() => h.close());
  beforeEach(() => {
    stored.tags.splice(0, stored.tags.length, 'legacy', 'pci');
    stored.primary_branch = 'main';
    stored.managed_scan_config = { diff_scan: { enabled: true }, full_scan: { enabled: false } };
  });
  afterEach(() => {
    h.server.restoreProducts();
    h.server.faults.clear();
    h.server.setShape('service');
  });

  /** A service with the list and the project's details loaded, counting its change events. */
  async function loaded(): Promise<{ s: ProjectsService; events: () => number }> {
    const client = h.client();
    const s = new ProjectsService(
      () => client,
      () => data.deployment.slug,
    );
    await s.load();
    await s.loadDetails(name);
    let events = 0;
    s.onDidChange(() => events++);
    return { s, events: () => events };
  }
  const writes = (mark: number): string[] =>
    h
      .requestsSince(mark, '/projects/')
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.rawUrl.replace(/^.*\/projects\//, '')}`);
  const role = (e: unknown): boolean => e instanceof PlatformError && e.status === 403 && /^The token's role does not allow .*\(403\)/.test(e.message);

  /** What the service holds of the project: the list's object and its details. */
  async function heldOf(s: ProjectsService): Promise<{ list: Project | undefined; details: Project }> {
    return { list: s.find(name), details: await s.loadDetails(name) };
  }

  void test('tags: added (PUT) and removed (DELETE), shown at once with one event before the platform has them', async () => {
    const { s, events } = await loaded();
    const mark = h.mark();
    let seen: { shown?: readonly string[]; platform: readonly string[] } | undefined;
    s.onDidChange(() => (seen ??= { shown: s.find(name)?.tags, platform: [...stored.tags] }));
    const outcome = await s.changes.editTags(name, { add: ['team-a', 'pci', ' team-b '], remove: ['legacy', 'gone'] });
    assert.deepEqual(seen, { shown: ['pci', 'team-a', 'team-b'], platform: ['legacy', 'pci'] }, 'shown before the platform changed');
    assert.equal(events(), 1, 'one change event');
    assert.deepEqual(outcome.added, ['team-a', 'team-b']);
    assert.deepEqual(outcome.removed, ['legacy']);
    assert.deepEqual(outcome.had, ['pci']);
    assert.deepEqual(outcome.lacked, ['gone']);
    assert.deepEqual(stored.tags, ['pci', 'team-a', 'team-b'], 'the platform has them');
    assert.deepEqual(s.find(name)?.tags, ['pci', 'team-a', 'team-b']);
    assert.deepEqual((await s.loadDetails(name)).tags, ['pci', 'team-a', 'team-b'], 'the details (the tooltip) too');
    assert.deepEqual(writes(mark), [`PUT ${name}/tags`, `DELETE ${name}/tags?tags=legacy`]);
  });

  void test("tags refused by the role: the very same objects come back, the platform is unchanged, the message is the client's", async () => {
    const { s, events } = await loaded();
    const before = await heldOf(s);
    h.server.setReadOnly(true);
    await assert.rejects(s.changes.editTags(name, { add: ['team-a'], remove: ['legacy'] }), role);
    assert.equal(s.find(name), before.list, 'the very same list object');
    assert.equal(await s.loadDetails(name), before.details, 'the very same details');
    assert.equal(events(), 2, 'shown, then put back');
    assert.deepEqual(stored.tags, ['legacy', 'pci']);
    await assert.rejects(s.changes.editTags(name, { remove: ['legacy'] }), role);
    assert.equal(s.find(name), before.list, 'removing alone is put back too');
  });

  void test('tags: added, but the removal refused: the added ones are kept (the platform has them), and the error says what was not removed', async () => {
    const { s, events } = await loaded();
    h.server.faults.inject({ kind: 'status', status: 403, body: JSON.stringify({ error: 'forbidden' }) }, { method: 'DELETE' });
    const refused = await s.changes.editTags(name, { add: ['team-a'], remove: ['legacy'] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(refused instanceof TagsNotRemoved, String(refused));
    assert.deepEqual(refused.added, ['team-a']);
    assert.deepEqual(refused.notRemoved, ['legacy']);
    assert.ok(role(refused.reason), String(refused.reason));
    assert.match(refused.message, /^Added team-a to .*, but legacy could not be removed: The token's role does not allow removing tags/);
    assert.deepEqual(stored.tags, ['legacy', 'pci', 'team-a']);
    assert.deepEqual(s.find(name)?.tags, ['legacy', 'pci', 'team-a'], 'what the platform has');
    assert.deepEqual(refused.project.tags, ['legacy', 'pci', 'team-a']);
    assert.deepEqual((await s.loadDetails(name)).tags, ['legacy', 'pci', 'team-a']);
    assert.equal(events(), 2, 'shown, then what the platform kept');
  });

  void test('tags checked before any request: a tag the platform would refuse, one both added and removed; nothing to change sends nothing', async () => {
    const { s, events } = await loaded();
    const before = s.find(name);
    const mark = h.mark();
    for (const [change, why] of [
      [{ add: ['has space'] }, /"has space" has characters a tag cannot have/],
      [{ add: ['a,b'] }, /"a,b" has characters/],
      [{ add: ['x'.repeat(101)] }, /longer than 100 characters/],
      [{ add: ['team-a'], remove: ['team-a'] }, /"team-a" is both added and removed/],
      [{ remove: ['no such;tag'] }, /"no such;tag" has characters/],
    ] as const) {
      await assert.rejects(s.changes.editTags(name, change), (e: unknown) => e instanceof PlatformError && e.reason === 'badRequest' && why.test(e.message));
    }
    const unchanged = await s.changes.editTags(name, { add: ['pci'], remove: ['gone'] });
    assert.deepEqual(unchanged, { project: before, added: [], removed: [], had: ['pci'], lacked: ['gone'] });
    assert.deepEqual(writes(mark), [], 'nothing was sent');
    assert.equal(events(), 0);
    assert.equal(s.find(name), before);
  });

  void test('the primary branch: shown at once with one event, stored by the platform; "default" makes the default branch primary again', async () => {
    const { s, events } = await loaded();
    let shown: string | undefined;
    s.onDidChange(() => (shown ??= s.find(name)?.primaryBranch));
    const mark = h.mark();
    const set = await s.changes.setPrimaryBranch(name, 'refs/heads/develop');
    assert.equal(shown, 'develop');
    assert.equal(events(), 1);
    assert.deepEqual([set.changed, set.project.primaryBranch, stored.primary_branch], [true, 'develop', 'develop']);
    assert.equal(s.find(name)?.primaryBranch, 'develop');
    assert.equal((await s.loadDetails(name)).primaryBranch, 'develop');
    const again = await s.changes.setPrimaryBranch(name, 'develop');
    assert.equal(again.changed, false, 'already primary: nothing sent');
    for (const shape of ['service', 'spec'] as const) {
      h.server.setShape(shape);
      stored.primary_branch = 'develop';
      await s.changes.setPrimaryBranch(name, 'develop2');
      const back = await s.changes.setPrimaryBranch(name, undefined);
      assert.equal(stored.primary_branch, '', `the platform stores the default branch as primary (${shape})`);
      assert.equal(back.project.primaryBranch, undefined, shape);
      assert.equal(back.project.defaultBranch, 'main');
    }
    assert.deepEqual(
      writes(mark).map((w) => w.split(' ')[0]),
      ['PATCH', 'PATCH', 'PATCH', 'PATCH', 'PATCH'],
    );
    assert.deepEqual(
      h
        .requestsSince(mark, '/projects/')
        .filter((r) => r.method === 'PATCH')
        .map((r) => JSON.parse(r.body ?? '{}') as unknown),
      [
        { primary_branch: 'refs/heads/develop' },
        { primary_branch: 'refs/heads/develop2' },
        { primary_branch: 'None' },
        { primary_branch: 'refs/heads/develop2' },
        { primary_branch: 'None' },
      ],
    );
  });

  void test('the primary branch refused: the same objects come back; a name that is no branch is refused before any request', async () => {
    const { s, events } = await loaded();
    const before = await heldOf(s);
    h.server.setReadOnly(true);
    await assert.rejects(s.changes.setPrimaryBranch(name, 'develop'), role);
    assert.equal(s.find(name), before.list);
    assert.equal(await s.loadDetails(name), before.details);
    assert.equal(stored.primary_branch, 'main');
    assert.equal(events(), 2);
    const mark = h.mark();
    for (const bad of ['', 'has space', 'None', 'a..b', 'refs/tags/v1', '-x']) {
      await assert.rejects(
        s.changes.setPrimaryBranch(name, bad),
        (e: unknown) => e instanceof PlatformError && e.reason === 'badRequest' && /is not a branch name/.test(e.message),
        bad,
      );
    }
    assert.deepEqual(writes(mark), []);
    assert.equal(events(), 2);
  });

  for (const shape of ['service', 'spec'] as const) {
    void test(`managed scans (${shape} answer): both sent, the details show the change at once with one event`, async () => {
      h.server.setShape(shape);
      const { s, events } = await loaded();
      let shown: unknown;
      s.onDidChange(() => (shown ??= s.find(name)?.managedScanConfig));
      const mark = h.mark();
      const outcome = await s.changes.setManagedScans(name, { fullScan: true });
      const both = { diffScanEnabled: true, fullScanEnabled: true };
      assert.deepEqual(shown, both, 'shown before the answer');
      assert.equal(events(), 1);
      assert.deepEqual(outcome, { scans: both, before: { diffScanEnabled: true, fullScanEnabled: false }, changed: true });
      assert.deepEqual((await s.loadDetails(name)).managedScanConfig, both, "the tooltip's details");
      assert.deepEqual(stored.managed_scan_config, { diff_scan: { enabled: true }, full_scan: { enabled: true } });
      const sent = h.requestsSince(mark, '/managed-scan').map((r) => JSON.parse(r.body ?? '{}') as unknown);
      assert.deepEqual(sent, [{ diff_scan: { enabled: true }, full_scan: { enabled: true } }], 'both values, the omitted one as it was');
      const same = await s.changes.setManagedScans(name, { diffScan: true });
      assert.equal(same.changed, false, 'nothing to change: nothing sent');
      assert.equal(h.requestsSince(mark, '/managed-scan').length, 1);
    });
  }

  void test('managed scans refused: the very same objects come back, the platform is unchanged', async () => {
    const { s, events } = await loaded();
    const before = await heldOf(s);
    h.server.setReadOnly(true);
    await assert.rejects(s.changes.setManagedScans(name, { diffScan: false, fullScan: true }), role);
    assert.equal(s.find(name), before.list);
    assert.equal(await s.loadDetails(name), before.details);
    assert.deepEqual(before.details.managedScanConfig, { diffScanEnabled: true, fullScanEnabled: false });
    assert.deepEqual(stored.managed_scan_config, { diff_scan: { enabled: true }, full_scan: { enabled: false } });
    assert.equal(events(), 2);
  });

  void test("before the list is read: the workspace's known project changes, and comes back as the same object when refused", async () => {
    const client = h.client();
    const s = new ProjectsService(
      () => client,
      () => data.deployment.slug,
    );
    await s.readKnown([name]);
    const known = s.find(name);
    assert.ok(known && s.known.includes(known) && !s.listed);
    let events = 0;
    s.onDidChange(() => events++);
    await s.changes.editTags(name, { add: ['team-a'] });
    assert.deepEqual(s.find(name)?.tags, ['legacy', 'pci', 'team-a']);
    assert.equal(events, 1);
    h.server.setReadOnly(true);
    const shown = s.find(name);
    await assert.rejects(s.changes.setPrimaryBranch(name, 'develop'), role);
    assert.equal(s.find(name), shown);
    assert.equal(
      s.known.find((p) => p.name === name),
      shown,
    );
  });

  void test('changes of one project wait for each other: the second is shown on top of the first', async () => {
    const { s } = await loaded();
    h.server.setLatency(30);
    try {
      const [tags, branch] = await Promise.all([s.changes.editTags(name, { add: ['team-a'] }), s.changes.setPrimaryBranch(name, 'develop')]);
      assert.deepEqual(tags.added, ['team-a']);
      assert.deepEqual([branch.project.primaryBranch, branch.project.tags], ['develop', ['legacy', 'pci', 'team-a']]);
      assert.deepEqual(s.find(name)?.tags, ['legacy', 'pci', 'team-a']);
    } finally {
      h.server.setLatency(0);
    }
  });

  void test('signed out: refused before any request', async () => {
    const client = h.client();
    const s = new ProjectsService(
      () => client,
      () => undefined,
    );
    const mark = h.mark();
    await assert.rejects(s.changes.editTags(name, { add: ['x'] }), /Sign in first/);
    await assert.rejects(s.changes.setManagedScans(name, { diffScan: true }), /Sign in first/);
    assert.deepEqual(writes(mark), []);
  });
});
