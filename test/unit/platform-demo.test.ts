// The demo deployment agrees with the demo workspace: every finding's line holds what the finding
// talks about, the suggested fixes are code of the file's language, and the feature branch has
// findings of its own. A security reviewer trying the demo stops trusting it at the first line
// that contradicts its finding.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Script } from 'node:vm';
import { demoDeployment } from '../platform/demo';
import { demoFeatureFiles, demoFiles } from '../platform/demo-files';

const DEMO = 'acme/demo-app';
const data = demoDeployment();
const files = { ...demoFiles(), ...demoFeatureFiles() };

function lineOf(path: string, line: number): string {
  const text = files[path];
  assert.ok(text !== undefined, `the demo has ${path}`);
  return text.split('\n')[line - 1] ?? '';
}

const pathOf = (f: { location?: { filePath?: string; file_path?: string } }): string => f.location?.filePath ?? f.location?.file_path ?? '';

void describe('the demo deployment', () => {
  void test('each assistant verdict gives a reason of its own finding, never one shared sentence', () => {
    // One finding on two branches is one finding: its reason is counted once.
    const byFinding = new Map(
      data.sast
        .filter((f) => f.repository?.name === DEMO && f.assistant?.autotriage?.reason)
        .map((f) => [`${f.rule_name ?? ''} ${pathOf(f)}`, f.assistant?.autotriage?.reason ?? '']),
    );
    const reasons = [...byFinding.values()];
    assert.ok(reasons.length >= 4, 'the demo has verdicts with reasons');
    assert.equal(new Set(reasons).size, reasons.length, `each says something of its own: ${reasons.join(' | ')}`);
  });

  void test('every code and supply-chain finding points at a line of the demo files', () => {
    const demo = [...data.sast, ...data.sca].filter((f) => f.repository?.name === DEMO);
    assert.ok(demo.length >= 10);
    for (const f of demo) {
      const line = f.location?.line ?? 0;
      assert.ok(line >= 1 && line <= (files[pathOf(f)] ?? '').split('\n').length, `${pathOf(f)}:${line}`);
    }
  });

  void test('each secret sits on the line that holds its key', () => {
    const secrets = data.secrets.filter((s) => s.repository.name === DEMO);
    assert.deepEqual(secrets.map((s) => s.type).sort(), ['AWS', 'JWT', 'Slack']);
    const words: Record<string, RegExp> = { AWS: /secretAccessKey: '/, Slack: /hooks\.slack\.com/, JWT: /JWT_SECRET = '/ };
    for (const s of secrets) {
      const line = Number(/#L(\d+)$/.exec(s.findingPathUrl ?? '')?.[1]);
      assert.match(lineOf(s.findingPath, line), words[s.type] ?? /^$/, `${s.type} secret at ${s.findingPath}:${line}`);
    }
    assert.equal(secrets.find((s) => s.type === 'AWS')?.validationState, 'VALIDATION_STATE_CONFIRMED_VALID');
  });

  void test('the AI findings speak of what their lines do', () => {
    const ai = data.ai_sast.filter((f) => f.repository?.name === DEMO);
    assert.equal(ai.length, 2);
    const about: [RegExp, RegExp][] = [
      [/findUser\(req\.params\.id\)/, /check/],
      [/jwt\.sign/, /token/],
    ];
    for (const [code, words] of about) {
      const f = ai.find((x) => code.test(lineOf(pathOf(x), x.location?.line ?? 0)));
      assert.ok(f, `an AI finding on ${String(code)}`);
      assert.match(f.rule_message ?? '', words);
    }
    // Three findings meet on the jwt.sign line: the code rule, the AI finding and the vulnerable package's usage.
    const jwtLine = (files['src/auth/login.js'] ?? '').split('\n').findIndex((l) => l.includes('jwt.sign')) + 1;
    const here = [...data.sast, ...data.ai_sast].filter((f) => f.ref === 'main' && pathOf(f) === 'src/auth/login.js' && f.location?.line === jwtLine);
    const usage = data.sca.filter((f) => f.ref === 'main' && f.usage?.location?.start_line === jwtLine);
    assert.equal(here.length + usage.length, 3);
  });

  void test('every suggested fix keeps its file valid JavaScript', () => {
    const fixed = data.sast.filter((f) => f.repository?.name === DEMO && f.assistant?.autofix?.fix_code);
    assert.ok(fixed.length >= 4);
    for (const f of fixed) {
      const path = pathOf(f);
      const lines = (files[path] ?? '').split('\n');
      const at = (f.location?.line ?? 0) - 1;
      lines.splice(at, 1, ...(f.assistant?.autofix?.fix_code ?? '').replace(/\n$/, '').split('\n'));
      assert.doesNotThrow(() => new Script(`(function (require, module) {\n${lines.join('\n')}\n})`), `${f.rule_name} at ${path}:${at + 1}`);
      assert.doesNotMatch(f.assistant?.autofix?.fix_code ?? '', /^\s*#/, 'no Python comment in a JavaScript file');
    }
  });

  void test('the feature branch has its own scan and findings that main does not have', () => {
    const onRef = (ref: string): Set<string> =>
      new Set(data.sast.filter((f) => f.repository?.name === DEMO && f.ref === ref).map((f) => f.match_based_id ?? ''));
    const main = onRef('main');
    const feature = onRef('feature/checkout-v2');
    const fresh = [...feature].filter((id) => !main.has(id));
    assert.equal(fresh.length, 2, 'two findings new on the branch');
    assert.ok(
      [...feature].some((id) => main.has(id)),
      'and some it shares with main',
    );
    assert.ok(data.scans.some((s) => s.branch === 'feature/checkout-v2' && s.status === 'SCAN_STATUS_COMPLETED'));
    const newOnes = data.sast.filter((f) => f.repository?.name === DEMO && f.ref === 'feature/checkout-v2' && !main.has(f.match_based_id ?? ''));
    assert.ok(newOnes.every((f) => pathOf(f) === 'src/checkout.js' && demoFeatureFiles()['src/checkout.js'] !== undefined && !demoFiles()['src/checkout.js']));
  });

  void test('the holes a reader sees first in server.js are open findings, which the default filter shows', () => {
    for (const code of [/exec\(`ping/, /path\.join\(__dirname, 'public', req\.params/, /eval\(req\.body/]) {
      const f = data.sast.find(
        (x) => x.repository?.name === DEMO && x.ref === 'main' && pathOf(x) === 'src/server.js' && code.test(lineOf('src/server.js', x.location?.line ?? 0)),
      );
      assert.equal(f?.status, 'open', `${String(code)} has an open finding`);
    }
  });
});
