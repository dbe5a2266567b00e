/**
 * The one order of severities, most severe first: the tree's groups, the status bar's counts,
 * the "new findings" message, the agent's lists and the filter picker all read it from here, so
 * they never disagree about what comes first.
 */
import type { Severity } from './types';

/** The severities the platform documents, most severe first. */
export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low'];

/** True for a severity of {@link SEVERITY_ORDER}; the service may send others, kept as they came. */
export function isKnownSeverity(severity: string): boolean {
  return SEVERITY_ORDER.includes(severity);
}

/**
 * A severity's place for sorting, lower first: 0 for critical. A severity the platform added
 * since (or none) sorts after every known one, so a surprise never hides a critical finding.
 */
export function severityRank(severity: string): number {
  const index = SEVERITY_ORDER.indexOf(severity);
  return index < 0 ? SEVERITY_ORDER.length : index;
}
