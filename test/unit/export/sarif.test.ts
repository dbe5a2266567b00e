// Findings leave the editor as SARIF 2.1.0: checked field by field, and by Microsoft's own
// validator (the SARIF multitool, run from its npm package), which must report no error.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { levelOf, relativeUri, toSarifLog, type SarifExportInput } from '../../../src/core/export/sarif';
import type { Finding } from '../../../src/core/model/types';

const code = (over: Partial<Finding> = {}): Finding => ({
  issueType: 'sast',
  id: 1,
  ruleName: 'python.lang.security.eval-detected',
  message: 'Use of eval',
  severity: 'high',
  status: 'open',
  location: { filePath: 'src/app.py', line: 12, column: 5, endLine: 12, endColumn: 20 },
  matchKey: 42,
  ...over,
});
const dependency = (over: Partial<Finding> = {}): Finding => ({
  issueType: 'sca',
  id: 2,
  ruleName: 'ssc-123',
  message: 'lodash prototype pollution',
  severity: 'critical',
  status: 'open',
  location: { filePath: 'package-lock.json', line: 30 },
  sca: { advisory: 'CVE-2021-23337', package: 'lodash', version: '4.17.20', ecosystem: 'npm', reachability: 'reachable', fixVersions: ['4.17.21'] },
  ...over,
});
const input = (findings: Finding[], extra: Partial<SarifExportInput> = {}): SarifExportInput => ({
  findings,
  findingUrl: (f) => `https://semgrep.dev/orgs/acme/findings/${f.id}`,
  toolVersion: '0.1.0',
  projectName: 'acme/shop',
  ref: 'main',
  ...extra,
});
interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  hostedViewerUri?: string;
  locations?: { physicalLocation: unknown }[];
  partialFingerprints: Record<string, string>;
  properties: Record<string, unknown>;
}
interface Run {
  tool: { driver: { rules: { id: string; defaultConfiguration: { level: string }; helpUri?: string }[] } };
  results: Result[];
}
const runOf = (findings: Finding[], extra?: Partial<SarifExportInput>): Run => toSarifLog(input(findings, extra)).runs[0] as unknown as Run;

