/**
 * The supply-chain inventory through PlatformClient against the local platform server: each list
 * read whole across several body cursors of its own type, every filter sent and honoured, both
 * spellings read alike, short pages, a 429 retried, a deployment without the inventory, and
 * unreadable entries skipped and counted.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import type { Dependency, DependencyFilter, InventoryPage } from '../../../src/core/model/dependency';
import { PlatformError } from '../../../src/core/model/errors';
import { inventoryOf, type StoredDependency } from '../../platform/dependencies';
import { usePlatform } from './helpers/platformFixture';

const fx = usePlatform();
const inv = () => inventoryOf(fx.platform.data);

async function all<T>(call: () => AsyncIterable<InventoryPage<T>>): Promise<{ items: T[]; skipped: number; pages: number }> {
  const pages = call();
  const items: T[] = [];
  let skipped = 0;
  let count = 0;
  for await (const page of pages) {
    items.push(...page.items);
    skipped += page.skipped;
    count++;
  }
  return { items, skipped, pages: count };
}

/** The JSON bodies of the POSTs to paths ending so, in order. */
const bodies = (ending: string): Record<string, unknown>[] =>
  fx.platform.requests.filter((r) => r.method === 'POST' && r.path.endsWith(ending)).map((r) => JSON.parse(r.body ?? '{}') as Record<string, unknown>);
const keyOf = (d: Dependency): string => `${d.repositoryId}|${d.definedAt?.path}|${d.definedAt?.line}|${d.name}@${d.version}`;
const storedKey = (d: StoredDependency): string => `${d.repositoryId}|${d.lockfile}|${d.line}|${d.name}@${d.version}`;
const deps = (filter: DependencyFilter = {}, pageSize = 1000) => all(() => fx.client.dependencies(fx.deploymentId(), filter, { pageSize }));

void describe('paging of the three lists', () => {
  void it('dependencies: every one, in order, across pages whose cursor is an int64 as a string, sent back as a string', async () => {
    const stored = inv().dependencies;
    const pageSize = Math.ceil(stored.length / 4);
    const got = await deps({}, pageSize);
    assert.ok(got.pages >= 4, `${got.pages} pages`);
    assert.deepEqual(got.items.map(keyOf), stored.map(storedKey));
    const cursors = bodies('/dependencies').map((b) => b.cursor);
    assert.equal(cursors[0], undefined, 'the first request has no cursor');
    assert.ok(
      cursors.slice(1).every((c) => typeof c === 'string' && /^\d{13}$/.test(c)),
      JSON.stringify(cursors),
    );
    assert.ok(bodies('/dependencies').every((b) => b.pageSize === pageSize && JSON.stringify(b.dependencyFilter) === '{}'));
    // One decoded in full, against what the platform holds.
    const s = stored.find((d) => d.manifestLine !== undefined && d.licenses.length > 0);
    assert.ok(s);
    const d = got.items.find((x) => keyOf(x) === storedKey(s));
    assert.deepEqual(d, {
      repositoryId: String(s.repositoryId),
      ecosystem: s.ecosystem,
      name: s.name,
      version: s.version,
      transitivity: s.transitivity,
      licenses: s.licenses,
      resolvedUrl: s.resolvedUrl,
      definedAt: { path: s.lockfile, line: s.line, endLine: s.endLine, url: `${s.repoUrl}/blob/${s.commit}/${s.lockfile}#L${s.line}` },
      manifest: { path: s.manifest, line: s.manifestLine, endLine: s.manifestLine, url: `${s.repoUrl}/blob/${s.commit}/${s.manifest}#L${s.manifestLine}` },
    });
  });

  void it('repositories: across three pages whose cursor is a number, sent back as a number', async () => {
    const got = await all(() => fx.client.dependencyRepositories(fx.deploymentId(), {}, { pageSize: 2 }));
    const projects = [...fx.platform.data.projects].sort((a, b) => a.repository_id - b.repository_id);
    assert.deepEqual(
      got.items.map((r) => [r.id, r.name, r.dependencies, r.hasDependencyPaths]),
      projects.map((p) => [
        String(p.repository_id),
        p.name,
        inv().dependencies.filter((d) => d.repositoryId === p.repository_id).length,
        inv().withPaths.has(p.repository_id),
      ]),
    );
    assert.ok(got.items.some((r) => r.hasDependencyPaths) && got.items.some((r) => !r.hasDependencyPaths));
    assert.equal(got.pages, 3);
    const cursors = bodies('/dependencies/repositories').map((b) => b.cursor);
    assert.deepEqual(cursors, [undefined, projects[1]?.repository_id, projects[3]?.repository_id]);
  });

  void it('lockfiles: across three pages whose cursor is an opaque string', async () => {
    const repo = fx.platform.data.projects[0];
    assert.ok(repo);
    const got = await all(() => fx.client.lockfiles(fx.deploymentId(), String(repo.repository_id), {}, { pageSize: 1 }));
    const mine = inv().dependencies.filter((d) => d.repositoryId === repo.repository_id);
    const paths = [...new Set(mine.map((d) => d.lockfile))].sort();
    assert.ok(paths.length >= 3);
    assert.deepEqual(
      got.items,
      paths.map((path) => ({ path, dependencies: mine.filter((d) => d.lockfile === path).length })),
    );
    assert.equal(got.pages, paths.length);
    const cursors = bodies('/lockfiles').map((b) => b.cursor);
    assert.equal(cursors[0], undefined);
    assert.ok(cursors.slice(1).every((c) => typeof c === 'string' && !/^\d+$/.test(c)));
    assert.equal(fx.platform.requests[0]?.path, `/api/v1/deployments/${fx.deploymentId()}/dependencies/repositories/${repo.repository_id}/lockfiles`);
  });
});

