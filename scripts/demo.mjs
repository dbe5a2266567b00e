// `npm run demo`: the extension on a built-in demo, no account needed.
//   1. starts the local platform with the demo deployment (acme/demo-app),
//   2. writes a demo workspace: a git clone-alike of acme/demo-app with the files its findings point at,
//   3. opens VS Code with the extension signed in to that platform: desktop VS Code when `code`
//      is on PATH (an isolated profile), otherwise code-server (printing the URL to open).
// `--code-server` forces code-server even when `code` is on PATH; `--without <products>` leaves
// products out of the demo deployment.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBundles } from '../test/integration/launch/build.mjs';
import { prepareDemo, startDemoCodeServer } from './demo-setup.mjs';
import { parentOf } from './processes.mjs';

const args = process.argv.slice(2);
const repo = resolve(import.meta.dirname, '..');
process.chdir(repo);
const work = mkdtempSync(join(tmpdir(), 'appsec-findings-demo-'));
const cleanups = [];
let cleaning;
/** Stops what the demo started and removes its folder; the same promise for every caller. */
const cleanup = () =>
  (cleaning ??= (async () => {
    while (cleanups.length > 0) await cleanups.pop()();
    rmSync(work, { recursive: true, force: true });
  })());

// A demo is stopped in more ways than Ctrl+C: `kill <pid>` (SIGTERM), a closed terminal (SIGHUP),
// or the `npm run` that started it killed. Each stops it the same way, once the step under way
// (an install, a build) has ended: those run synchronously.
const EXIT_CODES = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 };
let stopped;
const stop = (reason) => {
  if (stopped) return;
  stopped = reason;
  console.log(`\nStopping the demo (${reason}).`);
  void cleanup().finally(() => process.exit(EXIT_CODES[reason] ?? 1));
};
for (const signal of Object.keys(EXIT_CODES)) process.on(signal, () => stop(signal));
// Under `npm run` the parent is npm's shell and npm is above it: the demo ends with either.
const starters = [process.ppid, parentOf(process.ppid)].filter((pid) => pid !== undefined && pid > 1);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};
setInterval(() => {
  if (process.ppid !== starters[0] || !starters.every(alive)) stop('the npm run that started it ended');
}, 1000).unref();

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

try {
  // `--without secrets` (or any product, comma-separated): the demo deployment lacks it, as the
  // local platform's own flag says.
  const without = args.indexOf('--without');
  const demo = await prepareDemo(work, cleanups, without >= 0 ? ['--without', args[without + 1] ?? ''] : []);
  const { workspace, platform, settings, env } = demo;
  console.log(`Demo platform: ${platform.url} (deployment ${platform.deploymentSlug})`);
  console.log(`Demo workspace: ${workspace}`);
  // Made up by the local platform; shown so that a user who signed out can sign in again.
  console.log(`Demo token:    ${platform.token} (AppSec: Sign In offers it after a sign-out)`);
  buildBundles();
  if (onPath('code') && !args.includes('--code-server')) {
    const profile = join(work, 'profile');
    mkdirSync(join(profile, 'User'), { recursive: true });
    writeFileSync(join(profile, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    console.log('Opening desktop VS Code (an isolated profile) with the extension in development mode. Close it, then press Ctrl+C here.');
    // Not spawnSync: the signals above must be heard while VS Code runs.
    const code = spawn(
      'code',
      ['--new-window', '--wait', '--user-data-dir', profile, '--extensions-dir', join(work, 'extensions'), `--extensionDevelopmentPath=${repo}`, workspace],
      {
        stdio: 'inherit',
        env: { ...process.env, ...env },
      },
    );
    await new Promise((resolve) => code.once('exit', resolve).once('error', resolve));
  } else {
    const url = await startDemoCodeServer(work, demo, cleanups);
    console.log(`\nOpen ${url}\nin a browser on this machine. Press Ctrl+C to stop the demo.`);
    await new Promise(() => {}); // until stop() ends the process
  }
} finally {
  await cleanup();
}
