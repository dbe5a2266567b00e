/**
 * Activation as a list of named feature registrations: each feature's `register…(context, deps)`
 * pushes what it registers to `context.subscriptions` and returns what the features after it use,
 * which joins their `deps`. The composition root only lists the features, in order; the types
 * check that each one finds what it needs among the ones before it.
 *
 * The loop times each registration, since it runs them anyway: one clock read per feature, and
 * the process's CPU time around the whole. The times are User Timing measures
 * (`appsecFindings.activate` and `appsecFindings.activate: <feature>`), which a CPU profile's
 * timeline shows and the in-host benchmark reads (docs/performance.md, "Activation"), and one
 * debug line of the log.
 */
import type * as vscode from 'vscode';

/** One feature's part of activation. */
export type Register<In, Out extends object> = (context: vscode.ExtensionContext, deps: In) => Out;

/** The name of the whole activation's measure; each feature's is this, a colon and its name. */
export const ACTIVATION_MEASURE = 'appsecFindings.activate';

/** What activation cost: wall and CPU time, and each feature's wall time, in order. */
export interface ActivationCost {
  readonly ms: number;
  readonly cpuMs: number;
  readonly features: readonly (readonly [name: string, ms: number])[];
}

/** The features registered so far and what they gave; `add` registers one more, now. */
export interface Registrations<D extends object> {
  add<Out extends object>(name: string, register: Register<D, Out>): Registrations<D & Out>;
  /** Ends activation: measures it, tells `report` what it cost, and gives what every feature gave. */
  done(report?: (cost: ActivationCost, deps: D) => void): D;
}

export function registerFeatures(context: vscode.ExtensionContext): Registrations<object> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const features: [string, number][] = [];
  const next = <D extends object>(deps: D): Registrations<D> => ({
    add: (name, register) => {
      const begun = performance.now();
      const out = register(context, deps);
      const ended = performance.now();
      performance.measure(`${ACTIVATION_MEASURE}: ${name}`, { start: begun, end: ended });
      features.push([name, ended - begun]);
      return next({ ...deps, ...out });
    },
    done: (report) => {
      const end = performance.now();
      const cpu = process.cpuUsage(cpuStart);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      performance.measure(ACTIVATION_MEASURE, { start, end, detail: { cpuMs } });
      report?.({ ms: end - start, cpuMs, features }, deps);
      return deps;
    },
  });
  return next({});
}

/** "12.3 ms (CPU 10.1 ms): services 3.0, problems 2.2, …" */
export function activationText(cost: ActivationCost): string {
  return `${cost.ms.toFixed(1)} ms (CPU ${cost.cpuMs.toFixed(1)} ms): ${cost.features.map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(', ')}`;
}
