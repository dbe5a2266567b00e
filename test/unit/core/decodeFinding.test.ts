import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeFinding, decodeFindingsPageInSlices } from '../../../src/core/model/decodeFinding';
import { lineFromUrl } from '../../../src/core/model/links';
import { decodePage } from './helpers/decodePage';
import { decodeLocation } from '../../../src/core/model/decodeLocation';
import { StringInterner } from '../../../src/core/model/interner';
import { plain } from './helpers/plain';

const sast = {
  id: 101,
  rule_name: 'python.lang.security.eval',
  rule_message: 'Avoid eval',
  severity: 'high',
  confidence: 'medium',
  status: 'open',
  ref: 'main',
  repository: { name: 'acme/api', url: 'https://git.example/acme/api' },
  location: { file_path: 'src/app.py', line: 10, column: 5, end_line: 12, end_column: 3 },
  line_of_code_url: 'https://git.example/acme/api/blob/abc/src/app.py#L10',
  relevant_since: '2020-11-18 23:28:12.391807+00:00',
  triage_reason: 'no_time',
  sourcing_policy: { id: 7, name: 'Default', slug: 'default' },
};

const sca = {
  id: 202,
  rule_name: 'ssc-lodash',
  rule: { message: 'Prototype pollution in lodash', confidence: 'high' },
  severity: 'critical',
  status: 'fixing',
  location: { filePath: 'package-lock.json', line: 3 },
  vulnerability_identifier: 'CVE-2021-23337',
  is_malicious: false,
  reachability: 'reachable',
  fix_recommendations: [{ package: 'lodash', version: '4.17.21' }, { package: 'lodash' }, 'junk'],
  found_dependency: {
    ecosystem: 'npm',
    package: 'lodash',
    version: '4.17.20',
    transitivity: 'direct',
    lockfile_line_url: 'https://git.example/acme/api/blob/abc/package-lock.json#L88',
  },
  usage: { location: { path: 'src/index.js', start_line: 4, start_col: 2, end_line: 4, end_col: 9, url: 'https://x/y#L4' } },
};

void describe('decodeFinding', () => {
  void it('decodes a code finding with snake_case location and the space timestamp', () => {
    const f = decodeFinding(sast, 'sast', new StringInterner());
    assert.deepEqual(plain(f), {
      issueType: 'sast',
      id: 101,
      ruleName: 'python.lang.security.eval',
      message: 'Avoid eval',
      severity: 'high',
      confidence: 'medium',
      status: 'open',
      ref: 'main',
      repositoryName: 'acme/api',
      location: { filePath: 'src/app.py', line: 10, column: 5, endLine: 12, endColumn: 3 },
      lineOfCodeUrl: 'https://git.example/acme/api/blob/abc/src/app.py#L10',
      relevantSince: Date.parse('2020-11-18T23:28:12.391Z'),
      triageReason: 'no_time',
      policy: { id: 7, name: 'Default', slug: 'default' },
    });
  });

  void it('decodes a supply-chain finding: camelCase location, usage shape, lockfile line, fixes', () => {
    const f = decodeFinding(sca, 'sca', new StringInterner());
    assert.ok(f);
    assert.equal(f.message, 'Prototype pollution in lodash');
    assert.equal(f.confidence, 'high');
    assert.deepEqual(plain(f.location), { filePath: 'package-lock.json', line: 3 });
    assert.equal(f.policy, undefined);
    assert.deepEqual(plain(f.sca), {
      advisory: 'CVE-2021-23337',
      package: 'lodash',
      version: '4.17.20',
      ecosystem: 'npm',
      transitivity: 'direct',
      reachability: 'reachable',
      isMalicious: false,
      fixVersions: ['4.17.21'],
      lockfileLineUrl: 'https://git.example/acme/api/blob/abc/package-lock.json#L88',
      lockfileLine: 88,
      usage: { filePath: 'src/index.js', line: 4, column: 2, endLine: 4, endColumn: 9 },
    });
  });

  void it('keeps unknown enumeration values as they came', () => {
    const f = decodeFinding(
      { ...sast, severity: 'catastrophic', status: 'snoozed', confidence: 'meh', triage_reason: 'new_reason' },
      'sast',
      new StringInterner(),
    );
    assert.equal(f?.severity, 'catastrophic');
    assert.equal(f?.status, 'snoozed');
    assert.equal(f?.confidence, 'meh');
    assert.equal(f?.triageReason, 'new_reason');
  });

  void it('fills defaults for a minimal finding and leaves optional fields out', () => {
    const f = decodeFinding({ id: '5', rule_name: 'r' }, 'sca', new StringInterner());
    assert.deepEqual(plain(f), { issueType: 'sca', id: 5, ruleName: 'r', message: '', severity: 'unknown', status: 'unknown', sca: { isMalicious: false } });
  });

  void it('returns undefined for malformed findings', () => {
    const interner = new StringInterner();
    for (const bad of [
      null,
      'x',
      [],
      { rule_name: 'r' },
      { id: 1 },
      { id: 1.5, rule_name: 'r' },
      { id: 2 ** 53 + 2, rule_name: 'r' },
      { id: 1, rule_name: '' },
    ]) {
      assert.equal(decodeFinding(bad, 'sast', interner), undefined, JSON.stringify(bad));
    }
  });

  void it('drops an incomplete sourcing policy', () => {
    const f = decodeFinding({ ...sast, sourcing_policy: { id: 7, name: 'Default' } }, 'sast', new StringInterner());
    assert.equal(f?.policy, undefined);
  });

  void it('ignores fix recommendations that are not a list', () => {
    const f = decodeFinding({ ...sca, fix_recommendations: 'x', found_dependency: null }, 'sca', new StringInterner());
    assert.equal(f?.sca?.fixVersions, undefined);
    assert.equal(f?.sca?.lockfileLine, undefined);
  });
});

