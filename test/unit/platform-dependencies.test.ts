// The local platform's supply-chain inventory: it agrees with the supply-chain findings it
// serves, has licenses a policy allows, comments on and blocks, and lockfiles of subprojects;
// the demo's inventory agrees with the demo workspace's files line for line; and the server reads
// both spellings of a request, refuses what the service would, and leaves the inventory out on
// the CLI's `--without dependencies`. Global fetch is the client: nothing here depends on src/core.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { demoDeployment, generateDeployment, startPlatformServer, type PlatformData, type RunningPlatform } from '../platform';
import { buildInventory, inventoryOf, lockfilePlace, type StoredDependency } from '../platform/dependencies';
import { demoFiles } from '../platform/demo-files';

const keyOf = (repositoryId: number, path: string, line: number, name: string, version: string): string => `${repositoryId}|${path}|${line}|${name}@${version}`;
const storedKey = (d: StoredDependency): string => keyOf(d.repositoryId, d.lockfile, d.line, d.name, d.version);

/** Every supply-chain finding whose dependency is not in its repository's inventory where its lockfile link points. */
function disagreements(data: PlatformData): string[] {
  const held = new Set(inventoryOf(data).dependencies.map(storedKey));
  const rid = new Map(data.projects.map((p) => [p.name, p.repository_id]));
  return data.sca.flatMap((f) => {
    const place = lockfilePlace(f.found_dependency?.lockfile_line_url);
    const key = keyOf(
      rid.get(f.repository?.name ?? '') ?? -1,
      place?.path ?? '',
      place?.line ?? -1,
      f.found_dependency?.package ?? '',
      f.found_dependency?.version ?? '',
    );
    return held.has(key) ? [] : [`finding ${f.id}: ${key}`];
  });
}

void describe('generated inventories', () => {
  const data = generateDeployment({ seed: 3, projects: 12, sastPerProject: 20, scaPerProject: 60, refsPerProject: 3 });
  const inventory = inventoryOf(data);

  void test("hold every supply-chain finding's package and version at the lockfile line its link names, on every branch", () => {
    assert.ok(data.sca.length >= 700);
    assert.deepEqual(disagreements(data), []);
    assert.deepEqual(disagreements(demoDeployment()), []);
  });

  void test("hold more than the findings name: clean packages, in subprojects' lockfiles too, shared by several repositories", () => {
    for (const p of data.projects) {
      const named = new Set(data.sca.filter((f) => f.repository?.name === p.name).map((f) => f.found_dependency?.package));
      const held = inventory.dependencies.filter((d) => d.repositoryId === p.repository_id);
      assert.ok(held.filter((d) => !named.has(d.name)).length >= 5, `${p.name}: clean packages`);
      const lockfiles = new Set(held.map((d) => d.lockfile));
      assert.ok(lockfiles.size >= 3, `${p.name}: ${[...lockfiles].join(', ')}`);
    }
    const repositoriesOf = new Map<string, Set<number>>();
    for (const d of inventory.dependencies) repositoriesOf.set(d.name, (repositoriesOf.get(d.name) ?? new Set()).add(d.repositoryId));
    assert.ok([...repositoriesOf.values()].filter((r) => r.size >= 2).length >= 20);
    const versionsOf = (name: string): Set<string> => new Set(inventory.dependencies.filter((d) => d.name === name).map((d) => d.version));
    assert.ok([...repositoriesOf.keys()].filter((n) => versionsOf(n).size >= 2).length >= 5, 'the same package in several versions, for version bounds');
  });

  void test('have licenses the policy allows, comments on and blocks, and every transitivity', () => {
    const licenses = new Set(inventory.dependencies.flatMap((d) => d.licenses));
    for (const l of ['MIT', 'Apache-2.0', 'BSD-3-Clause', 'ISC', 'GPL-3.0', 'AGPL-3.0', 'LGPL-2.1']) assert.ok(licenses.has(l), l);
    assert.ok(inventory.licensePolicy.block.includes('GPL-3.0') && inventory.licensePolicy.block.includes('AGPL-3.0'));
    assert.ok(
      inventory.licensePolicy.comment.includes('LGPL-2.1') &&
        !inventory.licensePolicy.block.includes('MIT') &&
        !inventory.licensePolicy.comment.includes('MIT'),
    );
    assert.deepEqual(new Set(inventory.dependencies.map((d) => d.transitivity)), new Set(['direct', 'transitive', 'unknown']));
    assert.ok(inventory.dependencies.every((d) => d.line >= 1 && d.endLine >= d.line && d.resolvedUrl.startsWith('https://')));
  });

  void test("are the same from the same data, with one entry per line and ids ascending in the list's order", () => {
    assert.deepEqual(buildInventory(generateDeployment({ seed: 3, projects: 12, sastPerProject: 20, scaPerProject: 60, refsPerProject: 3 })), inventory);
    assert.equal(new Set(inventory.dependencies.map(storedKey)).size, inventory.dependencies.length);
    assert.ok(inventory.dependencies.every((d, i, all) => i === 0 || d.id > (all[i - 1]?.id ?? 0)));
  });
});

