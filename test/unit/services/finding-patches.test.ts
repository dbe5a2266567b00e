// The pure parts of the store's patches: which filters a patched finding still meets, and when
// two decodings of one finding say the same (so the store keeps one object).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyChange, matchesFilters, sameFinding } from '../../../src/core/services/finding-patches';
import type { Finding } from '../../../src/core/model/types';
import { sastFinding, scaFinding } from './finding-fixtures';

void describe('matchesFilters (for patched findings only)', () => {
  const code = sastFinding({ id: 1, status: 'open', severity: 'high', confidence: 'medium' });
  const dep = scaFinding({ reachability: 'reachable', transitivity: 'direct', isMalicious: false }, { id: 2, status: 'open', severity: 'low' });

  test('no filters: everything matches', () => {
    assert.ok(matchesFilters(code, {}) && matchesFilters(dep, {}));
  });

  test('status and severities', () => {
    assert.ok(matchesFilters(code, { status: 'open', severities: ['high', 'critical'] }));
    assert.ok(!matchesFilters(code, { status: 'ignored' }));
    assert.ok(!matchesFilters(code, { severities: ['low'] }));
    assert.ok(matchesFilters(code, { severities: [] }), 'an empty list is no filter');
  });

  test('triage reasons narrow only ignored findings', () => {
    const ignored = applyChange(code, { status: 'ignored', triageReason: 'false_positive' });
    assert.ok(matchesFilters(ignored, { triageReasons: ['false_positive'] }));
    assert.ok(!matchesFilters(ignored, { triageReasons: ['no_time'] }));
    assert.ok(!matchesFilters(applyChange(code, { status: 'ignored', triageReason: undefined }), { triageReasons: ['no_time'] }));
    assert.ok(matchesFilters(code, { triageReasons: ['no_time'] }), 'an open finding is not narrowed');
    assert.ok(matchesFilters(ignored, { triageReasons: [] }));
  });

  test('confidence applies to code findings only', () => {
    assert.ok(matchesFilters(code, { confidence: 'medium' }));
    assert.ok(!matchesFilters(code, { confidence: 'high' }));
    assert.ok(matchesFilters(dep, { confidence: 'high' }), 'a supply-chain finding ignores a code-only filter');
  });

  test('reachability, dependency kind and malicious apply to supply-chain findings only', () => {
    assert.ok(matchesFilters(dep, { exposures: ['reachable'], transitivities: ['direct'], isMalicious: false }));
    assert.ok(!matchesFilters(dep, { exposures: ['unreachable'] }));
    assert.ok(!matchesFilters(dep, { transitivities: ['transitive'] }));
    assert.ok(!matchesFilters(dep, { isMalicious: true }));
    assert.ok(matchesFilters(dep, { exposures: [], transitivities: [] }));
    assert.ok(!matchesFilters(scaFinding({}, { id: 3 }), { exposures: ['reachable'] }), 'unknown reachability does not match a chosen one');
    assert.ok(!matchesFilters(scaFinding({}, { id: 4 }), { transitivities: ['direct'] }));
    assert.ok(matchesFilters(scaFinding({ isMalicious: true }, { id: 5 }), { isMalicious: true }));
    assert.ok(matchesFilters(code, { exposures: ['unreachable'], transitivities: ['transitive'], isMalicious: true }), 'a code finding ignores them');
  });

  test('applyChange makes a new object and leaves the original as it was', () => {
    const after = applyChange(code, { status: 'reviewing' });
    assert.notEqual(after, code);
    assert.deepEqual([after.status, code.status, after.id], ['reviewing', 'open', 1]);
  });
});

