/**
 * What a triage is and what it does to a finding, before any request: the platform's limits and
 * its states and reasons, the check that refuses a triage the platform would refuse (in English
 * for the automation contract and the agent, in the display language for the user), the change
 * a triage makes to the findings list, and the triage that puts a finding back for Undo. Pure:
 * the triage service sends what passes, and the host's request schema checks with the same rule.
 */
import { formatNumber, said, type Said } from '../l10n';
import type { Finding, TriageReason } from '../model/types';
import type { TriageState } from '../model/triage-and-tickets';
import type { FindingChange } from './finding-patches';

/** The platform's limits: ids per triage request, characters per note, ids per ticket request. */
export const TRIAGE_BATCH = 3000;
export const MAX_NOTE_LENGTH = 3000;
export const TICKET_BATCH = 20;

export const TRIAGE_REASONS: readonly TriageReason[] = ['false_positive', 'acceptable_risk', 'no_time', 'duplicate', 'no_triage_reason'];
export const TRIAGE_STATES: readonly TriageState[] = ['ignored', 'reviewing', 'fixing', 'reopened'];

export interface TriageInput {
  readonly state?: TriageState;
  readonly reason?: TriageReason;
  readonly note?: string;
}

/** What is wrong with a triage before it is sent, or undefined; in both languages. */
export function sayTriageProblem(ids: readonly number[], input: TriageInput): Said | undefined {
  if (ids.length === 0) return said('Choose at least one finding to triage.');
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 0)) return said('Finding ids are whole numbers.');
  if (input.state === undefined && (input.note === undefined || input.note.trim() === '')) return said('Give a state or a note.');
  if (input.state !== undefined && !TRIAGE_STATES.includes(input.state))
    return said('"{0}" is not a triage state ({1}).', String(input.state), TRIAGE_STATES.join(', '));
  if (input.reason !== undefined && input.state !== 'ignored') return said('A reason goes only with "{0}".', 'ignored');
  if (input.reason !== undefined && !TRIAGE_REASONS.includes(input.reason))
    return said('"{0}" is not a triage reason ({1}).', String(input.reason), TRIAGE_REASONS.join(', '));
  if (input.note !== undefined && input.note.length > MAX_NOTE_LENGTH) {
    return said('The note has {0} characters; the platform takes at most {1}.', countSaid(input.note.length), countSaid(MAX_NOTE_LENGTH));
  }
  return undefined;
}

/** What is wrong with a triage before it is sent, or undefined: in English, as the automation contract and the agent read it. */
export const triageProblem = (ids: readonly number[], input: TriageInput): string | undefined => sayTriageProblem(ids, input)?.english;

/** A count in a sentence: grouped as before in English (1,234), as the display language groups it for the user. */
export const countSaid = (n: number): Said => ({ english: n.toLocaleString('en-US'), text: formatNumber(n) });

/** The change a triage makes to the findings list (docs/platform-api.md, "Triage and tickets"). */
export function triageChange(input: TriageInput): FindingChange {
  const note = input.note !== undefined && input.note.trim() !== '' ? { triageComment: input.note } : {};
  switch (input.state) {
    case 'ignored':
      return { status: 'ignored', triageReason: input.reason ?? 'no_triage_reason', ...note };
    case 'reviewing':
      return { status: 'reviewing', ...note };
    case 'fixing':
      return { status: 'fixing', ...note };
    case 'reopened':
      return { status: 'open', triageReason: null, ...note };
    default:
      return note;
  }
}

/** The triage that puts a finding back as it was (for Undo); undefined for a state triage cannot set. */
export function stateToRestore(finding: Finding): TriageInput | undefined {
  switch (finding.status) {
    case 'open':
      return { state: 'reopened' };
    case 'ignored':
      return { state: 'ignored', reason: finding.triageReason ?? 'no_triage_reason' };
    case 'reviewing':
      return { state: 'reviewing' };
    case 'fixing':
      return { state: 'fixing' };
    default:
      return undefined;
  }
}
