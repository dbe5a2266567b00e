/**
 * For `npm run bench:host` only: with APPSEC_PROFILE_ACTIVATION=1 in the extension host's
 * environment, a CPU profile of `activate`, so the benchmark can say where activation's time
 * goes. An inspector session in the same thread answers synchronously, so starting and stopping
 * it brackets `activate` exactly. Off (and costing nothing) otherwise.
 */
import { Session } from 'node:inspector';

export interface ActivationProfiler {
  /** Stops profiling; the V8 CPU profile taken. */
  stop(): unknown;
}

export function startActivationProfile(env: NodeJS.ProcessEnv): ActivationProfiler | undefined {
  if (env.APPSEC_PROFILE_ACTIVATION !== '1') return undefined;
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 100 });
  session.post('Profiler.start');
  return {
    stop: () => {
      let profile: unknown;
      session.post('Profiler.stop', (_error, result) => {
        profile = result?.profile;
      });
      session.disconnect();
      return profile;
    },
  };
}
