// "Where else is this package used?": the rows the command, its quick pick and the agent's tool
// show (in range first, one per repository, lockfile and version), and the typed query's checks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dependency } from '../../../src/core/model/dependency';
import {
  checkPackageQuery,
  contractRow,
  otherRepositories,
  parseVersionRange,
  splitTypedPackage,
  usageRows,
  type UsageRow,
} from '../../../src/core/services/dependency-usage';

function dependency(more: Partial<Dependency> = {}): Dependency {
  return {
    repositoryId: '1',
    ecosystem: 'maven',
    name: 'log4j-core',
    version: '2.14.1',
    transitivity: 'direct',
    licenses: ['Apache-2.0'],
    definedAt: { path: 'pom.xml', line: 12 },
    ...more,
  };
}

// Ids in the opposite order of the names: rows must sort by what the user reads.
const names = new Map([
  ['1', 'acme/zeta'],
  ['2', 'acme/alpha'],
]);
const row = (r: UsageRow): string => `${r.repository} ${r.lockfilePath} ${r.version} ${r.inRange ? 'in' : 'out'}`;

void describe('usageRows', () => {
  void test('in range first, then by repository name, lockfile and version', () => {
    const old = dependency({ repositoryId: '1', version: '2.14.1' });
    const fixed = dependency({ repositoryId: '2', version: '2.17.1' });
    const alphaOld = dependency({ repositoryId: '2', version: '2.14.0', definedAt: { path: 'services/pom.xml', line: 3 } });
    const alphaOlder = dependency({ repositoryId: '2', version: '2.13.0', definedAt: { path: 'services/pom.xml', line: 4 } });
    const alphaRoot = dependency({ repositoryId: '2', version: '2.14.0', definedAt: { path: 'build.gradle', line: 9 } });
    const usage = usageRows([fixed, old, alphaOld, alphaRoot, alphaOlder], [old, alphaOld, alphaRoot, alphaOlder], names, 0);
    assert.deepEqual(usage.rows.map(row), [
      'acme/alpha build.gradle 2.14.0 in',
      'acme/alpha services/pom.xml 2.13.0 in',
      'acme/alpha services/pom.xml 2.14.0 in',
      'acme/zeta pom.xml 2.14.1 in',
      'acme/alpha pom.xml 2.17.1 out',
    ]);
  });

  void test('one row per repository, lockfile and version: the same version on two lines, or in both answers, is one use', () => {
    const a = dependency({ definedAt: { path: 'pom.xml', line: 12 } });
    const sameOnAnotherLine = dependency({ definedAt: { path: 'pom.xml', line: 40 }, transitivity: 'transitive' });
    const otherLockfile = dependency({ definedAt: { path: 'api/pom.xml', line: 2 } });
    const otherRepository = dependency({ repositoryId: '2' });
    const usage = usageRows([a, sameOnAnotherLine, otherLockfile, otherRepository], [a, sameOnAnotherLine, otherLockfile, otherRepository], names, 0);
    assert.deepEqual(usage.rows.map(row), ['acme/alpha pom.xml 2.14.1 in', 'acme/zeta api/pom.xml 2.14.1 in', 'acme/zeta pom.xml 2.14.1 in']);
    // The first one read gives the row its line and transitivity.
    const zetaPom = usage.rows.find((r) => r.repositoryId === '1' && r.lockfilePath === 'pom.xml');
    assert.equal(zetaPom?.line, 12);
    assert.equal(zetaPom?.transitivity, 'direct');
  });

  void test('a repository the name map lacks is named by its id', () => {
    const usage = usageRows([dependency({ repositoryId: '99' })], undefined, names, 0);
    assert.equal(usage.rows[0]?.repository, 'repository 99');
    assert.equal(usage.rows[0]?.repositoryId, '99');
  });

  void test('a version only the bounded answer has (a later page of the whole one) is still listed, in range', () => {
    const onlyBounded = dependency({ repositoryId: '2', version: '2.0.0' });
    const usage = usageRows([dependency({ version: '2.17.1' })], [onlyBounded], names, 0);
    assert.deepEqual(usage.rows.map(row), ['acme/alpha pom.xml 2.0.0 in', 'acme/zeta pom.xml 2.17.1 out']);
  });

  void test('no bounded answer (no range asked): every use is in range', () => {
    const usage = usageRows([dependency({ version: '1.0.0' }), dependency({ repositoryId: '2', version: '3.0.0' })], undefined, names, 0);
    assert.equal(usage.rows.length, 2);
    assert.ok(usage.rows.every((r) => r.inRange));
  });

  void test('an empty bounded answer: nothing is in range', () => {
    const usage = usageRows([dependency()], [], names, 0);
    assert.deepEqual(
      usage.rows.map((r) => r.inRange),
      [false],
    );
  });

  void test('the row carries what opening the place needs, and the count of entries that could not be read', () => {
    const noPlace = dependency({
      repositoryId: '2',
      ecosystem: 'npm',
      name: 'lodash',
      version: '4.17.20',
      transitivity: 'something-new',
      definedAt: undefined,
    });
    const usage = usageRows([dependency({ transitivity: 'transitive' }), noPlace], undefined, names, 7);
    assert.equal(usage.skipped, 7);
    assert.deepEqual(usage.rows, [
      { repository: 'acme/alpha', lockfilePath: '', version: '4.17.20', transitivity: 'unknown', inRange: true, repositoryId: '2', ecosystem: 'npm' },
      {
        repository: 'acme/zeta',
        lockfilePath: 'pom.xml',
        version: '2.14.1',
        transitivity: 'transitive',
        inRange: true,
        repositoryId: '1',
        line: 12,
        ecosystem: 'maven',
      },
    ]);
    assert.ok(!('line' in (usage.rows[0] ?? {})), 'no line key when the place is not known');
  });
});

