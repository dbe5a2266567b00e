/**
 * What triage and the ticket endpoints take and answer (docs/platform-api.md, "Triage and
 * tickets"), as the triage service and its commands work with them.
 */
import type { IssueType, TriageReason } from './types';

/** What triage can set (`new_triage_state`); `reopened` puts a finding back to open. */
export type TriageState = 'ignored' | 'reviewing' | 'fixing' | 'reopened';

/** One triage request: a state and/or a note for findings of one issue type (at most 3 000 ids). */
export interface TriageRequest {
  readonly issueType: IssueType;
  readonly ids: readonly number[];
  readonly state?: TriageState;
  /** Only with `state: 'ignored'`. */
  readonly reason?: TriageReason;
  /** At most 3 000 characters. */
  readonly note?: string;
}

/** The platform's answer: it also triages the same finding on other branches, so more ids may come back. */
export interface TriageResult {
  readonly triaged: number;
  readonly triagedIds: readonly number[];
}

/** One Jira-ticket request (at most 20 ids; the platform groups findings of a rule and repository by default). */
export interface TicketRequest {
  readonly issueType: IssueType;
  readonly ids: readonly number[];
  readonly groupIssues?: boolean;
  readonly jiraProjectId?: string;
}

/** What became of each finding of a ticket request. */
export interface TicketResult {
  readonly succeeded: readonly { readonly ticketId?: string; readonly url?: string; readonly slug?: string; readonly ids: readonly number[] }[];
  readonly failed: readonly { readonly error: string; readonly ids: readonly number[] }[];
  readonly skipped: readonly { readonly reason: string; readonly ids: readonly number[] }[];
}

/** An existing ticket recorded on findings (a finding linked elsewhere gets this one). */
export interface TicketLinkResult {
  readonly ticketId?: string;
  readonly url?: string;
  readonly slug?: string;
  readonly linkedIds: readonly number[];
  readonly replacedIds: readonly number[];
}