void describe('sameFinding', () => {
  const base = scaFinding(
    {
      advisory: 'CVE-1',
      package: 'p',
      version: '1',
      ecosystem: 'npm',
      transitivity: 'direct',
      reachability: 'reachable',
      isMalicious: false,
      fixVersions: ['2'],
      lockfileLineUrl: 'https://g/x#L3',
      lockfileLine: 3,
      usage: { filePath: 'a.js', line: 1, column: 2, endLine: 1, endColumn: 5 },
    },
    {
      id: 9,
      ruleName: 'r',
      message: 'm',
      severity: 'high',
      confidence: 'low',
      status: 'open',
      ref: 'main',
      repositoryName: 'acme/api',
      lineOfCodeUrl: 'https://g/x#L3',
      triageReason: undefined,
      relevantSince: 1000,
      location: { filePath: 'lock', line: 3 },
      policy: { id: 1, name: 'P', slug: 'p' },
    },
  );
  const copy = (): Finding => JSON.parse(JSON.stringify(base)) as Finding;

  test('an equal decoding (other objects, same facts) is the same finding', () => {
    assert.ok(sameFinding(base, copy()));
    assert.ok(sameFinding(base, base));
  });

  const changes: [string, (f: Finding) => Finding][] = [
    ['id', (f) => ({ ...f, id: 10 })],
    ['issue type', (f) => ({ ...f, issueType: 'sast' })],
    ['rule', (f) => ({ ...f, ruleName: 'r2' })],
    ['message', (f) => ({ ...f, message: 'm2' })],
    ['severity', (f) => ({ ...f, severity: 'low' })],
    ['confidence', (f) => ({ ...f, confidence: 'high' })],
    ['status', (f) => ({ ...f, status: 'fixed' })],
    ['ref', (f) => ({ ...f, ref: 'dev' })],
    ['repository', (f) => ({ ...f, repositoryName: 'acme/web' })],
    ['code link', (f) => ({ ...f, lineOfCodeUrl: 'https://g/y#L3' })],
    ['triage reason', (f) => ({ ...f, triageReason: 'no_time' })],
    ['relevant since', (f) => ({ ...f, relevantSince: 2000 })],
    ['location', (f) => ({ ...f, location: { filePath: 'lock', line: 4 } })],
    ['location gone', (f) => ({ ...f, location: undefined })],
    ['location column', (f) => ({ ...f, location: { filePath: 'lock', line: 3, column: 1 } })],
    ['location end', (f) => ({ ...f, location: { filePath: 'lock', line: 3, endLine: 5 } })],
    ['location end column', (f) => ({ ...f, location: { filePath: 'lock', line: 3, endColumn: 5 } })],
    ['location file', (f) => ({ ...f, location: { filePath: 'lock2', line: 3 } })],
    ['policy', (f) => ({ ...f, policy: { id: 2, name: 'P', slug: 'p' } })],
    ['policy name', (f) => ({ ...f, policy: { id: 1, name: 'Q', slug: 'p' } })],
    ['policy slug', (f) => ({ ...f, policy: { id: 1, name: 'P', slug: 'q' } })],
    ['policy gone', (f) => ({ ...f, policy: undefined })],
    ...(['advisory', 'package', 'version', 'ecosystem', 'transitivity', 'reachability', 'lockfileLineUrl'] as const).map(
      (key): [string, (f: Finding) => Finding] => [`sca ${key}`, (f) => ({ ...f, sca: { ...f.sca, [key]: 'other' } })],
    ),
    ['sca malicious', (f) => ({ ...f, sca: { ...f.sca, isMalicious: true } })],
    ['sca lockfile line', (f) => ({ ...f, sca: { ...f.sca, lockfileLine: 4 } })],
    ['sca fix versions', (f) => ({ ...f, sca: { ...f.sca, fixVersions: ['3'] } })],
    ['sca fix versions gone', (f) => ({ ...f, sca: { ...f.sca, fixVersions: undefined } })],
    ['sca usage', (f) => ({ ...f, sca: { ...f.sca, usage: { filePath: 'a.js', line: 2 } } })],
    ['sca gone', (f) => ({ ...f, sca: undefined })],
  ];
  for (const [what, change] of changes) {
    test(`a different ${what} is another finding (the newer replaces the older everywhere)`, () => {
      assert.ok(!sameFinding(base, change(copy())), what);
      assert.ok(!sameFinding(change(copy()), base), `${what}, the other way round`);
    });
  }
});

void describe('sameFinding, field by field', () => {
  // A finding with every field of every kind set: a change to any leaf must read as another
  // finding, or a changed fact (a secret's validation, an AI impact) would stay on screen.
  const full: Finding = {
    issueType: 'sast',
    id: 9,
    ruleName: 'r',
    message: 'm',
    severity: 'high',
    confidence: 'low',
    status: 'open',
    ref: 'main',
    repositoryName: 'acme/api',
    location: { filePath: 'a.js', line: 3, column: 1, endLine: 4, endColumn: 2 },
    lineOfCodeUrl: 'https://g/x#L3',
    relevantSince: 1000,
    triageReason: 'no_time',
    matchKey: 77,
    triageComment: 'note',
    ticket: { slug: 'JIRA-1', url: 'https://jira/JIRA-1' },
    policy: { id: 1, name: 'P', slug: 'p' },
    sca: {
      advisory: 'CVE-1',
      package: 'p',
      version: '1',
      ecosystem: 'npm',
      transitivity: 'direct',
      reachability: 'reachable',
      isMalicious: false,
      fixVersions: ['2'],
      lockfileLineUrl: 'https://g/x#L3',
      lockfileLine: 3,
      usage: { filePath: 'a.js', line: 1, column: 2, endLine: 1, endColumn: 5 },
    },
    ai: { impact: 'data exposure' },
    secret: { service: 'AWS', validation: 'confirmed_valid' },
  };
  /** Every leaf's path, and the finding with that leaf changed. */
  function* changedLeaves(value: unknown, path: string[] = []): Generator<[string, unknown]> {
    if (Array.isArray(value)) {
      yield [path.join('.'), [...(value as unknown[]), 'more']];
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        for (const [where, changed] of changedLeaves(child, [...path, key])) yield [where, { ...value, [key]: changed }];
      }
      return;
    }
    yield [path.join('.'), typeof value === 'number' ? value + 1 : typeof value === 'boolean' ? !value : `${String(value)}-other`];
  }
  const leaves = [...changedLeaves(full)];

  test('the full finding names every field of Finding', () => {
    const keys = new Set(leaves.map(([where]) => where.split('.')[0]));
    for (const key of [
      'issueType',
      'id',
      'ruleName',
      'message',
      'severity',
      'confidence',
      'status',
      'ref',
      'repositoryName',
      'location',
      'lineOfCodeUrl',
      'relevantSince',
      'triageReason',
      'matchKey',
      'triageComment',
      'ticket',
      'policy',
      'sca',
      'ai',
      'secret',
    ] satisfies (keyof Finding)[]) {
      assert.ok(keys.has(key), key);
    }
  });

  for (const [where, changed] of leaves) {
    test(`${where}: a change is another finding`, () => {
      assert.ok(!sameFinding(full, changed as Finding), where);
    });
  }
});
