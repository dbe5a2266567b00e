// The demo's parts, shared by `npm run demo` and the walkthrough's pictures: the local platform
// serving the demo deployment, a demo workspace (a clone-alike of acme/demo-app), and code-server
// with the packaged extension signed in to that platform.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { packageVsix } from '../test/integration/launch/build.mjs';
import { startCodeServer } from '../test/integration/launch/code-server.mjs';
import { installVsix } from '../test/integration/launch/run-host.mjs';

/** Starts the local platform (a child process) and reads its one JSON line. */
async function startPlatform(commits, cleanups, platformArgs) {
  const commitArgs = Object.entries({ '--demo-commit': commits.main, '--demo-feature-commit': commits.feature }).flatMap(([flag, commit]) =>
    /^[0-9a-f]{40}$/.test(commit) ? [flag, commit] : [],
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/platform/cli.ts', '--demo', '--json', ...commitArgs, ...platformArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(
    () =>
      new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      }),
  );
  const line = await new Promise((ok, fail) => {
    createInterface({ input: child.stdout }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`the demo platform exited (${code})`)));
  });
  return JSON.parse(line);
}

/**
 * Writes the demo workspace under `work` and starts the platform (with `platformArgs`, such as
 * `--without secrets`); `cleanups` receives what stops it. The settings are the workbench's for the demo; `env` carries the demo token.
 */
export async function prepareDemo(work, cleanups, platformArgs = []) {
  const workspace = join(work, 'demo-app');
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/write-demo-workspace.ts', workspace], { stdio: 'ignore' });
  // The demo's findings say they were scanned at the workspace's commits, so they map onto them.
  const commitOf = (ref) => spawnSync('git', ['rev-parse', ref], { cwd: workspace, encoding: 'utf8' }).stdout.trim();
  const platform = await startPlatform({ main: commitOf('main'), feature: commitOf('feature/checkout-v2') }, cleanups, platformArgs);
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
  return { workspace, platform, settings, env };
}

/** code-server (the newest test host) with the packaged extension; resolves with its workbench URL. */
export async function startDemoCodeServer(work, demo, cleanups, extraSettings = {}, name = 'code-server') {
  const install = spawnSync(process.execPath, ['test/integration/launch/install-hosts.mjs', '--host', 'newest'], { stdio: 'inherit' });
  // Its own message says what failed; going on would only bury it under a host that is not there.
  if (install.status !== 0) throw new Error('the test host could not be installed (see [install-hosts] above)');
  mkdirSync(join(work, 'vsix'), { recursive: true });
  const vsix = packageVsix(join(work, 'vsix'));
  const runDir = join(work, name);
  mkdirSync(runDir, { recursive: true });
  installVsix('newest', vsix, runDir, 'appsec-findings.appsec-findings-');
  // The server's and its extensions' sockets (vscode-ipc-*.sock, vscode-git-*.sock) go where
  // TMPDIR and XDG_RUNTIME_DIR say: inside the demo's folder, so stopping the demo removes them.
  // A short name, as a socket's path has about a hundred characters at most.
  const tmp = join(work, 't');
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  const server = await startCodeServer('newest', runDir, {
    env: { ...demo.env, TMPDIR: tmp, XDG_RUNTIME_DIR: tmp },
    settings: { ...demo.settings, ...extraSettings },
  });
  cleanups.push(() => server.stop());
  return `http://127.0.0.1:${server.port}/?folder=${encodeURIComponent(demo.workspace)}`;
}

/** Opens the demo in a browser page and expands the demo project's code findings in the AppSec view. */
export async function openDemoFindings(page, url) {
  await page.goto(url);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.activitybar [aria-label^="AppSec Findings"]').first().click();
  await page.getByText('acme/demo-app', { exact: false }).first().waitFor({ timeout: 60_000 });
  const code = page.getByText('Code findings').first();
  if (!(await code.isVisible())) await page.getByText('acme/demo-app').first().click();
  await code.click({ timeout: 30_000 });
}
