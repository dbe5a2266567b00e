/**
 * A real forward proxy for tests: Debian's `tinyproxy`, on a free loopback port with a generated
 * configuration, as a child process. Its log shows every request it handled, so a test can prove
 * that a request went through it. A missing tinyproxy is an error with the install hint, never a
 * reason to skip: the CI installs it (.ci/run, test/integration/launch/install-hosts.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface TinyproxyOptions {
  /** Ports CONNECT may reach; tinyproxy refuses tunnels to any other port. 443 is always added. */
  readonly connectPorts?: readonly number[];
  /** Require these credentials (HTTP Basic). */
  readonly basicAuth?: { readonly user: string; readonly password: string };
}

export interface RunningTinyproxy {
  /** `http://127.0.0.1:<port>`, no credentials. */
  readonly url: string;
  readonly port: number;
  /** The `Via` name tinyproxy puts on the requests it forwards. */
  readonly viaName: string;
  /** The request lines it received, e.g. `CONNECT 127.0.0.1:4431` or `GET http://127.0.0.1:8080/api/… `. */
  requests(): string[];
  /** The whole log, for failure messages. */
  log(): string;
  close(): Promise<void>;
}

export const TINYPROXY_HINT =
  'tinyproxy is not installed: run `apt-get install -y tinyproxy` (.ci/run and test/integration/launch/install-hosts.mjs install it)';

/** A loopback port nothing listens on right now (for tinyproxy, or as a dead proxy). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function findTinyproxy(): string {
  // Debian installs it in /usr/bin; elsewhere it may sit in an sbin folder missing from PATH.
  const folders = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), '/usr/sbin', '/usr/local/sbin'];
  const found = folders.map((folder) => join(folder, 'tinyproxy')).find((p) => existsSync(p));
  if (!found) throw new Error(TINYPROXY_HINT);
  return found;
}

export async function startTinyproxy(options: TinyproxyOptions = {}): Promise<RunningTinyproxy> {
  const binary = findTinyproxy();
  const dir = mkdtempSync(join(tmpdir(), 'appsec-tinyproxy-'));
  const logFile = join(dir, 'tinyproxy.log');
  const viaName = 'appsec-test-proxy';
  const port = await freePort();
  const lines = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Allow 127.0.0.1',
    'Timeout 30',
    'MaxClients 50',
    `LogFile "${logFile}"`,
    'LogLevel Connect',
    `ViaProxyName "${viaName}"`,
    ...[443, ...(options.connectPorts ?? [])].map((p) => `ConnectPort ${p}`),
    ...(options.basicAuth ? [`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`] : []),
  ];
  const config = join(dir, 'tinyproxy.conf');
  writeFileSync(config, `${lines.join('\n')}\n`);
  const child = spawn(binary, ['-d', '-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('error', (e) => (stderr += `${e.message}\n`));
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const readLog = (): string => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  try {
    await waitForPort(port, child, () => `${stderr}\n${readLog()}`);
  } catch (e) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    viaName,
    requests: () => [...readLog().matchAll(/Request \(file descriptor \d+\): (.+?)(?: HTTP\/1\.[01])?$/gm)].map((m) => m[1] ?? ''),
    log: readLog,
    async close() {
      process.off('exit', killOnExit);
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until tinyproxy accepts connections; fails early, with its output, if it exits. */
async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`tinyproxy exited at start:\n${output()}`);
    if (await canConnect(port)) return;
    if (Date.now() > deadline) throw new Error(`tinyproxy did not listen on ${port} within 5 s:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}
