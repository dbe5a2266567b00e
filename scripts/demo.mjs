// `npm run demo`: the extension on a built-in demo, no account needed.
//   1. starts the local platform with the demo deployment (acme/demo-app),
//   2. writes a demo workspace: a git clone-alike of acme/demo-app with the files its findings point at,
//   3. opens VS Code with the extension signed in to that platform: desktop VS Code when `code`
//      is on PATH (an isolated profile), otherwise code-server (printing the URL to open).
// `--check` (used by `npm test`) opens the code-server workbench headless, waits until the tree
// and the Problems panel show the demo's findings, saves test-results/demo.png and exits.
// `--code-server` forces code-server even when `code` is on PATH.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildBundles } from '../test/integration/launch/build.mjs';
import { checkDemo } from './demo-check.mjs';
import { prepareDemo, startDemoCodeServer } from './demo-setup.mjs';

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

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const demo = await prepareDemo(work, cleanups);
const { workspace, platform, settings, env } = demo;
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
    const url = await startDemoCodeServer(work, demo, cleanups);
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