interface FilterCase {
  readonly name: string;
  readonly filter: () => DependencyFilter;
  /** What the request's `dependencyFilter` must hold. */
  readonly sends: () => Record<string, unknown>;
  readonly holds: (d: StoredDependency) => boolean;
}

const policy = () => inv().licensePolicy;
const blocked = (d: StoredDependency): boolean => d.licenses.some((l) => policy().block.includes(l));
const commented = (d: StoredDependency): boolean => !blocked(d) && d.licenses.some((l) => policy().comment.includes(l));
const ids = () => fx.platform.data.projects.slice(1, 3).map((p) => p.repository_id);

const filterCases: FilterCase[] = [
  {
    name: 'ecosystems',
    filter: () => ({ ecosystems: ['pypi', 'gomod'] }),
    sends: () => ({ ecosystem: ['pypi', 'gomod'] }),
    holds: (d) => ['pypi', 'gomod'].includes(d.ecosystem),
  },
  {
    name: 'licenses',
    filter: () => ({ licenses: ['Apache-2.0', 'ISC'] }),
    sends: () => ({ license: ['Apache-2.0', 'ISC'] }),
    holds: (d) => d.licenses.includes('Apache-2.0') || d.licenses.includes('ISC'),
  },
  {
    name: 'license policy: block',
    filter: () => ({ licensePolicy: ['block'] }),
    sends: () => ({ licensePolicySettings: ['LICENSE_POLICY_SETTING_BLOCK'] }),
    holds: blocked,
  },
  {
    name: 'license policy: comment',
    filter: () => ({ licensePolicy: ['comment'] }),
    sends: () => ({ licensePolicySettings: ['LICENSE_POLICY_SETTING_COMMENT'] }),
    holds: commented,
  },
  {
    name: 'license policy: allow',
    filter: () => ({ licensePolicy: ['allow'] }),
    sends: () => ({ licensePolicySettings: ['LICENSE_POLICY_SETTING_ALLOW'] }),
    holds: (d) => !blocked(d) && !commented(d),
  },
  {
    name: 'lockfilePath',
    filter: () => ({ lockfilePath: 'package-lock.json' }),
    sends: () => ({ lockfilePath: 'package-lock.json' }),
    holds: (d) => d.lockfile === 'package-lock.json',
  },
  {
    name: 'repositoryIds',
    filter: () => ({ repositoryIds: ids().map(String) }),
    sends: () => ({ repositoryId: ids().map(String) }),
    holds: (d) => ids().includes(d.repositoryId),
  },
  {
    name: 'transitivity: unknown',
    filter: () => ({ transitivity: ['unknown'] }),
    sends: () => ({ transitivity: ['UNKNOWN_TRANSITIVITY'] }),
    holds: (d) => d.transitivity === 'unknown',
  },
  {
    name: 'transitivity: direct and transitive',
    filter: () => ({ transitivity: ['direct', 'transitive'] }),
    sends: () => ({ transitivity: ['DIRECT', 'TRANSITIVE'] }),
    holds: (d) => d.transitivity !== 'unknown',
  },
  {
    name: 'a package by its exact name',
    filter: () => ({ packages: [{ name: 'express', exact: true }] }),
    sends: () => ({ packageFilters: [{ name: 'express', exactNameMatch: true }] }),
    holds: (d) => d.name === 'express',
  },
  {
    name: 'packages by part of their name, in any case',
    filter: () => ({ packages: [{ name: 'LOG' }, { name: 'yaml' }] }),
    sends: () => ({ packageFilters: [{ name: 'LOG' }, { name: 'yaml' }] }),
    holds: (d) => /log|yaml/i.test(d.name),
  },
];

