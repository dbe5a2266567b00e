// `npm run demo`: the extension on a built-in demo, no account needed.
//   1. starts the local platform with the demo deployment (acme/demo-app),
//   2. writes a demo workspace: a git clone-alike of acme/demo-app with the files its findings point at,
//   3. opens VS Code with the extension signed in to that platform: desktop VS Code when `code`
//      is on PATH (an isolated profile), otherwise code-server (printing the URL to open).
// `--check` (used by `npm test`) opens the code-server workbench headless, waits until the tree
// and the Problems panel show the demo's findings, saves test-results/demo.png and exits.
// `--code-server` forces code-server even when `code` is on PATH.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { buildBundles, packageVsix } from '../test/integration/launch/build.mjs';
import { startCodeServer } from '../test/integration/launch/code-server.mjs';
import { installVsix } from '../test/integration/launch/run-host.mjs';
import { checkDemo } from './demo-check.mjs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const repo = resolve(import.meta.dirname, '..');
process.chdir(repo);
const work = mkdtempSync(join(tmpdir(), 'appsec-findings-demo-'));
const cleanups = [];
const cleanup = async () => {
  for (const c of cleanups.reverse()) await c();
  rmSync(work, { recursive: true, force: true });
};

/** Starts the local platform (a child process) and reads its one JSON line. */
async function startPlatform(demoCommit) {
  const commitArgs = /^[0-9a-f]{40}$/.test(demoCommit) ? ['--demo-commit', demoCommit] : [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/platform/cli.ts', '--demo', '--json', ...commitArgs], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }));
  const line = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`the demo platform exited (${code})`)));
  });
  return JSON.parse(line);
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const workspace = join(work, 'demo-app');
spawnSync(process.execPath, ['--import', 'tsx', 'scripts/write-demo-workspace.ts', workspace], { stdio: 'ignore' });
// The demo's findings say they were scanned at the workspace's commit, so they map onto it.
const demoCommit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: workspace, encoding: 'utf8' }).stdout.trim();
const platform = await startPlatform(demoCommit);
const settings = {
  'appsecFindings.baseUrl': platform.url,
  'appsecFindings.autoRefreshMinutes': 0,
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};
// The demo token is made up by the local platform; the extension adopts it only for a loopback base URL.
const env = { APPSEC_FINDINGS_DEMO_TOKEN: platform.token };
console.log(`Demo platform: ${platform.url} (deployment ${platform.deploymentSlug})`);
console.log(`Demo workspace: ${workspace}`);
// Made up by the local platform; shown so that a user who signed out can sign in again.
console.log(`Demo token:    ${platform.token} (AppSec: Sign In offers it after a sign-out)`);
buildBundles();

try {
  if (onPath('code') && !check && !args.includes('--code-server')) {
    const profile = join(work, 'profile');
    mkdirSync(join(profile, 'User'), { recursive: true });
    writeFileSync(join(profile, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    console.log('Opening desktop VS Code (an isolated profile) with the extension in development mode. Close it, then press Ctrl+C here.');
    spawnSync('code', ['--new-window', '--wait', '--user-data-dir', profile, '--extensions-dir', join(work, 'extensions'), `--extensionDevelopmentPath=${repo}`, workspace], {
      stdio: 'inherit', env: { ...process.env, ...env },
    });
  } else {
    spawnSync(process.execPath, ['test/integration/launch/install-hosts.mjs', '--host', 'newest'], { stdio: 'inherit' });
    mkdirSync(join(work, 'vsix'), { recursive: true });
    const vsix = packageVsix(join(work, 'vsix'));
    const runDir = join(work, 'code-server');
    mkdirSync(runDir, { recursive: true });
    installVsix('newest', vsix, runDir, 'appsec-findings.appsec-findings-');
    const server = await startCodeServer('newest', runDir, { env, settings });
    cleanups.push(() => server.stop());
    const url = `http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(workspace)}`;
    if (check) {
      await checkDemo(url, 'test-results/demo.png');
    } else {
      console.log(`\nOpen ${url}\nin a browser on this machine. Press Ctrl+C to stop the demo.`);
      await new Promise((r) => process.once('SIGINT', r));
    }
  }
} finally {
  await cleanup();
}