void describe('SARIF export', () => {
  void test('severities map to levels: critical and high are errors, medium a warning, low a note', () => {
    assert.deepEqual(
      ['critical', 'high', 'medium', 'low', 'experimental'].map((severity) => levelOf({ severity })),
      ['error', 'error', 'warning', 'note', 'warning'],
    );
    assert.deepEqual(
      runOf([code({ severity: 'low' })]).results.map((r) => r.level),
      ['note'],
    );
  });

  void test('levels follow the severity mapping of Problems: a low finding shown as an error is an error here', () => {
    const run = runOf([code({ severity: 'low' }), code({ id: 3, severity: 'critical' })], { severityMapping: { low: 'error', critical: 'hint' } });
    assert.deepEqual(
      run.results.map((r) => [r.partialFingerprints['appsecFindings/id/v1'], r.level]),
      [
        ['sast:1', 'error'],
        ['sast:3', 'note'],
      ],
    );
    assert.equal(run.tool.driver.rules[0]?.defaultConfiguration.level, 'error', "the rule takes its most serious result's level");
    assert.deepEqual(
      ['information', 'hint', 'warning'].map((level) => levelOf({ severity: 'medium' }, { medium: level as 'information' })),
      ['note', 'note', 'warning'],
    );
    assert.equal(levelOf({ severity: 'high' }, { low: 'hint' }), 'error', 'a severity the mapping leaves out keeps its default level');
  });

  void test('an unreachable supply-chain finding is a note when Problems shows it as information, as the setting says', () => {
    const unreachable = { severity: 'critical', sca: { reachability: 'unreachable' } } as unknown as Finding;
    assert.equal(levelOf(unreachable, undefined, { unreachableLevel: 'information' }), 'note');
    assert.equal(levelOf(unreachable), 'error', 'without the setting, its severity decides');
    assert.equal(
      levelOf({ severity: 'critical', sca: { reachability: 'reachable' } }, undefined, { unreachableLevel: 'information' }),
      'error',
      'only unreachable ones',
    );
  });

  void test('each rule once, results point at it by id and index, the rule takes its highest level', () => {
    const run = runOf([code({ id: 1, severity: 'low' }), code({ id: 3, severity: 'critical' }), dependency()]);
    assert.deepEqual(
      run.tool.driver.rules.map((r) => r.id),
      ['CVE-2021-23337', 'python.lang.security.eval-detected'],
    );
    for (const result of run.results) assert.equal(run.tool.driver.rules[result.ruleIndex]?.id, result.ruleId);
    assert.equal(run.tool.driver.rules[1]?.defaultConfiguration.level, 'error');
    assert.equal(run.tool.driver.rules[0]?.helpUri, 'https://osv.dev/vulnerability/CVE-2021-23337');
    assert.equal(run.tool.driver.rules[1]?.helpUri, 'https://semgrep.dev/r/python.lang.security.eval-detected');
  });

  void test('the place today wins over the scanned one; a finding with no place is kept without locations', () => {
    const wholeLine = { startLine: 39, startCharacter: 0, endLine: 39, endCharacter: Number.MAX_SAFE_INTEGER, wholeLine: true };
    const moved = runOf([code()], { placeOf: () => ({ kind: 'moved', relativePath: 'src/renamed.py', range: wholeLine }) }).results[0];
    assert.deepEqual(moved?.locations?.[0]?.physicalLocation, {
      artifactLocation: { uri: 'src/renamed.py', uriBaseId: '%SRCROOT%' },
      region: { startLine: 40, startColumn: 1, endLine: 40 },
    });
    const changed = runOf([code()], {
      placeOf: () => ({
        kind: 'changed',
        relativePath: 'src/app.py',
        range: { startLine: 13, startCharacter: 4, endLine: 14, endCharacter: 2, wholeLine: false },
      }),
    }).results[0];
    assert.deepEqual(changed?.locations?.[0]?.physicalLocation, {
      artifactLocation: { uri: 'src/app.py', uriBaseId: '%SRCROOT%' },
      region: { startLine: 14, startColumn: 5, endLine: 15, endColumn: 3 },
    });
    // Not mapped (only the scanned place is known) or gone from this copy: the scanned place is reported.
    for (const today of [{ kind: 'scanned' as const, relativePath: 'elsewhere.py', range: wholeLine }, { kind: 'deleted' as const }]) {
      const scanned = runOf([code()], { placeOf: () => today }).results[0];
      assert.deepEqual(scanned?.locations?.[0]?.physicalLocation, {
        artifactLocation: { uri: 'src/app.py', uriBaseId: '%SRCROOT%' },
        region: { startLine: 12, startColumn: 5, endLine: 12, endColumn: 20 },
      });
    }
    const nowhere = runOf([code({ location: undefined })]).results[0];
    assert.equal(nowhere?.locations, undefined);
    assert.equal(nowhere?.message.text, 'Use of eval');
  });

  void test('paths become relative URI references; fingerprints and links come from the finding', () => {
    assert.equal(relativeUri('src\\my dir/ü.py'), 'src/my%20dir/%C3%BC.py');
    assert.equal(relativeUri('./a/b#c.js'), 'a/b%23c.js');
    const result = runOf([code()]).results[0];
    assert.deepEqual(result?.partialFingerprints, { 'appsecFindings/id/v1': 'sast:1', 'appsecFindings/matchKey/v1': '42' });
    assert.equal(result?.hostedViewerUri, 'https://semgrep.dev/orgs/acme/findings/1');
    const sca = runOf([dependency()]).results[0];
    assert.deepEqual(sca?.properties, {
      issueType: 'sca',
      status: 'open',
      severity: 'critical',
      package: 'lodash',
      version: '4.17.20',
      ecosystem: 'npm',
      reachability: 'reachable',
      fixVersions: ['4.17.21'],
    });
  });

  void test("Microsoft's SARIF validator reports no error on a mixed log, nor on an empty one", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sarif-'));
    const logs = {
      mixed: toSarifLog(
        input(
          [
            code(),
            code({ id: 5, message: 'Ünïcödé message — with “quotes”', location: { filePath: 'src/my dir/x.py', line: 3 } }),
            code({ id: 6, location: undefined, message: '' }),
            dependency(),
            {
              issueType: 'secrets',
              id: 7,
              ruleName: 'AWS',
              message: 'AWS secret committed in the repository',
              severity: 'critical',
              status: 'open',
              location: { filePath: 'config/.env', line: 1 },
              secret: { service: 'AWS', validation: 'confirmed_valid' },
            },
          ],
          { repositoryUri: 'https://github.com/acme/shop' },
        ),
      ),
      empty: toSarifLog(input([])),
    };
    const bin = require.resolve('@microsoft/sarif-multitool/bin.js');
    for (const [name, log] of Object.entries(logs)) {
      const file = path.join(dir, `${name}.sarif`);
      const out = path.join(dir, `${name}.validation.sarif`);
      writeFileSync(file, JSON.stringify(log, null, 2));
      const run = spawnSync(process.execPath, [bin, 'validate', file, '-o', out], { encoding: 'utf8' });
      assert.equal(run.status, 0, `${name}: the validator ran (${run.stderr}${run.stdout})`);
      const report = JSON.parse(readFileSync(out, 'utf8')) as { runs: { results?: { level?: string; ruleId?: string; message?: { text?: string } }[] }[] };
      const errors = (report.runs[0]?.results ?? []).filter((r) => r.level === 'error');
      assert.deepEqual(
        errors.map((e) => `${e.ruleId}: ${e.message?.text}`),
        [],
        `${name}: no validation error`,
      );
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
