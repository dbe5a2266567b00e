// `npm test`: the whole suite, in the order a failure is cheapest to find.
//   1. type-check and lint (zero warnings)
//   2. unit tests in plain Node under c8 (src/core line coverage must be ≥ 90 %)
//   3. integration tests inside real VS Code hosts (newest and oldest supported), on the packaged .vsix,
//      then the demo of the README's quick start, checked in a headless browser and stopped, and the
//      confirmation dialogs shot in the demo's workbench
// Ends with one summary line `tests: N passed, N failed` summed over unit and integration tests.
// Flags: --skip-integration (fast inner loop), --host newest|oldest (passed to the integration launcher).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

const args = process.argv.slice(2);
const skipIntegration = args.includes('--skip-integration');
const hostIndex = args.indexOf('--host');
const hostArgs = hostIndex >= 0 ? ['--host', args[hostIndex + 1]] : [];

function step(title, command, commandArgs, env = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s) ===`);
  return result.status === 0;
}

/** Counts from the TAP file node:test writes; a test cancelled (e.g. by a hung promise) is a failure. */
function tapCounts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  const tap = readFileSync(file, 'utf8');
  const count = (name) => Number([...tap.matchAll(new RegExp(`^# ${name} (\\d+)$`, 'gm'))].pop()?.[1] ?? 0);
  return { passed: count('pass'), failed: count('fail') + count('cancelled') };
}

mkdirSync('test-results', { recursive: true });
rmSync('test-results/unit.tap', { force: true });
rmSync('test-results/integration-summary.json', { force: true });

let ok = step('type-check', 'npx', ['tsc', '--noEmit']);
ok = step('lint', 'npx', ['eslint', '--max-warnings', '0', '.']) && ok;
// The formatter's check: a file written another way fails here, not in review.
ok = step('format', 'npx', ['prettier', '--check', '.']) && ok;
// Before the unit tests: their network tests need Debian's tinyproxy and openssl, which a fresh
// machine gets only from the installer.
const installArgs = skipIntegration ? ['--apt-only'] : [];
ok = step('install what the tests need', 'node', ['test/integration/launch/install-hosts.mjs', ...installArgs]) && ok;
const unitOk = step('unit tests', 'node', ['scripts/test-unit.mjs'], { APPSEC_UNIT_TAP: 'test-results/unit.tap' });
ok = unitOk && ok;
const unit = tapCounts('test-results/unit.tap');

let integration = { passed: 0, failed: 0, hosts: {} };
if (!skipIntegration) {
  ok = step('integration tests (real VS Code)', 'node', ['test/integration/launch/run-code-server.mjs', ...hostArgs]) && ok;
  if (existsSync('test-results/integration-summary.json')) {
    integration = JSON.parse(readFileSync('test-results/integration-summary.json', 'utf8'));
  }
  // The README's first command, as a newcomer runs it: tree and Problems must show the demo's
  // findings, and a closed terminal (SIGHUP) must stop it leaving nothing behind. `--code-server`
  // keeps a desktop VS Code on PATH out of a test run.
  const demoOk = step('demo (README quick start)', 'node', ['scripts/demo-stop-check.mjs', 'npm run demo -- --code-server', 'SIGHUP', 'demo']);
  integration = { ...integration, passed: integration.passed + (demoOk ? 1 : 0), failed: integration.failed + (demoOk ? 0 : 1) };
  ok = demoOk && ok;
  // The confirmations only a user's window shows (the test workbench never shows a modal dialog).
  const dialogsOk = step('confirmation dialogs (demo workbench)', 'node', ['scripts/dialog-images.mjs']);
  integration = { ...integration, passed: integration.passed + (dialogsOk ? 1 : 0), failed: integration.failed + (dialogsOk ? 0 : 1) };
  ok = dialogsOk && ok;
}

// CI shows only the tail of this output: name every failing in-host test again here, with the
// first lines of its error, so a failure far up the log is never a mystery.
for (const [host, r] of Object.entries(integration.hosts ?? {})) {
  for (const f of r.failures ?? []) console.log(`\n[${host}] FAILED ${f.title}\n${f.error.split('\n').slice(0, 8).join('\n')}`);
}
console.log(`\nunit: ${unit.passed} passed, ${unit.failed} failed`);
if (!skipIntegration) console.log(`integration: ${integration.passed} passed, ${integration.failed} failed`);
// A failed step that produced no failing test (lint, type-check, coverage, a crashed host) still counts as one failure.
const failed = unit.failed + integration.failed + (ok || unit.failed + integration.failed > 0 ? 0 : 1);
console.log(`tests: ${unit.passed + integration.passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