void describe('filters', () => {
  for (const c of filterCases) {
    void it(`${c.name} is sent and honoured by each list`, async () => {
      const expected = inv().dependencies.filter(c.holds);
      const got = await deps(c.filter(), 50);
      assert.ok(
        expected.length > 0 && expected.length < inv().dependencies.length,
        `${expected.length} of ${inv().dependencies.length}: pick a value that narrows`,
      );
      assert.deepEqual(got.items.map(keyOf), expected.map(storedKey));
      assert.ok(
        bodies('/dependencies').every((b) => JSON.stringify(b.dependencyFilter) === JSON.stringify(c.sends())),
        JSON.stringify(bodies('/dependencies')[0]),
      );
      // The summaries count what the filter keeps.
      const repos = await all(() => fx.client.dependencyRepositories(fx.deploymentId(), c.filter()));
      const counts = new Map<string, number>();
      for (const d of expected) counts.set(String(d.repositoryId), (counts.get(String(d.repositoryId)) ?? 0) + 1);
      assert.deepEqual(
        repos.items.map((r) => [r.id, r.dependencies]),
        [...counts],
      );
      const first = expected[0];
      assert.ok(first);
      const lockfiles = await all(() => fx.client.lockfiles(fx.deploymentId(), String(first.repositoryId), c.filter()));
      assert.deepEqual(
        lockfiles.items.map((l) => l.path),
        [...new Set(expected.filter((d) => d.repositoryId === first.repositoryId).map((d) => d.lockfile))].sort(),
      );
      assert.ok(bodies('/lockfiles').every((b) => JSON.stringify(b.dependencyFilter) === JSON.stringify(c.sends())));
    });
  }

  void it('version bounds and exact versions compare versions by their numbers', async (t) => {
    const base = inv().dependencies[inv().dependencies.length - 1];
    assert.ok(base);
    const versions = ['1.9.0', '1.10.0', '2.0.0', '2.17.0', '2.17.1', '10.0.0'];
    const added = versions.map((version, i): StoredDependency => ({ ...base, id: base.id + 1 + i, line: base.line + 10 + i, name: 'probe-semver', version }));
    inv().dependencies.push(...added);
    t.after(() => void inv().dependencies.splice(-added.length));
    const versionsOf = async (filter: DependencyFilter['packages']): Promise<string[]> => (await deps({ packages: filter })).items.map((d) => d.version);
    assert.deepEqual(await versionsOf([{ name: 'probe-semver', exact: true, lower: '>=1.10.0', upper: '<2.17.1' }]), ['1.10.0', '2.0.0', '2.17.0']);
    assert.deepEqual(await versionsOf([{ name: 'probe-semver', exact: true, lower: '>1.10.0', upper: '<=2.17.1' }]), ['2.0.0', '2.17.0', '2.17.1']);
    // By text, 2.17 and 10.0 would sort before 2.9.
    assert.deepEqual(await versionsOf([{ name: 'probe-semver', exact: true, lower: '>=2.9' }]), ['2.17.0', '2.17.1', '10.0.0']);
    assert.deepEqual(await versionsOf([{ name: 'probe-semver', exact: true, version: '2.0.0' }]), ['2.0.0']);
    assert.deepEqual(await versionsOf([{ name: 'PROBE-SEMVER', exact: true }]), [], 'an exact name is matched as written');
    assert.deepEqual(await versionsOf([{ name: 'PROBE-SEM' }]), versions);
    assert.deepEqual(bodies('/dependencies')[0]?.dependencyFilter, {
      packageFilters: [{ name: 'probe-semver', exactNameMatch: true, versionLowerBound: '>=1.10.0', versionUpperBound: '<2.17.1' }],
    });
  });

  void it('an archived repository is left out unless includeArchived', async (t) => {
    const repo = fx.platform.data.projects[2]?.repository_id ?? 0;
    inv().archived.add(repo);
    t.after(() => void inv().archived.delete(repo));
    assert.ok(!(await deps()).items.some((d) => d.repositoryId === String(repo)));
    assert.ok(!(await all(() => fx.client.dependencyRepositories(fx.deploymentId(), {}))).items.some((r) => r.id === String(repo)));
    fx.platform.requests.length = 0;
    assert.equal((await deps({ includeArchived: true })).items.length, inv().dependencies.length);
    assert.deepEqual(bodies('/dependencies')[0]?.dependencyFilter, { includeArchived: true });
  });
});

