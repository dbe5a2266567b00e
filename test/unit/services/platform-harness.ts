// The services under test run through the real API client against the real local platform
// server. This file starts both and keeps track of what must be closed. Not a test file.
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { Emitter, type Disposable } from '../../../src/core/events';
import type { PlatformApi, PlatformApiFactory } from '../../../src/core/services/platform-api';
import type { DeploymentMemory, TokenStore } from '../../../src/core/services/session';
import type { Deployment } from '../../../src/core/model/types';
import type { PlatformData } from '../../platform/generator';
import { startPlatformServer, type PlatformServerOptions, type RecordedRequest, type RunningPlatform } from '../../platform/server';

export interface Harness {
  readonly server: RunningPlatform;
  /** A client that signs its calls with `getToken` (default: the server's token); `extra` overrides its options. */
  client(getToken?: () => Promise<string | undefined>, extra?: Partial<PlatformClientOptions>): PlatformClient;
  /** A factory in the shape the session wants; every client it makes is closed with the harness. */
  readonly factory: PlatformApiFactory;
  /** Requests recorded since the last `mark()` whose path contains `pathPart`. */
  requestsSince(mark: number, pathPart: string): RecordedRequest[];
  mark(): number;
  close(): Promise<void>;
}

/** Retries that keep the whole suite fast: two retries, millisecond backoff. */
const FAST_RETRIES = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5, totalBudgetMs: 5_000 };

export async function startHarness(options: Omit<PlatformServerOptions, 'token'> & { token?: string }): Promise<Harness> {
  const server = await startPlatformServer(options);
  const clients: PlatformClient[] = [];
  const client = (
    getToken: () => Promise<string | undefined> = () => Promise.resolve(server.token),
    extra: Partial<PlatformClientOptions> = {},
  ): PlatformClient => {
    const made = new PlatformClient({
      baseUrl: server.url,
      extensionVersion: '0.0.0-test',
      getToken,
      retryPolicy: FAST_RETRIES,
      random: () => 0.5,
      // One page at a time, so the requests a load makes are the same on every run.
      concurrency: 1,
      timeouts: { headersMs: 10_000, bodyMs: 10_000 },
      ...extra,
    });
    clients.push(made);
    return made;
  };
  return {
    server,
    client,
    factory: (getToken): PlatformApi => client(getToken),
    mark: () => server.requests.length,
    // Every code findings load also asks for the AI code findings (one more list request); the
    // counts tests make are of the list asked for, so those are left out unless asked for by name.
    requestsSince: (mark, pathPart) =>
      server.requests.slice(mark).filter((r) => r.path.includes(pathPart) && (pathPart.includes('ai_sast') || !r.rawUrl.includes('issue_type=ai_sast'))),
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await server.close();
    },
  };
}

/** The host's secret storage, in memory, a token per origin: a legitimate double, as SecretStorage needs VS Code. */
export class MemoryTokenStore implements TokenStore {
  private readonly changed = new Emitter<void>();
  private readonly tokens = new Map<string, string>();
  /** Every token stored, with the origin it was stored for (`origin token`). */
  readonly writes: string[] = [];

  /** `token`, when given, is kept for `origin`. */
  constructor(token?: string, origin = '') {
    if (token !== undefined) this.tokens.set(origin, token);
  }

  get(origin: string): Promise<string | undefined> {
    return Promise.resolve(this.tokens.get(origin));
  }

  store(origin: string, token: string): Promise<void> {
    this.tokens.set(origin, token);
    this.writes.push(`${origin} ${token}`);
    this.changed.fire();
    return Promise.resolve();
  }

  delete(origin: string): Promise<void> {
    this.tokens.delete(origin);
    this.changed.fire();
    return Promise.resolve();
  }

  onDidChange(listener: () => void): Disposable {
    return this.changed.event(listener);
  }
}

/** A branch other than main that the generated data has code findings of, for `projectName`. */
export function scannedFeatureBranch(data: PlatformData, projectName: string): string {
  const ref = [...new Set(data.sast.filter((f) => f.repository?.name === projectName).map((f) => f.ref))].find((r) => r && r !== 'main');
  if (!ref) throw new Error('the generated project has a scanned feature branch');
  return ref;
}

/** Query parameters of a recorded request. */
export function queryOf(request: RecordedRequest): URLSearchParams {
  const q = request.rawUrl.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : request.rawUrl.slice(q + 1));
}

/** Resolves once `condition` holds (polled every few ms), or fails after `ms`. */
export async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The host's memento for the (non-secret) deployment, in memory. */
export class MemoryDeploymentMemory implements DeploymentMemory {
  constructor(public value?: Deployment) {}

  get(): Deployment | undefined {
    return this.value;
  }

  set(deployment: Deployment | undefined): Promise<void> {
    this.value = deployment;
    return Promise.resolve();
  }
}