void describe('contractRow', () => {
  void test("only the automation contract's five fields, with the row's values", () => {
    const full: UsageRow = {
      repository: 'acme/api',
      lockfilePath: 'yarn.lock',
      version: '1.2.3',
      transitivity: 'transitive',
      inRange: false,
      repositoryId: '5',
      line: 9,
      ecosystem: 'npm',
    };
    assert.deepEqual(contractRow(full), { repository: 'acme/api', lockfilePath: 'yarn.lock', version: '1.2.3', transitivity: 'transitive', inRange: false });
    assert.deepEqual(Object.keys(contractRow(full)).sort(), ['inRange', 'lockfilePath', 'repository', 'transitivity', 'version']);
  });
});

void describe('otherRepositories', () => {
  void test('counts the other repositories once each, whatever their number of lockfiles and versions', () => {
    const usage = usageRows(
      [
        dependency({ repositoryId: '1' }),
        dependency({ repositoryId: '1', version: '2.0.0' }),
        dependency({ repositoryId: '2' }),
        dependency({ repositoryId: '2', definedAt: { path: 'b/pom.xml' } }),
        dependency({ repositoryId: '3' }),
      ],
      undefined,
      names,
      0,
    );
    assert.equal(otherRepositories(usage, '1'), 2);
    assert.equal(otherRepositories(usage, '2'), 2);
    assert.equal(otherRepositories(usage, '4'), 3);
    assert.equal(otherRepositories({ rows: [], skipped: 0 }, '1'), 0);
  });
});

void describe('checkPackageQuery', () => {
  void test('a range typed into the name is refused, never searched for (a false "used in 0 repositories")', () => {
    for (const name of ['express <4.19.2', 'express<4.19.2', 'lodash >=4 <5', 'a,b', 'left pad', 'pkg==1.0']) {
      assert.match(checkPackageQuery({ package: name }) ?? '', /is not a package name: a name has no spaces/, name);
    }
    for (const name of ['@scope/pkg', 'org.apache.logging.log4j:log4j-core', 'github.com/gin-gonic/gin', 'Django', 'serde_json', 'left-pad']) {
      assert.equal(checkPackageQuery({ package: name }), undefined, name);
    }
  });

  void test('a name is needed', () => {
    assert.equal(checkPackageQuery({ package: '' }), 'Give a package name.');
    assert.equal(checkPackageQuery({ package: '  \t' }), 'Give a package name.');
  });

  void test('an exact version or bounds, not both', () => {
    const both = 'Give either an exact version or bounds, not both.';
    assert.equal(checkPackageQuery({ package: 'lodash', version: '4.17.20', lower: '>=4.0.0' }), both);
    assert.equal(checkPackageQuery({ package: 'lodash', version: '4.17.20', upper: '<4.17.21' }), both);
  });

  void test('each bound must start with its own operator; the message names the bound given', () => {
    assert.equal(checkPackageQuery({ package: 'lodash', lower: '4.0.0' }), 'The lower bound "4.0.0" must start with >= or >, as in >=2.0.0.');
    assert.equal(checkPackageQuery({ package: 'lodash', lower: '<4.0.0' }), 'The lower bound "<4.0.0" must start with >= or >, as in >=2.0.0.');
    assert.equal(checkPackageQuery({ package: 'lodash', upper: '>=5' }), 'The upper bound ">=5" must start with <= or <, as in <2.17.1.');
    assert.equal(checkPackageQuery({ package: 'lodash', upper: '5.0.0' }), 'The upper bound "5.0.0" must start with <= or <, as in <2.17.1.');
    assert.equal(checkPackageQuery({ package: 'lodash', lower: '>=1 2' }), 'The lower bound ">=1 2" must start with >= or >, as in >=2.0.0.');
  });

  void test('good queries pass', () => {
    assert.equal(checkPackageQuery({ package: 'lodash' }), undefined);
    assert.equal(checkPackageQuery({ package: 'lodash', ecosystem: 'npm', version: '4.17.20' }), undefined);
    assert.equal(checkPackageQuery({ package: 'lodash', lower: '>=4.0.0', upper: '<4.17.21' }), undefined);
    assert.equal(checkPackageQuery({ package: 'lodash', lower: '> 4.0.0', upper: '<= 4.17.21' }), undefined);
  });

  // BUG: `>=` alone is read as the operator `>` and the version `=`, so a bound without a
  // version passes and goes to the platform.
  void test('a bound with no version after its operator is refused', () => {
    assert.notEqual(checkPackageQuery({ package: 'lodash', lower: '>=' }), undefined, 'lower ">=" has no version');
    assert.notEqual(checkPackageQuery({ package: 'lodash', upper: '<=' }), undefined, 'upper "<=" has no version');
  });
});

