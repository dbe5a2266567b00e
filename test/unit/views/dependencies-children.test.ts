// The inventory's levels of the Projects tree (a project's lockfiles, a lockfile's packages,
// paged) and how a package and a lockfile are shown: label, description, icon, tooltip.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Dependency, LockfileSummary } from '../../../src/core/model/dependency';
import type { Finding } from '../../../src/core/model/types';
import type { InventoryAnswer, LicenseOutcomes } from '../../../src/core/services/dependencies-service';
import { dependencyKey } from '../../../src/core/services/dependency-usage';
import type { DependencyViewFilter } from '../../../src/core/services/dependency-view-filter';
import { PackageFindings } from '../../../src/core/workspace/package-findings';
import {
  dependenciesNode,
  inventoryFailed,
  lockfileChildren,
  packageChildren,
  packageItems,
  packageNodes,
  packagePageChildren,
  type PackageContext,
} from '../../../src/views/dependencies-children';
import {
  lockfileDescription,
  packageAccessibilityLabel,
  packageContextValue,
  packageDescription,
  packageIcon,
  packageLabel,
  packageTooltip,
  worstSeverity,
} from '../../../src/views/dependency-presentation';
import { escapeMarkdown } from '../../../src/views/markdown';
import { PAGE_SIZE, type LockfileNode, type MessageNode, type Node, type PackageItem, type PageNode, type ProjectNode } from '../../../src/views/tree-nodes';
import { scaFinding } from '../services/finding-fixtures';

const project: ProjectNode = {
  kind: 'project',
  id: 'project/acme/acme%2Fweb',
  deploymentSlug: 'acme',
  project: { id: 7, name: 'acme/web', tags: [] },
  inWorkspace: true,
};
const dependencies = dependenciesNode(project);

function dependency(more: Partial<Dependency> = {}): Dependency {
  return {
    repositoryId: '7',
    ecosystem: 'npm',
    name: 'lodash',
    version: '4.17.20',
    transitivity: 'direct',
    licenses: ['MIT'],
    definedAt: { path: 'package-lock.json', line: 20 },
    ...more,
  };
}

const answer = <T>(items: readonly T[], skipped = 0): InventoryAnswer<T> => ({ items, skipped });
const unavailable = <T>(status: number, detail: string): InventoryAnswer<T> => ({ items: [], skipped: 0, unavailable: { status, detail } });

function lockfileNode(path = 'package-lock.json', count = 10): LockfileNode {
  const [node] = lockfileChildren(dependencies, answer<LockfileSummary>([{ path, dependencies: count }]));
  assert.ok(node?.kind === 'lockfile');
  return node;
}

function context(findings: readonly Finding[] = [], filter: DependencyViewFilter = {}, outcomes: LicenseOutcomes = new Map()): PackageContext {
  const index = new PackageFindings(findings);
  return { filter, outcomes, findingsOf: (d) => index.of(d) };
}

const texts = (nodes: readonly Node[]): string[] =>
  nodes.map((n) => {
    switch (n.kind) {
      case 'message':
        return `message(${n.tone}): ${n.text}`;
      case 'lockfile':
        return `lockfile: ${n.lockfile.path}`;
      case 'package':
        return `${n.item.dependency.name} ${n.item.dependency.version}`;
      case 'page':
        return `page ${n.start}–${n.end}`;
      default:
        return n.kind;
    }
  });

function onlyMessage(nodes: readonly Node[]): MessageNode {
  assert.equal(nodes.length, 1, texts(nodes).join('\n'));
  const [node] = nodes;
  assert.ok(node?.kind === 'message');
  return node;
}

/** The commands the extension contributes: a message's action must name one that exists. */
const contributed = new Set(
  (JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command),
);

void describe("a project's Dependencies node", () => {
  void test("stands for the project's repository in the inventory", () => {
    assert.equal(dependencies.repositoryId, '7');
    assert.equal(dependencies.parent, project);
    assert.ok(dependencies.id.startsWith(project.id));
  });
});

