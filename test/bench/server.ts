/** Starts and stops the benchmark's platform server process (server-child.ts). */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { GenerateOptions } from '../platform/index';

export interface ServerReady {
  readonly url: string;
  readonly token: string;
  readonly deploymentSlug: string;
  readonly sast: number;
  readonly sca: number;
  /** The workspace's project, for `bench:host`'s deployment. */
  readonly project?: string;
}

export interface BenchServer extends ServerReady {
  stop(): Promise<void>;
}

const REPO = resolve(__dirname, '../..');
/**
 * The server holds 100 000 wire findings and stringifies megabytes per page: with the default
 * young generation its garbage collections made a sync's time swing from 2 s to 5 s between
 * runs. A larger one keeps the server (the fixture, not what is measured) fast and steady.
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

export async function startBenchServer(deployment: GenerateOptions): Promise<BenchServer> {
  // `--import tsx` resolves from the working directory: the repository, wherever npm was run.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', join(__dirname, 'server-child.ts'), JSON.stringify(deployment)], {
    cwd: REPO,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<ServerReady>((resolveReady, reject) => {
    child.once('message', (message) => resolveReady(message as ServerReady));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the platform server process exited early (code ${code})`)));
  });
  // Every request goes to this machine only.
  if (!ready.url.startsWith('http://127.0.0.1:')) {
    await stop(child);
    throw new Error(`the platform server is not on 127.0.0.1: ${ready.url}`);
  }
  return { ...ready, stop: () => stop(child) };
}

/** Closing the channel tells the child to close its server and exit; a kill if it does not. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolveStop();
    });
    if (child.connected) child.disconnect();
    else child.kill();
  });
}
