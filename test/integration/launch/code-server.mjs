// Starts one code-server host and stops it with its whole process group. Used by the installer
// (to prove an install really works) and by run-code-server.mjs (to run the suite).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTS, entryJs } from './hosts.mjs';

const LISTENING = /HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/;

/**
 * @param {'newest'|'oldest'} host
 * @param {string} runDir everything the server writes goes here (never under ~)
 * @param {{ env?: Record<string,string>, settings?: object, startTimeoutMs?: number, testDriver?: boolean, locale?: string }} [options]
 *   `testDriver`: for a window a test drives. VS Code then shows no notification toasts (they go
 *   to the notification centre only), so a window a person uses must not have it.
 *   `locale`: the display language (`--locale`); it takes only with a language pack installed
 *   and `languagepacks.json` written first (language-pack.mjs).
 * @returns {Promise<{ port: number, logFile: string, stop: () => Promise<void>, exited: Promise<number|null> }>}
 */
export async function startCodeServer(host, runDir, { env = {}, settings = {}, startTimeoutMs = 30_000, testDriver = false, locale } = {}) {
  const userData = join(runDir, 'user-data');
  mkdirSync(join(userData, 'User'), { recursive: true });
  // Settings must exist before start: the workbench reads them once while it loads.
  writeFileSync(join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(join(runDir, 'config.yaml'), 'auth: none\ncert: false\n');
  const args = [
    entryJs(host),
    '--auth',
    'none',
    '--bind-addr',
    '127.0.0.1:0',
    '--config',
    join(runDir, 'config.yaml'),
    '--user-data-dir',
    userData,
    '--extensions-dir',
    join(runDir, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    // From 4.134 on the workbench ignores the test payload without this; 4.100.3 lacks the flag.
    ...(testDriver && HOSTS[host].smokeTestFlag ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(locale ? ['--locale', locale] : []),
  ];
  const logFile = join(runDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const child = spawn(HOSTS[host].node(), args, {
    // Own process group, so a timeout can kill the server and every extension host under it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(runDir, 'xdg-config'),
      XDG_DATA_HOME: join(runDir, 'xdg-data'),
      ...env,
    },
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // The group is already gone.
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Gone in the meantime.
        }
      }, 3000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };

  const port = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`code-server ${host} did not listen within ${startTimeoutMs} ms`)), startTimeoutMs);
    const onData = (chunk) => {
      log.write(chunk);
      seen += chunk.toString();
      const match = LISTENING.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`code-server ${host} exited (code ${code}) before listening`));
    });
  }).catch(async (err) => {
    await stop();
    throw new Error(`${err.message}\n--- ${logFile} ---\n${tail(logFile)}`);
  });
  return { port, logFile, stop, exited };
}

/** The last lines of a log, for a failure message that explains itself. */
export function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
