// A dependency's open supply-chain findings, joined by package and version the way each
// ecosystem compares names, and the index built once per list of findings.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dependency } from '../../../src/core/model/dependency';
import type { Finding } from '../../../src/core/model/types';
import { findingsOfDependency, isOpenFinding, PackageFindings, packageFindingsOf, packageName } from '../../../src/core/workspace/package-findings';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

function dependency(more: Partial<Dependency> = {}): Dependency {
  return { repositoryId: '1', ecosystem: 'npm', name: 'lodash', version: '4.17.20', transitivity: 'direct', licenses: ['MIT'], ...more };
}

void describe('open findings', () => {
  void test('open, reviewing and fixing are still to act on; fixed and ignored ones are not', () => {
    for (const status of ['open', 'reviewing', 'fixing']) assert.ok(isOpenFinding(scaFinding({}, { status })), status);
    for (const status of ['fixed', 'ignored', 'provisionally_ignored', 'something_new']) assert.ok(!isOpenFinding(scaFinding({}, { status })), status);
  });

  void test('a dependency counts only its open findings', () => {
    const open = scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'open' });
    const reviewing = scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'reviewing' });
    const fixing = scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'fixing' });
    const closed = ['fixed', 'ignored', 'provisionally_ignored'].map((status) => scaFinding({ package: 'lodash', version: '4.17.20' }, { status }));
    const index = new PackageFindings([...closed, open, reviewing, fixing]);
    assert.deepEqual(index.of(dependency()), [open, reviewing, fixing]);
  });
});

void describe('matching a finding to a dependency', () => {
  void test("the version must be the dependency's own", () => {
    const findings = [
      scaFinding({ package: 'lodash', version: '4.17.21' }),
      scaFinding({ package: 'lodash', version: '4.17.2' }),
      scaFinding({ package: 'lodash' }),
    ];
    assert.deepEqual(new PackageFindings(findings).of(dependency()), []);
    const exact = scaFinding({ package: 'lodash', version: '4.17.20' });
    assert.deepEqual(new PackageFindings([...findings, exact]).of(dependency()), [exact]);
  });

  void test('findings without a package (code findings, say) never match', () => {
    const code = sastFinding({ file: 'src/app.js', line: 3 });
    const noPackage = scaFinding({ version: '4.17.20' });
    assert.deepEqual(new PackageFindings([code, noPackage]).of(dependency()), []);
  });

  void test('PyPI names ignore case and treat runs of -, _ and . alike', () => {
    const pyyaml = scaFinding({ package: 'PyYAML', version: '6.0.1', ecosystem: 'pypi' });
    const zope = scaFinding({ package: 'zope.interface', version: '6.2', ecosystem: 'PyPI' });
    const index = new PackageFindings([pyyaml, zope]);
    assert.deepEqual(index.of(dependency({ ecosystem: 'pypi', name: 'pyyaml', version: '6.0.1' })), [pyyaml]);
    assert.deepEqual(index.of(dependency({ ecosystem: 'pypi', name: 'zope-interface', version: '6.2' })), [zope]);
    assert.deepEqual(index.of(dependency({ ecosystem: 'pypi', name: 'Zope__Interface', version: '6.2' })), [zope]);
    assert.deepEqual(index.of(dependency({ ecosystem: 'pypi', name: 'zopeinterface', version: '6.2' })), []);
    assert.deepEqual(index.of(dependency({ ecosystem: 'pypi', name: 'pyyaml', version: '6.0.2' })), []);
    assert.equal(packageName('pypi', 'Zope._-Interface'), 'zope-interface');
  });

  void test('npm names are compared exactly: case and punctuation matter', () => {
    const upper = scaFinding({ package: 'Lodash', version: '4.17.20', ecosystem: 'npm' });
    const dotted = scaFinding({ package: 'lodash.merge', version: '4.17.20', ecosystem: 'npm' });
    const index = new PackageFindings([upper, dotted]);
    assert.deepEqual(index.of(dependency({ name: 'lodash' })), []);
    assert.deepEqual(index.of(dependency({ name: 'lodash-merge' })), []);
    assert.deepEqual(index.of(dependency({ name: 'lodash.merge' })), [dotted]);
    assert.deepEqual(index.of(dependency({ name: 'Lodash' })), [upper]);
    assert.equal(packageName('npm', 'Lodash.Merge'), 'Lodash.Merge');
    assert.equal(packageName(undefined, 'PyYAML'), 'PyYAML');
  });

  void test('findingsOfDependency answers the same for one dependency', () => {
    const finding = scaFinding({ package: 'lodash', version: '4.17.20' });
    assert.deepEqual(findingsOfDependency(dependency(), new Set([finding, scaFinding({ package: 'lodash', version: '1.0.0' })])), [finding]);
    assert.deepEqual(findingsOfDependency(dependency({ name: 'react' }), [finding]), []);
  });
});

void describe('packageFindingsOf', () => {
  void test('one index per list of findings: the same list gives the same index, another list its own', () => {
    const finding = scaFinding({ package: 'lodash', version: '4.17.20' });
    const list: readonly Finding[] = [finding];
    const first = packageFindingsOf(list);
    assert.equal(packageFindingsOf(list), first);
    assert.deepEqual(first.of(dependency()), [finding]);

    const newer: readonly Finding[] = [finding, scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'fixing' })];
    const second = packageFindingsOf(newer);
    assert.notEqual(second, first);
    assert.equal(second.of(dependency()).length, 2, 'a new answer is indexed afresh, not served from the old one');
  });
});
