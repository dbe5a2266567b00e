// What activation cost, read by the in-host benchmark (figure (f)) from outside the extension:
// the extension's registration loop leaves User Timing measures in the extension host's
// performance timeline (`src/host/registrations.ts`), which this suite shares. With
// APPSEC_PROFILE_ACTIVATION=1 the bench's build wraps `activate` in a CPU profile
// (`test/integration/profiled-extension.ts`), left as the detail of a mark read here.
import { ACTIVATION_MEASURE } from '../../../src/host/registrations';

/** The mark whose detail is the CPU profile of `activate` (profiled builds only). */
export const ACTIVATION_PROFILE_MARK = 'appsecFindings.activate.profile';

export interface ActivationCost {
  readonly ms: number;
  readonly cpuMs: number;
  /** Each feature's registration and when it ended, in ms from the start of `activate`'s list. */
  readonly phases: readonly (readonly [name: string, endMs: number])[];
  /** The V8 CPU profile of `activate`, when the bench's build took one. */
  readonly profile: unknown;
}

/** The last activation's cost, as its measures say; throws when there are none (the extension never activated). */
export function activationCost(): ActivationCost {
  const whole = performance.getEntriesByName(ACTIVATION_MEASURE, 'measure').at(-1);
  if (!whole) throw new Error(`no "${ACTIVATION_MEASURE}" measure: the extension has not activated in this host`);
  const end = whole.startTime + whole.duration;
  const phases = performance
    .getEntriesByType('measure')
    .filter((e) => e.name.startsWith(`${ACTIVATION_MEASURE}: `) && e.startTime >= whole.startTime && e.startTime <= end)
    .map((e) => [e.name.slice(ACTIVATION_MEASURE.length + 2), e.startTime + e.duration - whole.startTime] as const);
  const detail = detailOf(whole) as { readonly cpuMs?: unknown } | null | undefined;
  return {
    ms: whole.duration,
    cpuMs: typeof detail?.cpuMs === 'number' ? detail.cpuMs : Number.NaN,
    phases,
    profile: detailOf(performance.getEntriesByName(ACTIVATION_PROFILE_MARK, 'mark').at(-1)),
  };
}

/** A mark's or a measure's `detail` (a plain `PerformanceEntry` in the types). */
function detailOf(entry: unknown): unknown {
  return (entry as { readonly detail?: unknown } | undefined)?.detail;
}