void describe('lockfileChildren', () => {
  void test('one node per lockfile, sorted by path, a path listed twice shown once', () => {
    const nodes = lockfileChildren(
      dependencies,
      answer<LockfileSummary>([
        { path: 'web/yarn.lock', dependencies: 3 },
        { path: 'api/poetry.lock', dependencies: 40 },
        { path: 'web/yarn.lock', dependencies: 3 },
        { path: 'Gemfile.lock', dependencies: 1 },
      ]),
    );
    assert.deepEqual(texts(nodes), ['lockfile: api/poetry.lock', 'lockfile: Gemfile.lock', 'lockfile: web/yarn.lock']);
    assert.equal(new Set(nodes.map((n) => n.id)).size, 3);
    assert.ok(nodes.every((n) => n.kind === 'lockfile' && n.parent === dependencies));
  });

  void test('no lockfile: a calm message naming the project and why', () => {
    const node = onlyMessage(lockfileChildren(dependencies, answer<LockfileSummary>([])));
    assert.equal(node.tone, 'info');
    assert.equal(node.text, 'No dependencies known for acme/web');
    assert.match(node.tooltip ?? '', /not been scanned with Supply Chain/);
  });

  void test('the deployment has no inventory: calm, with the status, what to check and no Retry', () => {
    const node = onlyMessage(lockfileChildren(dependencies, unavailable<LockfileSummary>(403, 'Forbidden: no Supply Chain license')));
    assert.equal(node.tone, 'info');
    assert.equal(node.text, 'Dependencies — the inventory is not available for this deployment (403)');
    assert.match(node.tooltip ?? '', /Supply Chain/);
    assert.ok(!(node.tooltip ?? '').includes('Forbidden: no Supply Chain license'), "the platform's raw answer is for the log (Show Logs), not the tooltip");
    assert.equal(node.action?.command, 'appsecFindings.showLogs');
    assert.ok(![node.action, ...node.actions].some((a) => a?.title === 'Retry'));
    assert.match(onlyMessage(lockfileChildren(dependencies, unavailable<LockfileSummary>(404, 'Not Found'))).text, /\(404\)$/);
  });
});