void describe('decodeLocation', () => {
  const interner = new StringInterner();
  const decode = (raw: unknown): unknown => plain(decodeLocation(raw, interner));

  void it('reads the spec spelling', () => {
    assert.deepEqual(decode({ filePath: 'a.ts', line: 1, column: 1, endLine: 1, endColumn: 4 }), {
      filePath: 'a.ts',
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 4,
    });
  });

  void it('drops a location with a bad line or an end before the start', () => {
    for (const bad of [
      { filePath: 'a', line: 0 },
      { filePath: 'a', line: -1 },
      { filePath: 'a', line: 1.5 },
      { filePath: 'a', line: '3' },
      { filePath: 'a' },
      { line: 3 },
      { filePath: 'a', line: 5, endLine: 4 },
      { filePath: 'a', line: 5, endLine: 0 },
      { filePath: 'a', line: 5, column: 8, endLine: 5, endColumn: 2 },
      { filePath: 'a', line: 5, column: 8, endColumn: 2 },
      'a.ts:3',
      null,
    ]) {
      assert.equal(decodeLocation(bad, interner), undefined, JSON.stringify(bad));
    }
  });

  void it('keeps the line but drops a bad column', () => {
    assert.deepEqual(decode({ file_path: 'a', line: 2, column: 0, end_column: -1 }), { filePath: 'a', line: 2 });
  });

  void it('accepts an end column before the start column on a later line', () => {
    assert.deepEqual(decode({ filePath: 'a', line: 2, column: 9, endLine: 3, endColumn: 1 }), { filePath: 'a', line: 2, column: 9, endLine: 3, endColumn: 1 });
  });
});

void describe('lineFromUrl', () => {
  void it('reads #L<n> and #L<n>-L<m>', () => {
    assert.equal(lineFromUrl('https://x/y#L12'), 12);
    assert.equal(lineFromUrl('https://x/y#L12-L14'), 12);
    assert.equal(lineFromUrl('https://x/y#L0'), undefined);
    assert.equal(lineFromUrl('https://x/y'), undefined);
    assert.equal(lineFromUrl(undefined), undefined);
  });
});

