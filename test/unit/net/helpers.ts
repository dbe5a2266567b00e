// Shared by the network tests: a log that records lines, a client on a given dispatcher, and a
// small platform deployment. Not a test file.
import type { Dispatcher } from 'undici';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError, type PlatformErrorReason } from '../../../src/core/model/errors';
import type { NetLog } from '../../../src/core/net/dispatcher';
import { generateDeployment } from '../../platform/generator';
import type { PlatformData } from '../../platform/types';

export interface RecordingLog extends NetLog {
  readonly lines: string[];
  text(): string;
}

export function recordingLog(): RecordingLog {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m, e) => lines.push(`error ${m}${e instanceof Error ? `: ${e.message}` : ''}`),
    text: () => lines.join('\n'),
  };
}

/** The real client, with test-speed retries, on the dispatcher under test. */
export function clientOn(baseUrl: string, token: string, dispatcher: Dispatcher): PlatformClient {
  return new PlatformClient({
    baseUrl,
    extensionVersion: '0.0.0-test',
    getToken: () => Promise.resolve(token),
    dispatcher,
    retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 5_000 },
    timeouts: { headersMs: 5_000, bodyMs: 5_000 },
  });
}

export function smallDeployment(): PlatformData {
  return generateDeployment({ seed: 5, projects: 2, sastPerProject: 5, scaPerProject: 2, policies: 1, rulesPerPolicy: 3 });
}

/** Awaits a rejection and returns the PlatformError, failing with its message if the reason differs. */
export async function platformError(promise: Promise<unknown>, reason: PlatformErrorReason): Promise<PlatformError> {
  try {
    await promise;
  } catch (e) {
    if (!PlatformError.is(e)) throw e;
    if (e.reason !== reason) throw new Error(`expected reason ${reason}, got ${e.reason}: ${e.message}`);
    return e;
  }
  throw new Error(`expected a ${reason} error, but the call succeeded`);
}