void describe('packageChildren', () => {
  const lockfile = lockfileNode();

  void test('direct dependencies first, then by name and version', () => {
    const nodes = packageChildren(
      lockfile,
      answer([
        dependency({ name: 'abc', transitivity: 'transitive' }),
        dependency({ name: 'zod', transitivity: 'direct' }),
        dependency({ name: 'aaa', transitivity: 'unknown' }),
        dependency({ name: 'lodash', version: '4.17.21' }),
        dependency({ name: 'lodash', version: '4.17.20' }),
      ]),
      context(),
    );
    assert.deepEqual(texts(nodes), ['lodash 4.17.20', 'lodash 4.17.21', 'zod 4.17.20', 'aaa 4.17.20', 'abc 4.17.20']);
    assert.ok(nodes.every((n) => n.kind === 'package' && n.parent === lockfile));
  });

  void test('a package carries its open findings and what the license policy does with it', () => {
    const vulnerable = dependency({ name: 'lodash' });
    const blocked = dependency({ name: 'gpl-thing', licenses: ['GPL-3.0'] });
    const finding = scaFinding({ package: 'lodash', version: '4.17.20' });
    const items = packageItems(
      [vulnerable, blocked],
      context([finding, scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'fixed' })], {}, new Map([[dependencyKey(blocked), 'block']])),
    );
    assert.deepEqual(items, [
      { dependency: blocked, findings: [], licensePolicy: 'block' },
      { dependency: vulnerable, findings: [finding] },
    ]);
  });

  void test('the filter narrows the list: vulnerable only keeps those with open findings', () => {
    const findings = [scaFinding({ package: 'lodash', version: '4.17.20' }), scaFinding({ package: 'react', version: '18.0.0' }, { status: 'ignored' })];
    const all = [
      dependency({ name: 'lodash' }),
      dependency({ name: 'react', version: '18.0.0', transitivity: 'transitive' }),
      dependency({ name: 'left-pad', ecosystem: 'npm', licenses: ['WTFPL'] }),
    ];
    assert.deepEqual(texts(packageChildren(lockfile, answer(all), context(findings, { vulnerableOnly: true }))), ['lodash 4.17.20']);
    assert.deepEqual(texts(packageChildren(lockfile, answer(all), context(findings, { licenses: ['WTFPL', 'ISC'] }))), ['left-pad 4.17.20']);
    assert.deepEqual(texts(packageChildren(lockfile, answer(all), context(findings, { transitivity: ['transitive'] }))), ['react 18.0.0']);
    assert.deepEqual(texts(packageChildren(lockfile, answer(all), context(findings, { ecosystems: ['pypi'] }))), [
      'message(info): No dependency here matches pypi',
    ]);
  });

  void test('everything filtered out: says which filter, and its own click clears it, with nothing nested under it', () => {
    const nodes = packageChildren(lockfile, answer([dependency()]), context([], { vulnerableOnly: true, licenses: ['MIT'] }));
    const node = onlyMessage(nodes);
    assert.equal(node.tone, 'info');
    assert.equal(node.text, 'No dependency here matches vulnerable · MIT');
    assert.deepEqual(node.actions, [], 'no child to open first');
    const clear = node.action;
    assert.equal(clear?.title, 'Clear Dependency Filter');
    assert.ok(clear, 'a Clear action');
    assert.equal(clear.command, 'appsecFindings.filterDependencies');
    assert.deepEqual(clear.args, [{}]);
    assert.ok(contributed.has(clear.command), `${clear.command} is a contributed command`);
  });

  void test('an empty lockfile with no filter says so, without offering to clear anything', () => {
    const node = onlyMessage(packageChildren(lockfile, answer<Dependency>([]), context()));
    assert.equal(node.tone, 'info');
    assert.equal(node.text, 'No dependencies listed for this lockfile');
    assert.deepEqual(node.actions, []);
  });

  void test('entries that could not be read are counted above the packages, with the log', () => {
    const one = packageChildren(lockfile, answer([dependency()], 1), context());
    assert.equal(texts(one).length, 2);
    assert.match(texts(one)[0] ?? '', /^message\(warning\): 1 dependency could not be read and (is|are) not shown$/);
    assert.equal(texts(one)[1], 'lodash 4.17.20');
    const many = packageChildren(lockfile, answer([dependency()], 12), context([], { vulnerableOnly: true }));
    assert.deepEqual(texts(many), [
      'message(warning): 12 dependencies could not be read and are not shown',
      'message(info): No dependency here matches vulnerable',
    ]);
    const head = many[0];
    assert.ok(head?.kind === 'message' && head.action?.command === 'appsecFindings.showLogs');
    assert.ok(contributed.has('appsecFindings.showLogs'));
  });

  void test('the same package on the same line listed twice is one node (VS Code refuses duplicate ids)', () => {
    const nodes = packageChildren(
      lockfile,
      answer([dependency(), dependency(), dependency({ definedAt: { path: 'package-lock.json', line: 90 } })]),
      context(),
    );
    assert.equal(nodes.length, 2);
    assert.equal(new Set(nodes.map((n) => n.id)).size, 2);
  });

  void test('the inventory unavailable for a lockfile: the same calm message', () => {
    const node = onlyMessage(packageChildren(lockfile, unavailable<Dependency>(404, 'Not Found'), context()));
    assert.equal(node.tone, 'info');
    assert.equal(node.text, 'Dependencies — the inventory is not available for this deployment (404)');
  });

  void test(`up to ${PAGE_SIZE} packages are listed as they are; more are split into pages of ${PAGE_SIZE}`, () => {
    const many = (n: number): Dependency[] =>
      Array.from({ length: n }, (_, i) => dependency({ name: `pkg-${String(i).padStart(5, '0')}`, transitivity: i % 2 === 0 ? 'transitive' : 'direct' }));
    assert.equal(packageChildren(lockfile, answer(many(PAGE_SIZE)), context()).filter((n) => n.kind === 'package').length, PAGE_SIZE);

    const total = 2 * PAGE_SIZE + 1;
    const nodes = packageChildren(lockfile, answer(many(total), 2), context());
    assert.deepEqual(texts(nodes), [
      'message(warning): 2 dependencies could not be read and are not shown',
      `page 0–${PAGE_SIZE}`,
      `page ${PAGE_SIZE}–${2 * PAGE_SIZE}`,
      `page ${2 * PAGE_SIZE}–${total}`,
    ]);
    const pages = nodes.filter((n): n is Extract<PageNode, { of: 'packages' }> => n.kind === 'page' && n.of === 'packages');
    assert.equal(pages.length, 3);
    assert.equal(new Set(pages.map((p) => p.id)).size, 3);
    assert.ok(pages.every((p) => p.parent === lockfile));

    // The pages keep the list's order (direct first), and each page's children are its packages.
    const children = pages.map((p) => packagePageChildren(p));
    assert.deepEqual(
      children.map((c) => c.length),
      [PAGE_SIZE, PAGE_SIZE, 1],
    );
    const shown = children.flat();
    assert.deepEqual(
      shown.map((n) => n.item),
      packageItems(many(total), context()),
    );
    assert.ok(children.every((c, i) => c.every((n) => n.parent === pages[i])));
    // A package keeps its id when paging moves it: the id is under the lockfile, not the page.
    const unpaged = packageNodes(lockfile, packageItems(many(total), context()));
    assert.deepEqual(
      shown.map((n) => n.id),
      unpaged.map((n) => n.id),
    );
    assert.ok(shown.every((n) => n.id.startsWith(`${lockfile.id}/`) && !n.id.includes('/page/')));
  });

  void test('a failed load: the reason, with Refresh and the log', () => {
    const node = onlyMessage(inventoryFailed(lockfile, 'HTTP 503'));
    assert.equal(node.tone, 'error');
    assert.equal(node.text, 'Could not load the dependencies: HTTP 503');
    assert.deepEqual(
      node.actions.map((a) => a.command),
      ['appsecFindings.refresh', 'appsecFindings.showLogs'],
    );
  });
});

