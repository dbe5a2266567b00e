// What the editor says on a dependency's line: the inlay hint, the hover's Markdown (server text
// inert) and the license policy's diagnostic, from the inventory and the repository's findings.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dependency } from '../../../src/core/model/dependency';
import {
  dependencyHint,
  dependencyHoverMarkdown,
  LICENSE_DIAGNOSTIC_SEVERITY,
  licenseDiagnosticMessage,
  licenseDiagnosticSeverity,
  type DependencyFacts,
} from '../../../src/core/workspace/dependency-facts';
import { findingsOfDependency } from '../../../src/core/workspace/package-findings';
import { escapeMarkdown } from '../../../src/views/markdown';
import { scaFinding } from '../services/finding-fixtures';

function dependency(more: Partial<Dependency> = {}): Dependency {
  return {
    repositoryId: '7',
    ecosystem: 'npm',
    name: 'lodash',
    version: '4.17.20',
    transitivity: 'direct',
    licenses: ['MIT'],
    definedAt: { path: 'package-lock.json', line: 20 },
    manifest: { path: 'package.json' },
    ...more,
  };
}

const facts = (more: Partial<DependencyFacts> = {}): DependencyFacts => ({ dependency: dependency(), findings: [], ...more });

const vulnerable = [
  scaFinding({ package: 'lodash', version: '4.17.20', fixVersions: ['4.17.21'] }, { severity: 'high' }),
  scaFinding({ package: 'lodash', version: '4.17.20', fixVersions: ['4.17.21', '5.0.0'] }, { severity: 'critical', status: 'reviewing' }),
];

void describe('the findings of a dependency', () => {
  void test('open supply-chain findings of the same package and version; open includes reviewing and fixing', () => {
    const others = [
      scaFinding({ package: 'lodash', version: '4.17.21' }),
      scaFinding({ package: 'lodash-es', version: '4.17.20' }),
      scaFinding({ package: 'Lodash', version: '4.17.20' }),
      scaFinding({ package: 'lodash', version: '4.17.20', ecosystem: 'pypi' }),
      scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'ignored' }),
      scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'fixed' }),
      scaFinding({ package: 'lodash', version: '4.17.20' }, { status: 'provisionally_ignored' }),
      scaFinding({ version: '4.17.20' }),
      { ...scaFinding({ package: 'lodash', version: '4.17.20' }), issueType: 'sast' as const },
    ];
    const fixing = scaFinding({ package: 'lodash', version: '4.17.20', ecosystem: 'NPM' }, { status: 'fixing' });
    assert.deepEqual(findingsOfDependency(dependency(), new Set([...others, ...vulnerable, fixing])), [...vulnerable, fixing]);
  });

  void test('PyPI names compare the PEP 503 way', () => {
    const django = dependency({ ecosystem: 'pypi', name: 'Zope_Interface', version: '6.2' });
    const finding = scaFinding({ package: 'zope.interface', version: '6.2', ecosystem: 'pypi' });
    assert.deepEqual(findingsOfDependency(django, [finding, scaFinding({ package: 'zope.interfaces', version: '6.2' })]), [finding]);
    assert.deepEqual(
      findingsOfDependency(dependency({ ecosystem: 'npm', name: 'Zope_Interface', version: '6.2' }), [
        scaFinding({ package: 'zope.interface', version: '6.2' }),
      ]),
      [],
      'npm names are exact',
    );
  });
});

void describe('the inlay hint', () => {
  void test('a manifest line upgraded to a fixing version says so until the lockfile changes, instead of its vulnerabilities', () => {
    assert.equal(
      dependencyHint(facts({ findings: vulnerable }), '4.17.21'),
      'upgraded here; lockfile still has 4.17.20',
      "the locked version's license is no longer the line's",
    );
    assert.ok(dependencyHint(facts({ findings: vulnerable }), '4.17.21').length <= 43, "whole within VS Code's hint length");
    assert.equal(dependencyHint(facts({ findings: vulnerable }), '4.17.20'), '2 vulnerabilities (critical) · MIT', 'the pinned version: as before');
    assert.equal(
      dependencyHint(facts({ findings: vulnerable }), '4.17.0'),
      '2 vulnerabilities (critical) · MIT',
      "a range below the lockfile's version is no upgrade",
    );
  });

  void test('vulnerabilities with the worst severity, then the licenses and what the policy does', () => {
    assert.equal(dependencyHint(facts({ findings: vulnerable })), '2 vulnerabilities (critical) · MIT');
    assert.equal(dependencyHint(facts({ findings: vulnerable.slice(0, 1) })), '1 vulnerability (high) · MIT');
    assert.equal(dependencyHint(facts({ dependency: dependency({ licenses: ['MIT OR Apache-2.0'] }) })), 'MIT OR Apache-2.0');
    assert.equal(dependencyHint(facts({ dependency: dependency({ licenses: ['GPL-3.0'] }), licensePolicy: 'block' })), 'GPL-3.0 (blocked by policy)');
    assert.equal(
      dependencyHint(facts({ dependency: dependency({ licenses: ['LGPL-2.1', 'MPL-2.0'] }), licensePolicy: 'comment' })),
      'LGPL-2.1, MPL-2.0 (flagged by policy)',
    );
    assert.equal(dependencyHint(facts({ dependency: dependency({ licenses: [] }), licensePolicy: 'block' })), 'license blocked by policy');
  });

  void test('short: two licenses at most, each cut, one line; malicious first; nothing to say, no hint', () => {
    const many = dependency({ licenses: ['MIT', `Some Very Long Custom\nLicense Name That Goes On And On`, 'ISC', 'BSD-3-Clause'] });
    assert.equal(dependencyHint(facts({ dependency: many })), 'MIT, Some Very Long Custom License N… +2');
    const malicious = scaFinding({ package: 'lodash', version: '4.17.20', isMalicious: true }, { severity: 'critical' });
    assert.equal(dependencyHint(facts({ findings: [malicious], dependency: dependency({ licenses: [] }) })), 'malicious · 1 vulnerability (critical)');
    assert.equal(dependencyHint(facts({ dependency: dependency({ licenses: [' '] }) })), '');
    assert.equal(dependencyHint(facts({ findings: [scaFinding({}, { severity: '' })], dependency: dependency({ licenses: [] }) })), '1 vulnerability');
  });
});

