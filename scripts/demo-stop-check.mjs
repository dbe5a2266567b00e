// Runs the README's demo command exactly as written, checks the workbench it opens in a headless
// browser, stops it the way a user might (a signal to one of its processes) and proves that
// nothing is left behind: no process that names the demo's folder, no folder, and no socket of
// VS Code's (vscode-*.sock) in the system's temporary folder that the demo's processes opened.
//
// Usage: node scripts/demo-stop-check.mjs "<command>" <SIGTERM|SIGHUP|SIGINT> <npm|demo>
//   npm:  the signal goes to the `npm run demo` process (what `kill <pid>` of npm does)
//   demo: the signal goes to `node scripts/demo.mjs` itself
// Needs nothing installed beforehand: the command may start with `npm ci`, so the browser check is
// loaded only once the demo has printed its URL.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { parentOf } from './processes.mjs';

const [command, signal, target] = process.argv.slice(2);
if (!command || !['SIGTERM', 'SIGHUP', 'SIGINT'].includes(signal) || !['npm', 'demo'].includes(target)) {
  console.error('usage: node scripts/demo-stop-check.mjs "<command>" SIGTERM|SIGHUP|SIGINT npm|demo');
  process.exit(2);
}
const TARGETS = { npm: /^npm run demo\b/, demo: /^\S*node scripts\/demo\.mjs\b/ };
const started = Date.now();
const say = (message) => console.log(`[demo-stop-check ${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

function processes() {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const ppid = parentOf(pid);
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
        let cwd = '';
        try {
          cwd = readlinkSync(`/proc/${pid}/cwd`);
        } catch {
          /* another user's, or gone */
        }
        return [{ pid: Number(pid), ppid, cmdline, cwd }];
      } catch {
        return []; // ended while being read
      }
    });
}

function descendants(root) {
  const all = processes();
  const found = [];
  const walk = (pid) =>
    all
      .filter((p) => p.ppid === pid)
      .forEach((p) => {
        found.push(p);
        walk(p.pid);
      });
  walk(root);
  return found;
}

/** Installing the hosts from nothing takes minutes; a demo that prints no URL within this is stuck. */
const START_LIMIT_MS = 20 * 60_000;

/** VS Code's sockets (the server's IPC, the git extension's). */
const SOCKET = /^vscode-.*\.sock$/;

/**
 * The sockets in the system's temporary folder that these processes hold open, by path: read
 * from each one's file descriptors and the kernel's table of Unix sockets. Another program's
 * sockets there (a test suite running beside) are not the demo's and are not counted.
 */
function socketsHeldInTmp(pids) {
  const paths = new Map();
  for (const line of readFileSync('/proc/net/unix', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length >= 8) paths.set(fields[6], fields[7]);
  }
  const held = new Set();
  for (const pid of pids) {
    let fds = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; /* ended */
    }
    for (const fd of fds) {
      let link = '';
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const path = paths.get(/^socket:\[(\d+)\]$/.exec(link)?.[1] ?? '');
      if (path && dirname(path) === tmpdir() && SOCKET.test(path.slice(tmpdir().length + 1))) held.add(path);
    }
  }
  return [...held];
}

const shell = spawn('sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
const exited = new Promise((resolve) => shell.once('exit', (code, sig) => resolve(code ?? sig)));
shell.stderr.pipe(process.stderr);
/** Whatever happens, nothing the command started outlives this check. */
const killAll = () => {
  try {
    process.kill(-shell.pid, 'SIGKILL');
  } catch {
    // The group is gone, as it should be.
  }
};
const fail = (message) => {
  console.error(`[demo-stop-check] FAILED: ${message}`);
  killAll();
  process.exit(1);
};
let work;
const url = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`"${command}" printed no workbench URL within ${START_LIMIT_MS / 60_000} min`)), START_LIMIT_MS);
  createInterface({ input: shell.stdout }).on('line', (line) => {
    console.log(line);
    const folder = /^Demo workspace: (.+)$/.exec(line);
    if (folder) work = dirname(folder[1]);
    const opened = /^Open (http:\/\/127\.0\.0\.1:\d+\/\S*)$/.exec(line.trim());
    if (opened) {
      clearTimeout(timer);
      resolve(opened[1]);
    }
  });
  void exited.then((code) => reject(new Error(`"${command}" ended (${code}) before printing the workbench URL`)));
}).catch((error) => fail(error.message));
if (!work) fail('the demo did not print its workspace');

let failure;
try {
  const { checkDemo } = await import('./demo-check.mjs');
  await checkDemo(url, `test-results/demo-${signal.toLowerCase()}.png`);
  say("the workbench shows the demo's findings");
} catch (error) {
  failure = error;
}

// What the running demo holds in the system's temporary folder would be left there by a signal.
const demoSockets = socketsHeldInTmp(descendants(shell.pid).map((p) => p.pid));
if (demoSockets.length > 0) failure ??= new Error(`the demo keeps ${demoSockets.length} socket(s) in ${tmpdir()}: ${demoSockets.join(', ')}`);
const victim = descendants(shell.pid).find((p) => TARGETS[target].test(p.cmdline));
if (!victim) fail(`no ${target} process under "${command}"`);
say(`${signal} to ${victim.cmdline} (pid ${victim.pid})`);
process.kill(victim.pid, signal);
const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 30_000).unref());
if ((await Promise.race([exited, timeout])) === 'timeout') failure ??= new Error(`the demo did not stop within 30 s of ${signal}`);

// A stopped server's last children may take a moment to go; anything still there after that is left behind.
let left = [];
for (let i = 0; i < 20; i++) {
  left = processes().filter((p) => p.pid !== process.pid && (p.cmdline.includes(work) || p.cwd.startsWith(work)));
  if (left.length === 0 && !existsSync(work)) break;
  await new Promise((r) => setTimeout(r, 250));
}
if (left.length > 0) {
  failure ??= new Error(`${left.length} process(es) left after ${signal}:\n${left.map((p) => `  ${p.pid} ${p.cmdline.slice(0, 160)}`).join('\n')}`);
  for (const p of left)
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
} else if (existsSync(work)) {
  failure ??= new Error(`${work} is left after ${signal}`);
}
const socketsLeft = demoSockets.filter((path) => existsSync(path));
if (socketsLeft.length > 0) failure ??= new Error(`${socketsLeft.length} socket(s) left in ${tmpdir()} after ${signal}: ${socketsLeft.join(', ')}`);
if (failure) fail(failure.message);
killAll();
say(`stopped cleanly on ${signal}: no process, no folder and no socket left`);
process.exit(0);