void describe('decodeFindingsPageInSlices', () => {
  void it('decodes the member of the issue type, skipping and counting malformed findings', async () => {
    const body = { sastFindings: { findings: [sast, { id: 'no' }, 17, { ...sast, id: 102 }] } };
    const page = await decodePage(body, 'sast');
    assert.deepEqual(
      page.findings.map((f) => f.id),
      [101, 102],
    );
    assert.equal(page.skipped, 2);
    assert.equal(page.rawCount, 4);
  });

  void it('reads the other member when only that one is filled', async () => {
    const page = await decodePage({ sastFindings: { findings: [sca] } }, 'sca');
    assert.equal(page.findings[0]?.issueType, 'sca');
    assert.equal(page.findings[0]?.sca?.package, 'lodash');
  });

  void it('treats a member without findings as an empty page', async () => {
    const page = await decodePage({ scaFindings: {} }, 'sca');
    assert.deepEqual(page, { findings: [], skipped: 0, rawCount: 0 });
  });

  void it('refuses a malformed envelope with invalidResponse', async () => {
    for (const bad of [
      null,
      [],
      'x',
      {},
      { sastFindings: null },
      { sastFindings: [] },
      { sastFindings: { findings: {} } },
      { sastFindings: { findings: 'x' } },
    ]) {
      await assert.rejects(decodePage(bad, 'sast'), (e) => PlatformError.is(e, 'invalidResponse'), JSON.stringify(bad));
    }
  });

  void it('decoded in slices, lets go of each slice of raw items once it is decoded', async () => {
    const items: unknown[] = Array.from({ length: 5 }, (_, i) => ({ ...sast, id: i + 1 }));
    const seen: number[] = [];
    // Raw items still held at each pause: a young-generation collection there copies them all.
    const page = await decodeFindingsPageInSlices(
      { findings: items },
      'sast',
      new StringInterner(),
      () => {
        seen.push(items.filter((item) => item !== undefined).length);
        return Promise.resolve();
      },
      2,
    );
    assert.deepEqual(seen, [3, 1]);
    assert.deepEqual(items, [undefined, undefined, undefined, undefined, undefined]);
    assert.deepEqual(
      page.findings.map((f) => f.id),
      [1, 2, 3, 4, 5],
    );
    assert.equal(page.rawCount, 5);
  });

  void it('interns repeated strings across findings and pages', async () => {
    const interner = new StringInterner();
    // A fresh page each time: decoding lets go of the raw items it read.
    const many = (): unknown[] => Array.from({ length: 50 }, (_, i) => ({ ...sast, id: i + 1 }));
    assert.equal((await decodePage({ sastFindings: { findings: many() } }, 'sast', interner)).findings.length, 50);
    const sizeAfterFirst = interner.size;
    assert.equal((await decodePage({ sastFindings: { findings: many() } }, 'sast', interner)).findings.length, 50);
    // rule name, message, severity, confidence, status, ref, repo, path, triage reason, policy name and slug
    assert.equal(sizeAfterFirst, 11);
    assert.equal(interner.size, sizeAfterFirst);
  });

  void it('shares one frozen policy object and fix-version list between findings', async () => {
    const interner = new StringInterner();
    const [a, b] = (await decodePage({ sastFindings: { findings: [sast, { ...sast, id: 2 }] } }, 'sast', interner)).findings;
    assert.ok(a?.policy && a.policy === b?.policy);
    assert.ok(Object.isFrozen(a.policy));
    const [c, d] = (await decodePage({ scaFindings: { findings: [sca, { ...sca, id: 3 }] } }, 'sca', interner)).findings;
    assert.ok(c?.sca?.fixVersions && c.sca.fixVersions === d?.sca?.fixVersions);
  });

  void it('keeps one string when the lockfile link equals the code link', () => {
    const url = 'https://git.example/a/blob/abc/package-lock.json#L9';
    const f = decodeFinding({ ...sca, line_of_code_url: url, found_dependency: { lockfile_line_url: url } }, 'sca', new StringInterner());
    assert.equal(f?.sca?.lockfileLineUrl, url);
    assert.equal(f?.sca?.lockfileLine, 9);
  });
});
