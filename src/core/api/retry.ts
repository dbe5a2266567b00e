import { PlatformError, cancelledError } from '../model/errors';
import { isTransientNetworkError } from './transportErrors';

/** How hard to try again. Injectable so tests run with millisecond delays. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  readonly maxRetries: number;
  /** Backoff ceiling of the first retry; doubles on each retry up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Wall-clock budget of all attempts and waits together. */
  readonly totalBudgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 500,
  maxDelayMs: 15_000,
  totalBudgetMs: 60_000,
};

export interface RetryEnvironment {
  readonly policy: RetryPolicy;
  /** In [0, 1), like Math.random; injected so jitter is deterministic in tests. */
  readonly random: () => number;
  readonly now: () => number;
  /** Told before each wait for another attempt (for the log): what failed, and how long until the next try. */
  readonly onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  readonly method: HttpMethod;
  /** The attempt that failed, from 1. */
  readonly attempt: number;
  readonly maxAttempts: number;
  readonly delayMs: number;
  readonly error: PlatformError;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Whether another attempt is safe and useful. A read changes nothing on the server, so any
 * transient failure is repeated: every GET is one, and so is a request marked `idempotent` (a
 * POST that only reads, such as the inventory's lists, whose query is in the body). Any other
 * POST is never repeated: after a 502 the job may already exist. A timeout or a cut-off answer
 * is repeated only for a read; a PUT, PATCH or DELETE (each sets a state, so
 * sending it twice does no harm) is repeated on a status that says it was not carried out.
 */
export function isRetryable(e: PlatformError, method: HttpMethod, idempotent = false): boolean {
  const read = idempotent || method === 'GET';
  if (method === 'POST' && !read) {
    return false;
  }
  // JSON cut off mid-way (a dropped connection that still ended the message) is transient.
  if (e.reason === 'invalidResponse' && e.cause instanceof SyntaxError) {
    return read;
  }
  if (e.status !== undefined) {
    return RETRYABLE_STATUSES.has(e.status);
  }
  if (e.reason === 'timeout') {
    return read;
  }
  return isTransientNetworkError(e);
}

/**
 * Runs `attempt` until it succeeds or a failure is final ({@link isRetryable}; `idempotent` says
 * the request only reads, whatever its method). Waits with exponential backoff and full jitter, or exactly the service's `Retry-After` when it sent one; gives up with the last error
 * when the attempts or the time budget run out.
 */
export async function withRetries<T>(
  method: HttpMethod,
  env: RetryEnvironment,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  idempotent = false,
): Promise<T> {
  const deadline = env.now() + env.policy.totalBudgetMs;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (e) {
      if (!PlatformError.is(e) || !isRetryable(e, method, idempotent) || retry >= env.policy.maxRetries) {
        throw e;
      }
      const remaining = deadline - env.now();
      const delay = e.retryAfterMs ?? backoffDelay(retry, env);
      if (delay > remaining) {
        // Waiting longer than the budget would only hide the failure; the caller gets the wait.
        throw e;
      }
      env.onRetry?.({ method, attempt: retry + 1, maxAttempts: env.policy.maxRetries + 1, delayMs: delay, error: e });
      await sleep(delay, signal);
    }
  }
}

/** Full jitter: a uniform wait in [0, min(max, base·2^retry)), which spreads clients apart. */
export function backoffDelay(retry: number, env: RetryEnvironment): number {
  const ceiling = Math.min(env.policy.maxDelayMs, env.policy.baseDelayMs * 2 ** retry);
  return Math.floor(env.random() * ceiling);
}

/** A wait that ends at once, with a `cancelled` error, when the signal aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(cancelledError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
