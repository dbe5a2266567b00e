/**
 * The local platform server for the benchmark, in its own process. Not in the bench process
 * because there its 100 000 wire findings would sit in the heap being measured, and its
 * JSON.stringify of every page would take turns on the one thread whose time is measured.
 *
 * Started by server.ts with an IPC channel: sends one {@link ServerReady} message, and exits
 * when the channel closes, so it never outlives the bench (not even one that crashed).
 */
import { generateDeployment, startPlatformServer, type GenerateOptions } from '../platform/index';
import { hostBenchDeployment, LATENCY_BENCH, moveCodeFindings } from './host-data';
import type { ServerReady } from './server';

async function main(): Promise<void> {
  // Without the channel nothing would ever stop this server.
  if (!process.send) throw new Error('server-child.ts is started by test/bench/server.ts (it needs an IPC channel)');
  const options = JSON.parse(process.argv[2] ?? '{}') as GenerateOptions & { hostBenchCommit?: string; latencyProject?: string };
  // `npm run bench:host` asks for its own deployments: one big project among 241, and for the
  // latency figures 10 000 findings of the same project among 5 000.
  const bench = !options.hostBenchCommit
    ? undefined
    : options.latencyProject
      ? hostBenchDeployment(options.hostBenchCommit, LATENCY_BENCH, options.latencyProject)
      : hostBenchDeployment(options.hostBenchCommit);
  const data = bench?.data ?? generateDeployment(options);
  const platform = await startPlatformServer({ data, host: '127.0.0.1' });
  process.once('disconnect', () => {
    platform.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  // The parent may change the latency between measurements, and narrow the findings to one file
  // (to compare typing with 50 000 diagnostics shown and with that file's alone).
  const everything = { sast: data.sast, sca: data.sca };
  process.on('message', (message: unknown) => {
    if (typeof message === 'object' && message !== null && 'onlyFile' in message) {
      const only = (message as { onlyFile: string | null }).onlyFile;
      data.sast = only === null ? everything.sast : everything.sast.filter((f) => f.location?.file_path === only);
      data.sca = only === null ? everything.sca : [];
      process.send?.({ onlyFileSet: only });
    }
    // The longest chain of requests that waited for each other, counted from a mark.
    if (typeof message === 'object' && message !== null && 'markRoundTrips' in message) {
      platform.roundTrips.mark();
      process.send?.({ roundTripsMarked: true });
    }
    // What a new scan changes between two refreshes.
    if (typeof message === 'object' && message !== null && 'moveFindings' in message) {
      const { count, round } = (message as { moveFindings: { count: number; round: number } }).moveFindings;
      process.send?.({ findingsMoved: moveCodeFindings(data, count, round) });
    }
    if (typeof message === 'object' && message !== null && 'roundTrips' in message) process.send?.({ roundTripsAre: platform.roundTrips.report() });
    if (typeof message === 'object' && message !== null && typeof (message as { latencyMs?: unknown }).latencyMs === 'number') {
      platform.setLatency((message as { latencyMs: number }).latencyMs);
      process.send?.({ latencySet: (message as { latencyMs: number }).latencyMs });
    }
  });
  const ready: ServerReady = {
    url: platform.url,
    token: platform.token,
    deploymentSlug: data.deployment.slug,
    sast: data.sast.length,
    sca: data.sca.length,
    ...(bench ? { project: bench.project } : {}),
  };
  process.send(ready);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
