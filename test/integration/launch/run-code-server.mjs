// `npm run test:integration`: runs the integration suite inside real VS Code hosts (code-server,
// newest and oldest supported version) against the packaged, installed .vsix.
//
// Usage: node test/integration/launch/run-code-server.mjs [--host newest|oldest] [--timeout SECONDS] [--parts N] [--locale de|ja|qps-ploc]
// `--parts N` (default 2): each host's suite runs as N launches one after another, each with
// every N-th file, so that `--timeout` (default 600 s, per launch) stays at least twice what one
// launch takes on a 2-core machine. Their results add up per host. A locale or bench run is one.
// `--locale`: the display language (language-pack.mjs); then only language.test.ts runs, its
// screenshots go to test-results/languages/ and its summary to integration-summary-<locale>.json
// (the English ones are left as they are). `npm run test:languages` runs de and ja on both hosts;
// `npm run test:pseudo-locale` runs the pseudo locale, qps-ploc (pseudo-locale.mjs), on the newest.
// Installs the hosts first when missing (install-hosts.mjs; a no-op when cached). Writes
// test-results/integration-summary.json, screenshots under test-results/screenshots/, and each
// host's code-server log under test-results/; the last line is `integration: N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundles, checkSuiteList, packageVsix } from './build.mjs';
import { HOSTS, selectedHosts } from './hosts.mjs';
import { selectedLocale } from './language-pack.mjs';
import { runHost } from './run-host.mjs';

process.chdir(fileURLToPath(new URL('../../..', import.meta.url)));
const argv = process.argv.slice(2);
const hosts = selectedHosts(argv);
const locale = selectedLocale(argv);
const timeoutArg = argv.indexOf('--timeout');
const timeoutMs = (timeoutArg === -1 ? 600 : Number(argv[timeoutArg + 1])) * 1000;
const partsArg = argv.indexOf('--parts');
const parts = locale || process.env.APPSEC_BENCH === '1' ? 1 : partsArg === -1 ? 2 : Number(argv[partsArg + 1]);
if (!(timeoutMs > 0) || !Number.isInteger(parts) || parts < 1) {
  console.error('usage: --timeout takes seconds (> 0), --parts a whole number (≥ 1)');
  process.exit(2);
}
const resultsDir = 'test-results';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const install = spawnSync(process.execPath, ['test/integration/launch/install-hosts.mjs', ...(hosts.length === 1 ? ['--host', hosts[0]] : [])], {
  stdio: 'inherit',
});
if (install.status !== 0) process.exit(1);

const vsixDir = mkdtempSync(join(tmpdir(), 'appsec-it-vsix-'));
let vsix;
try {
  checkSuiteList();
  buildBundles();
  vsix = packageVsix(vsixDir);
} catch (err) {
  console.error(`[integration] ${err.message}`);
  process.exit(1);
}
mkdirSync(resultsDir, { recursive: true });
// A locale run keeps the English screenshots, and each language's own from the other runs.
if (locale) {
  mkdirSync(join(resultsDir, 'languages'), { recursive: true });
  for (const host of hosts)
    for (const name of readdirSync(join(resultsDir, 'languages'))) if (name.startsWith(`${host}-${locale}-`)) rmSync(join(resultsDir, 'languages', name));
} else rmSync(join(resultsDir, 'screenshots'), { recursive: true, force: true });

const summary = { hosts: {}, passed: 0, failed: 0 };
for (const host of hosts) {
  const launches = [];
  for (let k = 1; k <= parts; k++) {
    const part = parts > 1 ? `${k}/${parts}` : undefined;
    const result = await runHost(host, {
      vsix,
      extensionId: `${pkg.publisher}.${pkg.name}`,
      version: pkg.version,
      suite: 'out/integration/index.js',
      resultsDir,
      timeoutMs,
      locale,
      part,
    });
    // A launch that crashed or hung counts as a failure even when no test got to report one.
    const failed = result.error && result.failed === 0 ? 1 : result.failed;
    launches.push({ ...result, failed, part });
    console.log(
      `[${host}${part ? ` ${part}` : ''}] ${result.passed} passed, ${failed} failed in ${result.seconds} s of its ${timeoutMs / 1000} s limit${result.error ? ` — ${result.error}` : ''}`,
    );
  }
  const errors = launches.filter((l) => l.error).map((l) => (l.part ? `part ${l.part}: ${l.error}` : l.error));
  summary.hosts[host] = {
    vscode: HOSTS[host].vscode,
    passed: sum(launches, 'passed'),
    failed: sum(launches, 'failed'),
    seconds: sum(launches, 'seconds'),
    launches: launches.map((l) => ({ part: l.part ?? '1/1', passed: l.passed, failed: l.failed, seconds: l.seconds, limitSeconds: timeoutMs / 1000 })),
    ...(errors.length > 0 ? { error: errors.join('; ') } : {}),
    failures: launches.flatMap((l) => l.failures),
    slowest: slowest(
      launches.flatMap((l) => l.tests),
      10,
    ),
    files: launches.flatMap((l) => l.files).sort((a, b) => b.ms - a.ms),
  };
  summary.passed += summary.hosts[host].passed;
  summary.failed += summary.hosts[host].failed;
  for (const f of summary.hosts[host].failures) console.log(`[${host}${locale ? ` ${locale}` : ''}] FAILED ${f.title}\n${f.error}`);
}
rmSync(vsixDir, { recursive: true, force: true });
writeFileSync(join(resultsDir, locale ? `integration-summary-${locale}.json` : 'integration-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

console.log('');
// Every log shows how near each limit the suite runs: each launch against its own, and the ten
// slowest tests against theirs (mocha's per-test timeout).
for (const [host, r] of Object.entries(summary.hosts)) {
  console.log(`${host}${locale ? ` ${locale}` : ''}: the ten slowest tests`);
  for (const t of r.slowest) console.log(`  ${(t.ms / 1000).toFixed(1).padStart(6)} s of ${(t.timeoutMs / 1000).toFixed(0)} s  ${t.title}`);
}
for (const [host, r] of Object.entries(summary.hosts)) {
  const each =
    r.launches.length > 1
      ? ` (${r.launches.map((l) => `${l.part}: ${l.seconds} s`).join(', ')}; each of ${r.launches[0].limitSeconds} s)`
      : ` of its ${r.launches[0].limitSeconds} s limit`;
  console.log(
    `${host}${locale ? ` ${locale}` : ''} (VS Code ${r.vscode}): ${r.passed} passed, ${r.failed} failed in ${r.seconds} s${each}${r.error ? ` — ${r.error}` : ''}`,
  );
}
console.log(`integration${locale ? ` (${locale})` : ''}: ${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed > 0 ? 1 : 0);

function sum(list, key) {
  return list.reduce((total, item) => total + item[key], 0);
}

/** The `count` slowest of the tests that ran, slowest first. */
function slowest(tests, count) {
  return [...tests].sort((a, b) => b.ms - a.ms).slice(0, count);
}
