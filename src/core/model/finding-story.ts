/**
 * One finding's whole story, from the platform's single-finding call (API v2, experimental;
 * docs/platform-api.md, "One finding's story and its fix"): how tainted data reaches it, where
 * else the same finding is, what happened to it, who owns its code and what the token's user may
 * do with it. The call may leave out any member: one that was not sent is absent here, never
 * guessed.
 */
import type { Unavailable } from './errors';
import type { Open, SourceRange } from './types';

/** Where a place stands in the trace: where the taint comes from, a variable it passes through, where it lands. */
export type TraceRole = 'source' | 'step' | 'sink';

/** One place of a dataflow trace. */
export interface TraceStep {
  readonly role: TraceRole;
  /** 1-based lines and columns, like a finding's location, so the same placement applies. */
  readonly range: SourceRange;
  /** Character offsets into the file, when the platform sent them. */
  readonly startOffset?: number;
  readonly endOffset?: number;
  /** The code at this place, when the platform sent it. */
  readonly content?: string;
  /** The platform's link to this place on the code host. */
  readonly locationUrl?: string;
}

/** What became of the same finding on another branch or pull request (`AGGREGATE_ISSUE_STATE_…`, lower-cased). */
export type ElsewhereState = Open<
  'open' | 'fixed' | 'removed' | 'ignored_app' | 'ignored_code' | 'unknown' | 'reviewing' | 'fixing' | 'provisionally_ignored_app'
>;

/** The same finding (same `match_based_id`) on another ref. */
export interface Elsewhere {
  readonly id: number;
  readonly ref?: string;
  readonly pullRequestId?: string;
  readonly state?: ElsewhereState;
  readonly createdAt?: Date;
}

/** The platform's `HISTORY_TYPE_…` names and the kinds they are read as; anything else is `other`. */
export const ACTIVITY_KIND_OF = {
  STATUS: 'status',
  TRIAGE: 'triage',
  AUTOTRIAGE: 'autotriage',
  AUTOTRIAGE_FEEDBACK: 'autotriageFeedback',
  AI_TAG: 'aiTag',
  ANALYSIS_STARTED: 'analysisStarted',
  REVIEW_COMMENT_SILENCED: 'reviewCommentSilenced',
  TICKET_CREATED: 'ticketCreated',
  TICKET_ATTEMPTED: 'ticketAttempted',
  GUIDANCE_REGENERATION: 'guidanceRegeneration',
  SCM_MENTION: 'scmMention',
  CLICK_TO_FIX_PR_REQUESTED: 'fixPrRequested',
  CLICK_TO_FIX_PR_OPENED: 'fixPrOpened',
  CLICK_TO_FIX_PR_FAILED: 'fixPrFailed',
  CLICK_TO_FIX_PR_MERGED: 'fixPrMerged',
  EXCEPTION_REQUEST_CREATED: 'exceptionRequested',
  EXCEPTION_REQUEST_APPROVED: 'exceptionApproved',
  EXCEPTION_REQUEST_REJECTED: 'exceptionRejected',
} as const;

/** A closed set: a kind the platform adds later is `other`, with its name kept in `rawType`. */
export type ActivityKind = (typeof ACTIVITY_KIND_OF)[keyof typeof ACTIVITY_KIND_OF] | 'other';

/** One event of the finding's history. */
export interface ActivityEntry {
  readonly kind: ActivityKind;
  /** The platform's own name of the event's type, kept for `other` (absent when none was sent). */
  readonly rawType?: string;
  readonly date?: Date;
  readonly title?: string;
  readonly triageReason?: string;
  readonly note?: string;
  /** Who did it, by name. */
  readonly actor?: string;
}

/** An owner of the code the finding is in. */
export interface CodeOwner {
  readonly id?: string;
  readonly name: string;
  readonly isTeam: boolean;
}

/** What the token's user may do: ignore the finding, only request an exception, or neither. */
export type TriagePermission = Open<'ignore' | 'request' | 'none'>;
export type ExceptionState = Open<'requested' | 'approved' | 'rejected'>;

export interface FindingStory {
  /** The finding's id as the answer gave it. */
  readonly id?: number;
  /**
   * Source(s), then the variables the taint passes through, then the sink(s). Absent when the
   * answer has no trace (most findings: rules without taint mode, supply chain, secrets).
   */
  readonly trace?: readonly TraceStep[];
  readonly elsewhere?: readonly Elsewhere[];
  /** Oldest first, as sent. */
  readonly activity?: readonly ActivityEntry[];
  /** The finding blocks pull requests. Absent when not said (the platform leaves out `false`). */
  readonly isBlocking?: boolean;
  readonly codeOwners?: readonly CodeOwner[];
  readonly triagePermission?: TriagePermission;
  readonly exceptionState?: ExceptionState;
  /** The fix pull request the platform opened for it. */
  readonly fixPullRequest?: { readonly url?: string; readonly id?: string };
  /** The commit that introduced the finding. */
  readonly commitUrl?: string;
  readonly firstDetectedAt?: Date;
  readonly ruleDisplayName?: string;
  readonly codeSnippets?: readonly { readonly path: string; readonly content: string }[];
  /** Members and entries the answer had but that could not be read: left out, counted here. */
  readonly skipped: number;
}

/**
 * The answer of the single-finding call: the story, or the call refused as a deployment without
 * it refuses (400, 403, 404): not an error, the story is just not there to tell.
 */
export type FindingStoryAnswer =
  { readonly kind: 'story'; readonly story: FindingStory } | { readonly kind: 'notAvailable'; readonly unavailable: Unavailable };

export type FixPullRequestState = 'none' | 'requested' | 'opened' | 'failed' | 'merged';

/** Where the finding's fix pull request stands, as its story tells it. */
export interface FixPullRequest {
  readonly state: FixPullRequestState;
  readonly url?: string;
  /** When the latest event about it happened. */
  readonly at?: Date;
  /** Why it failed, in the platform's words, when it did. */
  readonly reason?: string;
}

const FIX_STATE_OF: Partial<Record<ActivityKind, FixPullRequestState>> = {
  fixPrRequested: 'requested',
  fixPrOpened: 'opened',
  fixPrFailed: 'failed',
  fixPrMerged: 'merged',
};

/**
 * The fix pull request's state: the latest fix event of the history (sent oldest first) decides;
 * a pull request link without any fix event (a history left out) reads as opened.
 */
export function fixPullRequestOf(story: FindingStory): FixPullRequest {
  const url = story.fixPullRequest?.url;
  let latest: { state: FixPullRequestState; entry: ActivityEntry } | undefined;
  for (const entry of story.activity ?? []) {
    const state = FIX_STATE_OF[entry.kind];
    if (state) latest = { state, entry };
  }
  const state = latest?.state ?? (url ? 'opened' : 'none');
  const reason = state === 'failed' ? (latest?.entry.note ?? latest?.entry.title) : undefined;
  return { state, ...(url ? { url } : {}), ...(latest?.entry.date ? { at: latest.entry.date } : {}), ...(reason ? { reason } : {}) };
}