void describe('the hover', () => {
  void test('package, version, transitivity, licenses and policy, findings with the fix versions, other repositories', () => {
    const markdown = dependencyHoverMarkdown(facts({ findings: vulnerable, licensePolicy: 'block', otherRepositories: 3 }), escapeMarkdown);
    assert.equal(
      markdown,
      [
        '**lodash** · 4\\.17\\.20 · direct · npm',
        'License: MIT — **blocked** by the license policy',
        '2 open vulnerabilities, worst critical · fixed in 4\\.17\\.21, 5\\.0\\.0',
        'Used by 3 other repositories',
      ].join('  \n'),
    );
  });

  void test('no findings, several licenses, unknown transitivity, other repositories not known yet, none and one', () => {
    const plain = dependency({ transitivity: 'unknown', licenses: ['MIT', 'ISC'] });
    assert.equal(
      dependencyHoverMarkdown({ dependency: plain, findings: [] }, escapeMarkdown),
      ['**lodash** · 4\\.17\\.20 · npm', 'Licenses: MIT, ISC', 'No open vulnerabilities', 'Used by other repositories: …'].join('  \n'),
    );
    const lines = (more: Partial<DependencyFacts>): string[] => dependencyHoverMarkdown(facts(more), escapeMarkdown).split('  \n');
    assert.equal(lines({ otherRepositories: 0 })[3], 'Used by no other repository');
    assert.equal(lines({ otherRepositories: 1 })[3], 'Used by 1 other repository');
    assert.equal(lines({ dependency: dependency({ licenses: [] }), licensePolicy: 'comment' })[1], 'License: unknown — flagged by the license policy');
    assert.equal(
      lines({ findings: [scaFinding({ package: 'lodash', version: '4.17.20' })] })[2],
      '1 open vulnerability, worst critical · no fixed version yet',
    );
    const malicious = lines({ findings: [scaFinding({ package: 'lodash', version: '4.17.20', isMalicious: true })] });
    assert.equal(malicious[2], '**Malicious package**');
    assert.equal(lines({ dependency: dependency({ transitivity: 'transitive' }) })[0], '**lodash** · 4\\.17\\.20 · transitive · npm');
  });

  void test('a hostile package name, version, license, transitivity and fix version stay inert text, on their own lines', () => {
    const attack = '[x](command:workbench.action.openSettings)\n<img src=x onerror=alert(1)> *b* `c`';
    const hostile = dependency({ name: attack, version: attack, licenses: [attack], transitivity: attack, ecosystem: attack });
    const finding = scaFinding({ package: attack, version: attack, fixVersions: [attack] }, { severity: attack });
    const markdown = dependencyHoverMarkdown(facts({ dependency: hostile, findings: [finding] }), escapeMarkdown);
    const lines = markdown.split('  \n');
    assert.equal(lines.length, 4, 'no line break from the server');
    // Markdown that acts: a link, an image, raw HTML, emphasis or code not preceded by a backslash.
    const ours = markdown.replace(/\*\*(Malicious package)?/g, '');
    assert.doesNotMatch(ours, /(^|[^\\])[[<*`]/);
    assert.ok(!markdown.includes('](command:'));
  });
});

void describe('the license diagnostic', () => {
  void test('an error where the policy blocks, a warning where it comments, nothing otherwise', () => {
    assert.deepEqual(LICENSE_DIAGNOSTIC_SEVERITY, { block: 'error', comment: 'warning' });
    const gpl = dependency({ name: 'left-pad', version: '1.3.0', licenses: ['GPL-3.0'] });
    assert.equal(licenseDiagnosticSeverity({ dependency: gpl, findings: [], licensePolicy: 'block' }), 'error');
    assert.equal(licenseDiagnosticSeverity({ dependency: gpl, findings: [], licensePolicy: 'comment' }), 'warning');
    assert.equal(licenseDiagnosticSeverity({ dependency: gpl, findings: [] }), undefined);
    assert.equal(
      licenseDiagnosticMessage({ dependency: gpl, findings: [], licensePolicy: 'block' }),
      "left-pad 1.3.0: license GPL-3.0 is blocked by the organization's license policy.",
    );
    assert.equal(
      licenseDiagnosticMessage({ dependency: dependency({ licenses: ['GPL-2.0', 'AGPL-3.0'] }), findings: [], licensePolicy: 'comment' }),
      "lodash 4.17.20: licenses GPL-2.0, AGPL-3.0 are flagged by the organization's license policy.",
    );
    assert.equal(
      licenseDiagnosticMessage({ dependency: dependency({ licenses: [], version: '', name: 'a\nb' }), findings: [], licensePolicy: 'block' }),
      "a b: its license is blocked by the organization's license policy.",
    );
    assert.equal(licenseDiagnosticMessage({ dependency: gpl, findings: [] }), undefined);
  });
});