void describe("the demo's inventory", () => {
  const data = demoDeployment();
  const files = demoFiles();
  const demo = data.projects.find((p) => p.name === 'acme/demo-app');
  const mine = inventoryOf(data).dependencies.filter((d) => d.repositoryId === demo?.repository_id);
  const lineOf = (path: string, line: number): string => (files[path] ?? '').split('\n')[line - 1] ?? '';

  void test("comes from the workspace's package.json, package-lock.json and requirements.txt, line for line", () => {
    assert.deepEqual(
      new Set(mine.map((d) => `${d.ecosystem} ${d.lockfile} ${d.manifest}`)),
      new Set(['npm package-lock.json package.json', 'pypi requirements.txt requirements.txt']),
    );
    for (const d of mine) {
      const entry = (files[d.lockfile] ?? '')
        .split('\n')
        .slice(d.line - 1, d.endLine)
        .join('\n');
      if (d.ecosystem === 'npm') {
        assert.match(lineOf(d.lockfile, d.line), new RegExp(`"node_modules/${d.name}": \\{`), `${d.name} at ${d.lockfile}:${d.line}`);
        assert.match(entry, new RegExp(`"version": "${d.version.replace(/\./g, '\\.')}"[\\s\\S]*\\},?$`));
      } else {
        assert.equal(lineOf(d.lockfile, d.line), `${d.name}==${d.version}`);
      }
      if (d.transitivity === 'direct') {
        assert.ok(d.manifestLine !== undefined, `${d.name} is declared in its manifest`);
        assert.match(lineOf(d.manifest, d.manifestLine), d.ecosystem === 'npm' ? new RegExp(`^\\s*"${d.name}": "${d.version}"`) : new RegExp(`^${d.name}==`));
      } else {
        assert.equal(d.manifestLine, undefined);
        assert.ok(!(files['package.json'] ?? '').includes(`"${d.name}":`), `${d.name} is not declared, so not direct`);
      }
    }
  });

  void test('its supply-chain findings point at the lines of the same packages', () => {
    const findings = data.sca.filter((f) => f.repository?.name === 'acme/demo-app');
    assert.ok(findings.length >= 5);
    for (const f of findings) {
      const place = lockfilePlace(f.found_dependency?.lockfile_line_url);
      const d = mine.find((x) => x.lockfile === place?.path && x.line === place.line);
      assert.ok(d, `finding ${f.id} at ${place?.path}:${place?.line}`);
      assert.deepEqual([d.name, d.version, d.transitivity], [f.found_dependency?.package, f.found_dependency?.version, f.found_dependency?.transitivity]);
    }
  });

  void test('has a blocked and a commented license, and packages the other demo projects use too', () => {
    const { block, comment } = inventoryOf(data).licensePolicy;
    assert.ok(
      mine.some((d) => d.licenses.some((l) => block.includes(l))),
      'a blocked license',
    );
    assert.ok(
      mine.some((d) => d.licenses.some((l) => comment.includes(l))),
      'a commented license',
    );
    const elsewhere = mine.filter((d) => inventoryOf(data).dependencies.some((o) => o.repositoryId !== d.repositoryId && o.name === d.name));
    assert.ok(new Set(elsewhere.map((d) => d.ecosystem)).size === 2 && elsewhere.length >= 6, elsewhere.map((d) => d.name).join(', '));
  });
});

void describe("the inventory's requests", () => {
  let platform: RunningPlatform;
  before(async () => {
    platform = await startPlatformServer({ data: generateDeployment({ projects: 3, scaPerProject: 10 }) });
  });
  after(() => platform.close());
  const post = (path: string, body: unknown): Promise<Response> =>
    fetch(`${platform.url}/api/v1/deployments/${platform.data.deployment.id}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.token}` },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  void test('read the snake_case spelling of the body as the camelCase one', async () => {
    const camel = await (
      await post('/dependencies', { pageSize: 5, dependencyFilter: { transitivity: ['DIRECT'], packageFilters: [{ name: 'e', versionLowerBound: '>=1' }] } })
    ).text();
    const snake = await (
      await post('/dependencies', {
        page_size: 5,
        dependency_filter: { transitivity: ['DIRECT'], package_filters: [{ name: 'e', version_lower_bound: '>=1' }] },
      })
    ).text();
    assert.equal(snake, camel);
    assert.equal((JSON.parse(camel) as { dependencies: unknown[] }).dependencies.length, 5);
  });

  void test('refuse what the service would refuse with 400, and anything but POST', async () => {
    for (const body of [
      'nope',
      [],
      { pageSize: 0 },
      { pageSize: 10_001 },
      { cursor: 'x' },
      { dependencyFilter: { transitivity: ['INDIRECT'] } },
      { dependencyFilter: { ecosystem: ['NPM'] } },
      { dependencyFilter: { packageFilters: [{}] } },
    ]) {
      assert.equal((await post('/dependencies', body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await post('/dependencies/repositories/1/lockfiles', { cursor: '!!' })).status, 400);
    const get = await fetch(`${platform.url}/api/v1/deployments/${platform.data.deployment.id}/dependencies`, {
      headers: { authorization: `Bearer ${platform.token}` },
    });
    assert.equal(get.status, 405);
    assert.equal(
      (
        await fetch(`${platform.url}/api/v1/deployments/acme/dependencies`, {
          method: 'POST',
          headers: { authorization: `Bearer ${platform.token}` },
          body: '{}',
        })
      ).status,
      404,
      'the path takes the id, not the slug',
    );
  });

  void test('`npm run platform -- --without dependencies:403` leaves the inventory out and nothing else', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/platform/cli.ts', '--json', '--projects', '2', '--without', 'dependencies:403'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`the platform exited with ${code}`)));
      });
      const { url, token, deploymentId, deploymentSlug } = JSON.parse(first) as { url: string; token: string; deploymentId: number; deploymentSlug: string };
      const headers = { authorization: `Bearer ${token}` };
      const refused = await fetch(`${url}/api/v1/deployments/${deploymentId}/dependencies`, { method: 'POST', headers, body: '{}' });
      assert.equal(refused.status, 403);
      assert.match(await refused.text(), /does not include dependencies/);
      assert.equal((await fetch(`${url}/api/v1/deployments/${deploymentSlug}/findings?issue_type=sca`, { headers })).status, 200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
