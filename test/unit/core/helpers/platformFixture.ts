/**
 * The local platform server (test/platform) with a generated deployment and a client tuned for
 * tests. `usePlatform()` registers the hooks of a test file and returns the live fixture.
 */
import { after, afterEach, before } from 'node:test';
import { PlatformClient, type PlatformClientOptions } from '../../../../src/core/api/client';
import type { WireSastFinding, WireScaFinding } from '../../../platform/wire';
import { generateDeployment, startPlatformServer, type RunningPlatform } from '../../../platform/index';

export interface PlatformFixture {
  platform: RunningPlatform;
  client: PlatformClient;
  makeClient(extra?: Partial<PlatformClientOptions>): PlatformClient;
  readonly sastById: Map<number, WireSastFinding>;
  readonly scaById: Map<number, WireScaFinding>;
  slug(): string;
  deploymentId(): string;
}

export function usePlatform(): PlatformFixture {
  const fixture: PlatformFixture = {
    platform: undefined as unknown as RunningPlatform,
    client: undefined as unknown as PlatformClient,
    makeClient: (extra = {}) =>
      new PlatformClient({
        baseUrl: fixture.platform.url,
        extensionVersion: '9.9.9',
        getToken: () => Promise.resolve(fixture.platform.token),
        retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, totalBudgetMs: 3_000 },
        timeouts: { headersMs: 300, bodyMs: 300 },
        ...extra,
      }),
    sastById: new Map(),
    scaById: new Map(),
    slug: () => fixture.platform.data.deployment.slug,
    deploymentId: () => String(fixture.platform.data.deployment.id),
  };
  void before(async () => {
    const data = generateDeployment({ seed: 7, projects: 5, sastPerProject: 80, scaPerProject: 40, refsPerProject: 2, policies: 2, rulesPerPolicy: 25 });
    fixture.platform = await startPlatformServer({ data, sbomPollsUntilDone: 1 });
    fixture.client = fixture.makeClient();
    for (const f of data.sast) fixture.sastById.set(f.id ?? -1, f);
    for (const f of data.sca) fixture.scaById.set(f.id ?? -1, f);
  });
  void after(async () => {
    await fixture.client.close();
    await fixture.platform.close();
  });
  void afterEach(() => {
    fixture.platform.faults.clear();
    fixture.platform.requests.length = 0;
  });
  return fixture;
}
