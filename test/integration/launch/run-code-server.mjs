// `npm run test:integration`: runs the integration suite inside real VS Code hosts (code-server,
// newest and oldest supported version) against the packaged, installed .vsix.
//
// Usage: node test/integration/launch/run-code-server.mjs [--host newest|oldest] [--timeout SECONDS] [--locale de|ja|qps-ploc]
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
const resultsDir = 'test-results';
const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const install = spawnSync(process.execPath, ['test/integration/launch/install-hosts.mjs', ...(hosts.length === 1 ? ['--host', hosts[0]] : [])], { stdio: 'inherit' });
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
  for (const host of hosts) for (const name of readdirSync(join(resultsDir, 'languages'))) if (name.startsWith(`${host}-${locale}-`)) rmSync(join(resultsDir, 'languages', name));
} else rmSync(join(resultsDir, 'screenshots'), { recursive: true, force: true });

const summary = { hosts: {}, passed: 0, failed: 0 };
for (const host of hosts) {
  const result = await runHost(host, {
    vsix,
    extensionId: `${pkg.publisher}.${pkg.name}`,
    version: pkg.version,
    suite: 'out/integration/index.js',
    resultsDir,
    timeoutMs,
    locale,
  });
  // A host that crashed or hung counts as a failure even when no test got to report one.
  const failed = result.error && result.failed === 0 ? 1 : result.failed;
  summary.hosts[host] = {
    vscode: HOSTS[host].vscode, passed: result.passed, failed, seconds: result.seconds,
    ...(result.error ? { error: result.error } : {}),
    failures: result.failures,
  };
  summary.passed += result.passed;
  summary.failed += failed;
  for (const f of result.failures) console.log(`[${host}${locale ? ` ${locale}` : ''}] FAILED ${f.title}\n${f.error}`);
}
rmSync(vsixDir, { recursive: true, force: true });
writeFileSync(join(resultsDir, locale ? `integration-summary-${locale}.json` : 'integration-summary.json'), `${JSON.stringify(summary, null, 2)}\n`);

console.log('');
for (const [host, r] of Object.entries(summary.hosts)) {
  console.log(`${host}${locale ? ` ${locale}` : ''} (VS Code ${r.vscode}): ${r.passed} passed, ${r.failed} failed in ${r.seconds} s${r.error ? ` — ${r.error}` : ''}`);
}
console.log(`integration${locale ? ` (${locale})` : ''}: ${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed > 0 ? 1 : 0);