void describe('parseVersionRange', () => {
  void test('bounds, an exact version, or nothing', () => {
    assert.deepEqual(parseVersionRange('<2.17.1'), { upper: '<2.17.1' });
    assert.deepEqual(parseVersionRange('>=2.0.0 <2.17.1'), { lower: '>=2.0.0', upper: '<2.17.1' });
    assert.deepEqual(parseVersionRange('<2.17.1 >=2.0.0'), { lower: '>=2.0.0', upper: '<2.17.1' });
    assert.deepEqual(parseVersionRange('>2.0.0,<=3'), { lower: '>2.0.0', upper: '<=3' });
    assert.deepEqual(parseVersionRange('2.14.1'), { version: '2.14.1' });
    assert.deepEqual(parseVersionRange('==2.14.1'), { version: '2.14.1' });
    assert.deepEqual(parseVersionRange('=2.14.1'), { version: '2.14.1' });
    assert.deepEqual(parseVersionRange('  2.14.1-rc.1+build  '), { version: '2.14.1-rc.1+build' });
    assert.deepEqual(parseVersionRange(''), {});
    assert.deepEqual(parseVersionRange('   '), {});
  });

  void test('anything else is undefined, so the input box says how to write it', () => {
    assert.equal(parseVersionRange('^1.2.3'), undefined);
    assert.equal(parseVersionRange('~> 1.2'), undefined);
    assert.equal(parseVersionRange('1.2 || 2.0'), undefined);
    assert.equal(parseVersionRange('1.0.0 2.0.0'), undefined, 'two exact versions');
    assert.equal(parseVersionRange('>=1.0.0 2.0.0'), undefined, 'a bound and a version');
  });

  void test('two lower bounds, or two upper bounds, are refused rather than one dropped', () => {
    assert.equal(parseVersionRange('>=1.0.0 >=2.0.0'), undefined);
    assert.equal(parseVersionRange('>1 >=2 <3'), undefined);
    assert.equal(parseVersionRange('<3 <=4'), undefined);
  });

  // BUG: the range is split at every space before the operator is joined to its version, so
  // `>= 2.0.0` becomes `>=` and `2.0.0` and the whole range is refused (the command's input box
  // says "Write bounds such as >=2.0.0 <2.17.1").
  void test('a space between an operator and its version is allowed, as in ">= 2.0.0, <3"', () => {
    assert.deepEqual(parseVersionRange('>= 2.0.0, <3'), { lower: '>=2.0.0', upper: '<3' });
    assert.deepEqual(parseVersionRange('< 2.17.1'), { upper: '<2.17.1' });
    assert.deepEqual(parseVersionRange('== 2.14.1'), { version: '2.14.1' });
  });

  // BUG: same cause as checkPackageQuery's: `>=` alone is taken as a lower bound.
  void test('an operator with no version is no range', () => {
    assert.equal(parseVersionRange('>='), undefined);
    assert.equal(parseVersionRange('<'), undefined);
  });
});

void describe('splitTypedPackage (the name box of Where Else Is This Package Used?)', () => {
  void test('a name and a range typed together are split where the name must end', () => {
    assert.deepEqual(splitTypedPackage('express <4.19.2'), { name: 'express', range: '<4.19.2' });
    assert.deepEqual(splitTypedPackage('  lodash>=4.0.0 <4.17.21 '), { name: 'lodash', range: '>=4.0.0 <4.17.21' });
    assert.deepEqual(splitTypedPackage('@scope/pkg 1.2.3'), { name: '@scope/pkg', range: '1.2.3' });
    assert.deepEqual(splitTypedPackage('org.apache.logging.log4j:log4j-core'), { name: 'org.apache.logging.log4j:log4j-core', range: '' });
    assert.deepEqual(parseVersionRange(splitTypedPackage('express <4.19.2').range), { upper: '<4.19.2' });
  });
});