void describe('how a package is shown', () => {
  const item = (more: Partial<PackageItem> = {}, dep: Partial<Dependency> = {}): PackageItem => ({ dependency: dependency(dep), findings: [], ...more });
  const twoFindings = [
    scaFinding({ package: 'lodash', version: '4.17.20', fixVersions: ['4.17.21'] }, { severity: 'medium' }),
    scaFinding({ package: 'lodash', version: '4.17.20', fixVersions: ['4.17.21', '5.0.0'] }, { severity: 'critical' }),
  ];

  void test('label: name and version', () => {
    assert.equal(packageLabel(item()), 'lodash 4.17.20');
  });

  void test('description: transitivity, licenses, how many findings, what the license policy does', () => {
    assert.equal(packageDescription(item({ findings: twoFindings, licensePolicy: 'block' })), 'direct · MIT · 2 vulnerabilities (critical) · license blocked');
    assert.equal(
      packageDescription(item({ licensePolicy: 'comment' }, { transitivity: 'transitive', licenses: ['MIT', 'Apache-2.0'] })),
      'transitive · MIT, Apache-2.0 · license flagged',
    );
    assert.equal(packageDescription(item({}, { transitivity: 'unknown', licenses: [] })), 'unknown · no license known');
    assert.equal(packageAccessibilityLabel(item({ findings: twoFindings.slice(0, 1) })), 'lodash 4.17.20, direct · MIT · 1 vulnerability (medium)');
  });

  void test('icon: a blocked license, then the worst finding, then a flagged license, then a plain package', () => {
    const law = (color: string) => ({ id: 'law', color });
    assert.deepEqual(packageIcon(item({ findings: twoFindings, licensePolicy: 'block' })), law('problemsErrorIcon.foreground'));
    assert.deepEqual(
      packageIcon(item({ findings: twoFindings, licensePolicy: 'comment' })),
      { id: 'error', color: 'problemsErrorIcon.foreground' },
      'critical beats medium',
    );
    assert.deepEqual(packageIcon(item({ findings: twoFindings.slice(0, 1), licensePolicy: 'comment' })), {
      id: 'warning',
      color: 'problemsWarningIcon.foreground',
    });
    assert.deepEqual(packageIcon(item({ licensePolicy: 'comment' })), law('problemsWarningIcon.foreground'));
    assert.deepEqual(packageIcon(item()), { id: 'package' });
    // The user's severity mapping decides the level, as in Problems.
    assert.deepEqual(packageIcon(item({ findings: twoFindings }), { critical: 'information', medium: 'information' }), {
      id: 'info',
      color: 'problemsInfoIcon.foreground',
    });
    // An unreachable high finding that Problems shows as information is no red package.
    const unreachable = [scaFinding({ package: 'axios', version: '0.21.1', reachability: 'unreachable' }, { severity: 'high' })];
    const info = { id: 'info', color: 'problemsInfoIcon.foreground' };
    assert.deepEqual(packageIcon(item({ findings: unreachable }), undefined, { unreachableLevel: 'information' }), info);
    assert.deepEqual(packageIcon(item({ findings: unreachable }))?.id, 'error', 'without the setting, as its severity');
    const alsoReachable = [...unreachable, scaFinding({ package: 'axios', version: '0.21.1', reachability: 'reachable' }, { severity: 'medium' })];
    assert.deepEqual(
      packageIcon(item({ findings: alsoReachable }), undefined, { unreachableLevel: 'information' }),
      { id: 'warning', color: 'problemsWarningIcon.foreground' },
      'the reachable medium is the worst Problems shows',
    );
  });

  void test('worst severity: by the one severity order', () => {
    assert.equal(
      worstSeverity([scaFinding({}, { severity: 'low' }), scaFinding({}, { severity: 'critical' }), scaFinding({}, { severity: 'high' })]),
      'critical',
    );
    assert.equal(worstSeverity([scaFinding({}, { severity: 'low' }), scaFinding({}, { severity: 'medium' })]), 'medium');
    assert.equal(worstSeverity([]), undefined);
  });

  void test('context value: "vulnerable" only with open findings (menus depend on it)', () => {
    assert.equal(packageContextValue(item()), 'package');
    assert.equal(packageContextValue(item({ findings: twoFindings })), 'package vulnerable');
  });

  void test('tooltip: the facts, the findings with their fixes, where it is declared', () => {
    const lines = packageTooltip(item({ findings: twoFindings, licensePolicy: 'block' })).split('  \n');
    assert.deepEqual(lines, [
      '**lodash** `4.17.20` (npm, direct)',
      'Licenses: MIT — the license policy blocks it',
      '2 open findings, worst critical; fixed in `4.17.21`, `5.0.0`',
      'Declared in `package-lock.json` line 20',
    ]);
    assert.deepEqual(packageTooltip(item({}, { licenses: [], definedAt: undefined })).split('  \n'), [
      '**lodash** `4.17.20` (npm, direct)',
      'Licenses: none known',
    ]);
  });

  void test('tooltip: a hostile package name or license stays inert text on its own line', () => {
    const hostile = '[x](command:evil)\n**boom**';
    const tooltip = packageTooltip(item({}, { name: hostile, licenses: ['<img src=x onerror=alert(1)>'], version: '1.0`](command:evil)' }));
    assert.ok(!tooltip.includes('[x](command:evil)'), tooltip);
    assert.ok(!/(^|[^\\])<img/.test(tooltip), `no unescaped HTML: ${tooltip}`);
    assert.ok(tooltip.includes(`Licenses: ${escapeMarkdown('<img src=x onerror=alert(1)>')}`));
    assert.ok(tooltip.startsWith(`**${escapeMarkdown(hostile)}**`), tooltip);
    assert.ok(tooltip.includes('\\[x\\]\\(command\\:evil\\)'));
    assert.equal(tooltip.split('\n').length, 3, "the name's line break does not start a line of its own");
    assert.ok(tooltip.includes('``1.0`](command:evil)``'), 'a backtick in the version cannot end its code span');
  });

  void test('a lockfile: its count of dependencies, and how many are shown when filtered', () => {
    const lockfile = (dependencies: number): LockfileSummary => ({ path: 'package-lock.json', dependencies });
    assert.equal(lockfileDescription(lockfile(1)), '1 dependency');
    assert.equal(lockfileDescription(lockfile(1234)), '1,234 dependencies');
    assert.equal(lockfileDescription(lockfile(1234), 1234), '1,234 dependencies');
    assert.equal(lockfileDescription(lockfile(1234), 12), '12 of 1,234 dependencies');
    assert.equal(lockfileDescription(lockfile(10), 0), '0 of 10 dependencies');
  });
});
