// Installs, idempotently, everything the real-host integration tests need on a fresh Debian
// machine: Chromium, GSSAPI headers, ripgrep, tinyproxy and openssl (apt), Node 24 and two
// code-server hosts (npm).
// Everything from npm is cached outside the repo (see hosts.mjs) and skipped when present.
// Only the npm registry and Debian's mirrors are used: nothing here downloads a browser or VS Code.
//
// Usage: node test/integration/launch/install-hosts.mjs [--host newest|oldest | --apt-only]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { startCodeServer } from './code-server.mjs';
import { outsideNpmRun } from './npm-env.mjs';
import { CACHE_DIR, HOSTS, NODE24, RIPGREP_ARCHIVE, hostPrefix, installedMarker, selectedHosts } from './hosts.mjs';

const started = Date.now();
const step = (message) => console.log(`[install-hosts ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

function fail(message) {
  console.error(`\n[install-hosts] FAILED: ${message}`);
  process.exit(1);
}

/** Runs a command with inherited output; any failure stops the whole install with a clear message. */
function run(command, args, { cwd, env, what } = {}) {
  const result = spawnSync(command, args, { cwd, env: env ?? process.env, stdio: 'inherit' });
  if (result.error) fail(`${what ?? command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${what ?? `${command} ${args.join(' ')}`} exited with ${result.status ?? result.signal}`);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function installAptPackages() {
  const wanted = [
    { pkg: 'chromium', present: () => existsSync('/usr/bin/chromium') },
    // code-server's `kerberos` native module does not build without gssapi/gssapi.h.
    { pkg: 'libkrb5-dev', present: () => dpkgInstalled('libkrb5-dev') },
    { pkg: 'ripgrep', present: () => hasCommand('rg') },
    // The network tests' real proxy (unit tests and the suite's network.test.ts) and their CA.
    { pkg: 'tinyproxy', present: () => dpkgInstalled('tinyproxy') },
    { pkg: 'openssl', present: () => hasCommand('openssl') },
  ];
  const missing = wanted.filter((w) => !w.present()).map((w) => w.pkg);
  if (missing.length === 0) return step(`apt: ${wanted.map((w) => w.pkg).join(', ')} already present`);
  if (process.getuid?.() !== 0) fail(`missing Debian packages ${missing.join(' ')}: run as root, or: sudo apt-get install -y ${missing.join(' ')}`);
  step(`apt: installing ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update'], { env, what: 'apt-get update' });
  run('apt-get', ['install', '-y', ...missing], { env, what: `apt-get install ${missing.join(' ')}` });
}

/**
 * npm install into its own prefix folder. Install scripts must run (code-server's postinstall
 * fetches VS Code's own node_modules and builds native modules): npm 11 still runs scripts it has
 * not reviewed (it only warns "install-scripts … not yet covered by allowScripts"), unless a
 * config says ignore-scripts or strict-allow-scripts, so both are forced off here. Success is
 * proven afterwards by starting the host, not by trusting npm's exit code.
 */
function npmInstall(prefix, spec, env) {
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: 'appsec-test-host', private: true }));
  const args = ['install', spec, '--no-save', '--no-audit', '--no-fund', '--foreground-scripts', '--loglevel=warn'];
  run('npm', args, {
    cwd: prefix,
    what: `npm install ${spec}`,
    env: { ...outsideNpmRun(process.env), npm_config_ignore_scripts: 'false', npm_config_strict_allow_scripts: 'false', ...env },
  });
}

function installNode24() {
  if (existsSync(installedMarker(NODE24.prefix))) return step(`node ${NODE24.version}: cached`);
  step(`node ${NODE24.version}: npm install ${NODE24.spec}`);
  npmInstall(NODE24.prefix, NODE24.spec, {});
  const version = spawnSync(NODE24.bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (version !== NODE24.version) fail(`${NODE24.bin} reports ${version ?? 'nothing'}, expected ${NODE24.version}`);
  writeFileSync(installedMarker(NODE24.prefix), `${NODE24.version}\n`);
}

/** @vscode/ripgrep 1.15.11 skips its GitHub download when this archive already exists. */
function placeRipgrepArchive() {
  if (existsSync(RIPGREP_ARCHIVE)) return;
  const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  if (!rg) fail('ripgrep (rg) is not installed');
  const staging = mkdtempSync(join(tmpdir(), 'appsec-rg-'));
  run('cp', [rg, join(staging, 'rg')]);
  mkdirSync(dirname(RIPGREP_ARCHIVE), { recursive: true });
  run('tar', ['-czf', RIPGREP_ARCHIVE, '-C', staging, 'rg'], { what: 'packing ripgrep archive' });
  rmSync(staging, { recursive: true, force: true });
  step(`ripgrep: placed ${RIPGREP_ARCHIVE}`);
}

function hostEnv(name) {
  if (name === 'newest') {
    // npm's shebang and code-server's postinstall both take `node` from PATH, and native modules
    // must build against Node 24's headers, not the machine config's nodedir=/usr (Node 20).
    return { PATH: `${dirname(NODE24.bin)}${delimiter}${outsideNpmRun(process.env).PATH}`, npm_config_nodedir: NODE24.folder };
  }
  return {
    npm_config_unsafe_perm: 'true', // root: otherwise npm drops privileges for the scripts
    npm_config_yes: 'true', // node-pty's install calls npx, which would wait for a "yes"
    TMPDIR: dirname(dirname(RIPGREP_ARCHIVE)), // where @vscode/ripgrep looks for its cache
  };
}

/** Starts the freshly installed host once and asks it for the workbench page. */
async function verifyHost(name) {
  const runDir = mkdtempSync(join(tmpdir(), `appsec-verify-${name}-`));
  const server = await startCodeServer(name, runDir);
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/`);
    const html = await response.text();
    if (!response.ok || !html.includes('workbench')) fail(`code-server ${name} answered ${response.status} without a workbench page`);
  } finally {
    await server.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

async function installHost(name) {
  const { codeServer, vscode } = HOSTS[name];
  const prefix = hostPrefix(name);
  if (existsSync(installedMarker(prefix))) return step(`code-server ${codeServer} (${name}): cached`);
  if (name === 'oldest') placeRipgrepArchive();
  step(`code-server ${codeServer} (${name}, VS Code ${vscode}): npm install (2–3 minutes)`);
  const t0 = Date.now();
  npmInstall(prefix, `code-server@${codeServer}`, hostEnv(name));
  step(`code-server ${codeServer}: installed in ${((Date.now() - t0) / 1000).toFixed(0)} s; starting it once to verify`);
  const vscodeModules = join(prefix, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules');
  if (!existsSync(vscodeModules) || readdirSync(vscodeModules).length === 0) {
    fail(`code-server ${codeServer}: ${vscodeModules} is missing, so its postinstall did not run`);
  }
  await verifyHost(name).catch((err) => fail(`code-server ${codeServer} does not start: ${err.message}`));
  writeFileSync(installedMarker(prefix), `${codeServer}\n`);
  step(`code-server ${codeServer}: verified`);
}

// --apt-only: the Debian packages alone, for a run of the unit tests without the hosts.
const hosts = process.argv.includes('--apt-only') ? [] : selectedHosts(process.argv);
step(`cache: ${CACHE_DIR}`);
installAptPackages();
if (hosts.includes('newest')) installNode24();
for (const name of hosts) await installHost(name);
step(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