void describe('answers as the platform may send them', () => {
  const restore = (t: TestContext): void =>
    t.after(() => {
      fx.platform.setShape('service');
      fx.platform.setMaxPageSize(undefined);
      fx.platform.restoreProducts();
    });

  void it("the spec's snake_case with numbers reads as the service's camelCase with lines as strings", async (t) => {
    restore(t);
    const raw = async (): Promise<Record<string, unknown>> => {
      const res = await fetch(`${fx.platform.url}/api/v1/deployments/${fx.deploymentId()}/dependencies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.platform.token}` },
        body: '{"pageSize":1}',
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const read = async () => ({
      deps: (await deps({}, 70)).items,
      repos: (await all(() => fx.client.dependencyRepositories(fx.deploymentId(), {}, { pageSize: 2 }))).items,
      locks: (await all(() => fx.client.lockfiles(fx.deploymentId(), String(fx.platform.data.projects[0]?.repository_id), {}, { pageSize: 1 }))).items,
    });
    const service = await read();
    const serviceRaw = JSON.stringify(await raw());
    assert.match(serviceRaw, /"definedAt":\{"path":"[^"]+","startLine":"\d+","endLine":"\d+"/);
    assert.match(serviceRaw, /"transitivity":"(DIRECT|TRANSITIVE|UNKNOWN_TRANSITIVITY)"/);
    fx.platform.setShape('spec');
    const spec = await read();
    const specRaw = JSON.stringify(await raw());
    assert.match(specRaw, /"defined_at":\{"path":"[^"]+","start_line":\d+,"end_line":\d+/);
    assert.match(specRaw, /"has_more":true/);
    assert.deepEqual(spec, service);
    assert.ok(service.deps.every((d) => typeof d.definedAt?.line === 'number'));
  });

  void it('a page shorter than asked is not the end', async (t) => {
    restore(t);
    fx.platform.setMaxPageSize(7);
    const got = await deps({}, 100);
    assert.equal(got.items.length, inv().dependencies.length);
    assert.equal(got.pages, Math.ceil(inv().dependencies.length / 7));
    assert.ok(bodies('/dependencies').every((b) => b.pageSize === 100));
  });

  void it('a 429 and a 503 on a POST list are retried, and the list comes whole', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' } }, { method: 'POST', pathIncludes: '/dependencies' });
    fx.platform.faults.inject({ kind: 'status', status: 503 }, { method: 'POST', pathIncludes: '/dependencies' });
    const got = await deps({}, 100);
    assert.equal(got.items.length, inv().dependencies.length);
    assert.equal(fx.platform.requests.length, got.pages + 2);
    assert.equal(fx.platform.faults.applied >= 2, true);
  });

  for (const [product, status, reason] of [
    ['dependencies', 404, 'notFound'],
    ['dependencies', 403, 'forbidden'],
    ['dependencies', 400, 'badRequest'],
    ['sca', 404, 'notFound'],
  ] as const) {
    void it(`a deployment without ${product} (${status}) fails each list with a message that names the product, asked once`, async (t) => {
      restore(t);
      fx.platform.setProduct(product, status);
      const calls: (() => AsyncIterable<InventoryPage<unknown>>)[] = [
        () => fx.client.dependencyRepositories(fx.deploymentId(), {}),
        () => fx.client.lockfiles(fx.deploymentId(), '370001', {}),
        () => fx.client.dependencies(fx.deploymentId(), {}),
      ];
      for (const call of calls) {
        await assert.rejects(
          all(call),
          (e: unknown) => PlatformError.is(e, reason) && /Supply Chain/.test(e.message) && !/Web API access/.test(e.message) && e.status === status,
        );
      }
      assert.equal(fx.platform.requests.length, calls.length, 'a refusal is not retried');
    });
  }

  void it('unreadable entries are skipped and counted, the others kept', async () => {
    const good = { repositoryId: '370001', ecosystem: 'npm', package: { name: 'ms', versionSpecifier: '2.1.2' }, licenses: ['MIT'] };
    fx.platform.faults.inject(
      {
        kind: 'status',
        status: 200,
        body: JSON.stringify({ dependencies: [good, 3, { package: { name: 'x' } }, { repositoryId: '1' }, good], cursor: '1', hasMore: true }),
      },
      { pathIncludes: '/dependencies' },
    );
    fx.platform.faults.inject({ kind: 'status', status: 200, body: JSON.stringify({ dependencies: [null, good] }) }, { pathIncludes: '/dependencies' });
    const got = await deps();
    assert.deepEqual([got.items.length, got.skipped, got.pages], [3, 4, 2]);
  });
});
