/**
 * DependenciesService through the real client against the local platform: each list read once
 * and shared, the license policy's outcomes asked of the platform, "where else is it used" in one
 * wave (all versions and those in range side by side), a deployment without the inventory as a
 * calm answer cached until the next refresh, and a failure forgotten so the next look asks again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DependenciesService } from '../../../src/core/services/dependencies-service';
import { dependencyKey } from '../../../src/core/services/dependency-usage';
import { inventoryOf } from '../../platform/dependencies';
import { usePlatform } from '../core/helpers/platformFixture';

const fx = usePlatform();
const service = (): DependenciesService =>
  new DependenciesService(
    () => fx.client,
    () => fx.deploymentId(),
  );
const posts = (ending: string, since: number) => fx.platform.requests.slice(since).filter((r) => r.method === 'POST' && r.path.endsWith(ending));

void describe('DependenciesService', () => {
  void it('reads a lockfile once for every caller, and again after expire()', async () => {
    const s = service();
    const stored = inventoryOf(fx.platform.data).dependencies;
    const first = stored[0];
    assert.ok(first);
    const mark = fx.platform.requests.length;
    const [a, b] = await Promise.all([
      s.lockfileDependencies(String(first.repositoryId), first.lockfile),
      s.lockfileDependencies(String(first.repositoryId), first.lockfile),
    ]);
    assert.equal(a, b);
    const expected = stored.filter((d) => d.repositoryId === first.repositoryId && d.lockfile === first.lockfile);
    assert.equal(a.items.length, expected.length);
    assert.equal(posts('/dependencies', mark).length, 1);
    s.expire();
    await s.lockfileDependencies(String(first.repositoryId), first.lockfile);
    assert.equal(posts('/dependencies', mark).length, 2);
  });

  void it('license outcomes: what the platform says it blocks or comments on, by dependency', async () => {
    const s = service();
    const inventory = inventoryOf(fx.platform.data);
    const repositoryId = inventory.dependencies.find((d) => inventory.licensePolicy.block.some((l) => d.licenses.includes(l)))?.repositoryId;
    assert.ok(repositoryId !== undefined, 'the platform has a blocked license');
    const outcomes = await s.licenseOutcomes(String(repositoryId));
    const all = await s.repositoryDependencies(String(repositoryId));
    for (const d of all.items) {
      const blocked = d.licenses.some((l) => inventory.licensePolicy.block.includes(l));
      const commented = d.licenses.some((l) => inventory.licensePolicy.comment.includes(l));
      assert.equal(outcomes.get(dependencyKey(d)), blocked ? 'block' : commented ? 'comment' : undefined, `${d.name} ${d.licenses.join(',')}`);
    }
    assert.ok(s.seenLicenses().length > 3, 'the filter can offer the licenses read');
    // The filter offers the ecosystems read, not every one the platform could name.
    assert.deepEqual(new Set(s.seenEcosystems()), new Set(all.items.map((d) => d.ecosystem)));
  });

  void it('where else: every use of the package, those in range marked, in one wave of requests', async () => {
    const s = service();
    const stored = inventoryOf(fx.platform.data).dependencies;
    const shared = stored.find((d) => new Set(stored.filter((o) => o.name === d.name && o.ecosystem === d.ecosystem).map((o) => o.version)).size > 1);
    assert.ok(shared, 'a package used in several versions');
    const uses = stored.filter((d) => d.name === shared.name && d.ecosystem === shared.ecosystem);
    const mark = fx.platform.requests.length;
    const usage = await s.whereUsed({ package: shared.name, ecosystem: shared.ecosystem, version: shared.version });
    const rowKey = (repositoryId: string | number, path: string, version: string): string => `${repositoryId} ${path} ${version}`;
    assert.deepEqual(
      new Set(usage.rows.map((r) => rowKey(r.repositoryId, r.lockfilePath, r.version))),
      new Set(uses.map((d) => rowKey(d.repositoryId, d.lockfile, d.version))),
    );
    assert.ok(usage.rows.every((r) => r.inRange === (r.version === shared.version)));
    const order = usage.rows.map((r) => r.inRange);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => Number(b) - Number(a)),
      'in range first',
    );
    const names = new Map(fx.platform.data.projects.map((p) => [String(p.repository_id), p.name]));
    assert.ok(usage.rows.every((r) => r.repository === names.get(r.repositoryId)));
    // All versions, those in range and the repositories' names: asked at once, not one after another.
    assert.equal(fx.platform.requests.length - mark, 3);
  });

  void it('a deployment without the inventory: an empty answer saying why, kept until the next refresh', async () => {
    const s = service();
    fx.platform.setProduct('dependencies', 403);
    try {
      const mark = fx.platform.requests.length;
      const answer = await s.lockfiles('1');
      assert.equal(answer.unavailable?.status, 403);
      assert.deepEqual(answer.items, []);
      assert.equal(s.unavailable?.status, 403);
      const usage = await s.whereUsed({ package: 'lodash' });
      assert.equal(usage.unavailable?.status, 403);
      await s.lockfiles('1');
      assert.equal(posts('/lockfiles', mark).length, 1, 'not asked again before a refresh');
    } finally {
      fx.platform.restoreProducts();
    }
  });

  void it('a failure is an error the view shows, and is forgotten: the next look asks again', async () => {
    const s = service();
    fx.platform.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/dependencies/repositories' }, 20);
    await assert.rejects(s.repositoryNames(), /500/);
    fx.platform.faults.clear();
    assert.ok((await s.repositoryNames()).size > 0);
  });

  void it('signed out: nothing is asked', async () => {
    const s = new DependenciesService(
      () => fx.client,
      () => undefined,
    );
    await assert.rejects(s.lockfiles('1'), /Not signed in/);
  });
});
