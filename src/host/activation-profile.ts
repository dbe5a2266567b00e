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

/** What activation cost, for the benchmark: wall and CPU time, the time each phase ended, and the profile. */
export interface ActivationTiming {
  readonly activationMs: number;
  /** CPU time next to wall time: at start-up the workbench and other extensions compete for the CPU. */
  readonly activationCpuMs: number;
  readonly activationPhases: readonly (readonly [string, number])[];
  readonly activationProfile: unknown;
}

/** Starts timing activation: `phaseDone` marks where each phase ends, `finish` says what it all cost. */
export function timeActivation(env: NodeJS.ProcessEnv): { readonly phaseDone: (name: string) => void; readonly finish: () => ActivationTiming } {
  const profiler = startActivationProfile(env);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const phases: [string, number][] = [];
  return {
    phaseDone: (name) => void phases.push([name, performance.now() - start]),
    finish: () => {
      const activationMs = performance.now() - start;
      const cpu = process.cpuUsage(cpuStart);
      return { activationMs, activationCpuMs: (cpu.user + cpu.system) / 1000, activationPhases: phases, activationProfile: profiler?.stop() };
    },
  };
}
