/**
 * A finding's story in the words the details panel, the hover and the agent share: where else the
 * same finding is and in what state ("fixed on feature/login", "open in pull request #12"), each
 * event of its history, its code owners, what the user may do and where its fix pull request
 * stands. Pure; platform text stays as sent (the callers escape or quote it).
 */
import type { ActivityEntry, ActivityKind, CodeOwner, Elsewhere, ExceptionState, FixPullRequest, TriagePermission } from '../model/finding-story';
import { branchName } from '../model/refs';
import { valueLabel } from './filters';

const STATE_WORDS: Readonly<Record<string, string>> = {
  open: 'open', fixed: 'fixed', removed: 'removed', ignored_app: 'ignored', ignored_code: 'ignored in the code (nosemgrep)',
  reviewing: 'being reviewed', fixing: 'being fixed', provisionally_ignored_app: 'provisionally ignored', unknown: 'in an unknown state',
};

/** "fixed on feature/login", "open in pull request #12", "ignored on another branch". */
export function elsewhereText(e: Elsewhere): string {
  const state = e.state === undefined ? 'in an unknown state' : STATE_WORDS[e.state] ?? valueLabel(e.state);
  // A pull request's own ref (`refs/pull/12/head`) says nothing its number does not.
  const branch = e.ref && !e.ref.startsWith('refs/pull/') && !e.ref.startsWith('refs/merge-requests/') ? branchName(e.ref) : undefined;
  if (e.pullRequestId) return `${state} in pull request #${e.pullRequestId}${branch ? ` (${branch})` : ''}`;
  return `${state} on ${e.ref ? branchName(e.ref) : 'another branch'}`;
}

/** What each kind of event says when the platform gave it no title. */
const ACTIVITY_WORDS: Readonly<Record<ActivityKind, string>> = {
  status: 'Its status changed',
  triage: 'Triaged',
  autotriage: 'The assistant gave its verdict',
  autotriageFeedback: 'Someone rated the assistant\'s verdict',
  aiTag: 'The assistant tagged it',
  analysisStarted: 'The assistant started looking at it',
  reviewCommentSilenced: 'Its pull request comment was silenced',
  ticketCreated: 'A ticket was created',
  ticketAttempted: 'A ticket could not be created',
  guidanceRegeneration: 'The assistant wrote its guidance again',
  scmMention: 'Mentioned on the code host',
  fixPrRequested: 'A fix pull request was asked for',
  fixPrOpened: 'A fix pull request was opened',
  fixPrFailed: 'A fix pull request could not be made',
  fixPrMerged: 'The fix pull request was merged',
  exceptionRequested: 'An exception was requested',
  exceptionApproved: 'The exception was approved',
  exceptionRejected: 'The exception was rejected',
  other: 'Something happened',
};

export interface ActivityLine {
  readonly date?: Date;
  /** What happened: the platform's title, else our words for its kind. */
  readonly text: string;
  /** Who did it, and the reason and note they gave. */
  readonly actor?: string;
  readonly reason?: string;
  readonly note?: string;
}

export function activityLine(entry: ActivityEntry): ActivityLine {
  const fallback = entry.kind === 'other' && entry.rawType ? `${ACTIVITY_WORDS.other} (${entry.rawType})` : ACTIVITY_WORDS[entry.kind];
  return {
    text: entry.title?.trim() || fallback,
    ...(entry.date ? { date: entry.date } : {}),
    ...(entry.actor ? { actor: entry.actor } : {}),
    ...(entry.triageReason ? { reason: valueLabel(entry.triageReason) } : {}),
    ...(entry.note ? { note: entry.note } : {}),
  };
}

/** "acme/api-maintainers (team), Dana Whitfield". */
export function ownersText(owners: readonly CodeOwner[] | undefined): string | undefined {
  if (!owners || owners.length === 0) return undefined;
  return owners.map((o) => (o.isTeam ? `${o.name} (team)` : o.name)).join(', ');
}

/**
 * What the user may not do, said where Ignore would be offered: nothing when they may ignore it
 * (or the platform did not say).
 */
export function triageLimitText(permission: TriagePermission | undefined, exception?: ExceptionState): string | undefined {
  const pending = exception === 'requested' ? ' An exception is already requested.' : exception === 'rejected' ? ' An exception was requested and rejected.' : '';
  if (permission === 'request') return `Your role may not ignore this finding, only request an exception, which is done in the platform.${pending}`;
  if (permission === 'none') return `Your role may not ignore this finding or request an exception for it.${pending}`;
  return undefined;
}

/** Whether Ignore would work for the user: not when the platform said they may only request an exception, or nothing. */
export function mayIgnore(permission: TriagePermission | undefined): boolean {
  return permission !== 'request' && permission !== 'none';
}

/** "asked for; the platform opens it once the fix is written", "open", "failed: …", "merged". */
export function fixPullRequestText(pr: FixPullRequest): string | undefined {
  switch (pr.state) {
    case 'requested': return 'asked for: the platform opens it once the fix is written';
    case 'opened': return 'open';
    case 'merged': return 'merged';
    case 'failed': return pr.reason ? `could not be made: ${pr.reason}` : 'could not be made';
    default: return undefined;
  }
}
