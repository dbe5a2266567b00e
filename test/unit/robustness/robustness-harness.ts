/**
 * Shared by the robustness tests (not a test file): the local platform with a token that is easy
 * to spot if it leaks, a client tuned for fault tests, an undici Agent that counts its sockets,
 * and a guard that turns any unhandled rejection into a test failure.
 */
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { inspect } from 'node:util';
import { Agent, buildConnector } from 'undici';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/model/errors';
import { generateDeployment, startPlatformServer, type GenerateOptions, type RunningPlatform } from '../../platform/index';

/** Distinctive, so a leak into a message or snippet cannot pass unnoticed. */
export const SECRET_TOKEN = 'sgp_robustness_SECRET_7f3a9c';

export interface Platform {
  readonly server: RunningPlatform;
  readonly slug: string;
  /** A client of the server (closed by `close`); retries are quick unless overridden. */
  client(extra?: Partial<PlatformClientOptions>): PlatformClient;
  /** The options `client` uses, for a client the test closes itself. */
  options(extra?: Partial<PlatformClientOptions>): PlatformClientOptions;
  close(): Promise<void>;
}

export async function startPlatform(generate: GenerateOptions): Promise<Platform> {
  const server = await startPlatformServer({ data: generateDeployment(generate), token: SECRET_TOKEN });
  const clients: PlatformClient[] = [];
  const options = (extra: Partial<PlatformClientOptions> = {}): PlatformClientOptions => ({
    baseUrl: server.url,
    extensionVersion: '0.0.0-robustness',
    getToken: () => Promise.resolve(SECRET_TOKEN),
    retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4, totalBudgetMs: 10_000 },
    random: () => 0.5,
    timeouts: { headersMs: 2_000, bodyMs: 2_000 },
    ...extra,
  });
  return {
    server,
    slug: server.data.deployment.slug,
    options,
    client(extra = {}) {
      const made = new PlatformClient(options(extra));
      clients.push(made);
      return made;
    },
    async close() {
      try {
        await Promise.all(clients.splice(0).map((c) => c.close()));
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Awaits a rejection that must be a PlatformError of `reason`, and checks what the user reads:
 * no token anywhere (message, snippet, cause chain's messages).
 */
export async function expectFailure(promise: Promise<unknown>, reason: PlatformError['reason']): Promise<PlatformError> {
  let caught: unknown;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, `expected a ${reason} failure, but the call succeeded`);
  assert.ok(PlatformError.is(caught), `not a PlatformError: ${inspect(caught)}`);
  assert.equal(caught.reason, reason, caught.message);
  assertNoToken(caught);
  return caught;
}

export function assertNoToken(e: PlatformError): void {
  const texts = [e.message, e.bodySnippet ?? '', String(e.stack)];
  for (let cause: unknown = e.cause, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    texts.push(cause.message);
  }
  for (const text of texts) {
    assert.ok(!text.includes(SECRET_TOKEN), `the token leaked into: ${text.slice(0, 200)}`);
  }
}

/** An undici Agent whose sockets are counted, so a test can prove none is left open. */
export interface CountingAgent {
  readonly agent: Agent;
  /** Sockets connected and not yet closed. */
  open(): number;
  /** Sockets ever connected. */
  opened(): number;
  /** Sockets closed so far (by either end). */
  closed(): number;
  /** Bytes received so far over all its sockets, open and closed (headers included). */
  received(): number;
  /** Requests the agent still has running, pending or queued, over all origins. */
  busy(): number;
  /**
   * Requests handed to the agent so far whose path includes `part`: counted as the client sends
   * them, so a test never depends on when they reach the platform.
   */
  sent(part: string): number;
}

export function countingAgent(timeouts: { headersMs: number; bodyMs: number }): CountingAgent {
  const sockets = new Set<Socket>();
  let opened = 0;
  let closed = 0;
  let receivedByClosed = 0;
  const connect = buildConnector({ timeout: 2_000 });
  const agent = new Agent({
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    connect: (options, callback) => {
      connect(options, (...args) => {
        const socket = args[1];
        if (socket) {
          opened++;
          sockets.add(socket);
          socket.once('close', () => {
            closed++;
            receivedByClosed += socket.bytesRead;
            sockets.delete(socket);
          });
        }
        callback(...args);
      });
    },
  });
  const paths: string[] = [];
  const dispatch = agent.dispatch.bind(agent);
  agent.dispatch = (options, handler) => {
    paths.push(String(options.path));
    return dispatch(options, handler);
  };
  return {
    agent,
    sent: (part) => paths.filter((path) => path.includes(part)).length,
    open: () => sockets.size,
    opened: () => opened,
    closed: () => closed,
    received: () => [...sockets].reduce((sum, socket) => sum + socket.bytesRead, receivedByClosed),
    busy: () => Object.values(agent.stats).reduce((sum, s) => sum + s.size, 0),
  };
}

/** Resolves once `condition` holds, or fails with `what` after `ms`. */
export async function eventually(condition: () => boolean, what: string, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`not reached within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Collects unhandled rejections while installed. `check()` waits a few turns of the event loop
 * (so late rejections surface) and fails if any happened.
 */
export function rejectionGuard(): { install(): void; check(): Promise<void>; uninstall(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown): void => {
    seen.push(reason);
  };
  return {
    install: () => {
      seen.length = 0;
      process.on('unhandledRejection', listener);
    },
    async check() {
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(
        seen.map((r) => (r instanceof Error ? `${r.name}: ${r.message}` : String(r))),
        [],
        'unhandled rejections',
      );
    },
    uninstall: () => {
      process.off('unhandledRejection', listener);
    },
  };
}

/** Open TCP handles of this process (client and server ends alike), from Node's own bookkeeping. */
export function tcpSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
}
