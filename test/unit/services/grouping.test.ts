// How findings are grouped under a project in the tree, and counted for descriptions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compareFindings, countBySeverity, groupFindings } from '../../../src/core/services/grouping';
import { sastFinding, scaFinding } from './finding-fixtures';

const summary = (groups: ReturnType<typeof groupFindings>): [string, number][] => groups.map((g) => [g.label, g.findings.length]);

void describe('groupFindings by severity', () => {
  void test('groups read from most to least severe, whatever order the findings came in', () => {
    const findings = ['low', 'medium', 'critical', 'low', 'high', 'medium'].map((severity) => sastFinding({ severity }));
    assert.deepEqual(summary(groupFindings(findings, 'severity')), [
      ['critical', 1],
      ['high', 1],
      ['medium', 2],
      ['low', 2],
    ]);
  });

  void test('severities the platform added later come after the known ones, sorted by name, and are never dropped', () => {
    const findings = ['info', 'low', 'zeta', 'critical', 'experimental'].map((severity) => sastFinding({ severity }));
    assert.deepEqual(summary(groupFindings(findings, 'severity')), [
      ['critical', 1],
      ['low', 1],
      ['experimental', 1],
      ['info', 1],
      ['zeta', 1],
    ]);
  });

  void test('an empty severity is shown as "unknown"', () => {
    const groups = groupFindings([sastFinding({ severity: '' }), sastFinding({ severity: 'high' })], 'severity');
    assert.deepEqual(summary(groups), [
      ['high', 1],
      ['unknown', 1],
    ]);
  });

  void test('no findings, no groups', () => {
    assert.deepEqual(groupFindings([], 'severity'), []);
    assert.deepEqual(groupFindings([], 'rule'), []);
  });

  void test('every finding lands in exactly one group', () => {
    const findings = Array.from({ length: 50 }, (_, i) =>
      sastFinding({ severity: ['critical', 'high', 'odd', 'low'][i % 4], file: `f${i % 7}.py`, ruleName: `r${i % 5}` }),
    );
    for (const by of ['severity', 'rule', 'file'] as const) {
      const ids = groupFindings(findings, by)
        .flatMap((g) => g.findings.map((f) => f.id))
        .sort((a, b) => a - b);
      assert.deepEqual(
        ids,
        findings.map((f) => f.id).sort((a, b) => a - b),
        by,
      );
    }
  });
});

void describe('groupFindings by rule and by file', () => {
  void test('by rule: the rule with the most findings first, ties by name', () => {
    const findings = [
      sastFinding({ ruleName: 'b.rule' }),
      sastFinding({ ruleName: 'c.rule' }),
      sastFinding({ ruleName: 'c.rule' }),
      sastFinding({ ruleName: 'a.rule' }),
      sastFinding({ ruleName: 'd.rule' }),
      sastFinding({ ruleName: 'd.rule' }),
      sastFinding({ ruleName: 'd.rule' }),
    ];
    assert.deepEqual(summary(groupFindings(findings, 'rule')), [
      ['d.rule', 3],
      ['c.rule', 2],
      ['a.rule', 1],
      ['b.rule', 1],
    ]);
  });

  void test('by rule: the most severe rule first, whatever its count; then the count', () => {
    const findings = [
      sastFinding({ ruleName: 'many.low', severity: 'low' }),
      sastFinding({ ruleName: 'many.low', severity: 'low' }),
      sastFinding({ ruleName: 'many.low', severity: 'low' }),
      sastFinding({ ruleName: 'one.critical', severity: 'critical' }),
      sastFinding({ ruleName: 'mixed', severity: 'medium' }),
      sastFinding({ ruleName: 'mixed', severity: 'high' }),
      sastFinding({ ruleName: 'one.high', severity: 'high' }),
    ];
    assert.deepEqual(summary(groupFindings(findings, 'rule')), [
      ['one.critical', 1],
      ['mixed', 2],
      ['one.high', 1],
      ['many.low', 3],
    ]);
  });

  void test('by file: the location path, a supply-chain lockfile link, or "(no location)"', () => {
    const lock = 'https://github.com/acme/api/blob/abc/package-lock.json#L12';
    const findings = [
      sastFinding({ file: 'src/a.ts' }),
      sastFinding({ file: 'src/a.ts' }),
      sastFinding({ file: 'src/b.ts' }),
      scaFinding({ lockfileLineUrl: lock }),
      sastFinding(),
    ];
    // The supply-chain finding is the most severe, so its lockfile leads; then by count and name.
    assert.deepEqual(summary(groupFindings(findings, 'file')), [
      [lock, 1],
      ['src/a.ts', 2],
      ['(no location)', 1],
      ['src/b.ts', 1],
    ]);
  });

  void test('within a group: most severe first, then by file and line, so a file reads top-down', () => {
    const findings = [
      sastFinding({ ruleName: 'r', severity: 'low', file: 'a.ts', line: 1 }),
      sastFinding({ ruleName: 'r', severity: 'high', file: 'b.ts', line: 30 }),
      sastFinding({ ruleName: 'r', severity: 'high', file: 'b.ts', line: 4 }),
      sastFinding({ ruleName: 'r', severity: 'high', file: 'a.ts', line: 99 }),
      sastFinding({ ruleName: 'r', severity: 'critical', file: 'z.ts', line: 1 }),
    ];
    const [group] = groupFindings(findings, 'rule');
    assert.ok(group);
    assert.deepEqual(
      group.findings.map((f) => `${f.severity} ${f.location?.filePath ?? ''}:${f.location?.line ?? ''}`),
      ['critical z.ts:1', 'high a.ts:99', 'high b.ts:4', 'high b.ts:30', 'low a.ts:1'],
    );
  });

  void test('findings at the same place keep a stable order by id', () => {
    const a = sastFinding({ id: 20, file: 'x.ts', line: 3 });
    const b = sastFinding({ id: 10, file: 'x.ts', line: 3 });
    assert.ok(compareFindings(b, a) < 0);
    assert.ok(compareFindings(a, b) > 0);
    assert.equal(compareFindings(a, a), 0);
  });
});

void describe('countBySeverity', () => {
  void test('counts every known severity (zero included) in severity order, then the unknown ones', () => {
    const counts = countBySeverity([
      sastFinding({ severity: 'low' }),
      sastFinding({ severity: 'high' }),
      sastFinding({ severity: 'low' }),
      sastFinding({ severity: 'info' }),
    ]);
    assert.deepEqual(
      [...counts],
      [
        ['critical', 0],
        ['high', 1],
        ['medium', 0],
        ['low', 2],
        ['info', 1],
      ],
    );
  });

  void test('accepts any iterable, e.g. a generator', () => {
    function* gen(): Generator<ReturnType<typeof sastFinding>> {
      yield sastFinding({ severity: 'critical' });
      yield sastFinding({ severity: 'critical' });
    }
    assert.equal(countBySeverity(gen()).get('critical'), 2);
  });
});
