/**
 * A finding's story in the words the details panel, the hover and the agent share: where else the
 * same finding is and in what state ("fixed on feature/login", "open in pull request #12"), each
 * event of its history, its code owners, what the user may do and where its fix pull request
 * stands. Pure; platform text stays as sent (the callers escape or quote it). Each `say…` takes
 * how to say its words (`t` for the user); the `…Text` functions say them in English, for the
 * agent's text, which stays English by rule.
 */
import type { ActivityEntry, ActivityKind, CodeOwner, Elsewhere, ExceptionState, FixPullRequest, TriagePermission } from '../model/finding-story';
import { branchName } from '../model/refs';
import { english, type Say } from '../l10n';
import { valueLabel } from './filters';

/** A state of the same finding elsewhere, as a phrase; undefined for a state added later. */
function stateWords(state: string, t: Say): string | undefined {
  switch (state) {
    case 'open':
      return t('open');
    case 'fixed':
      return t('fixed');
    case 'removed':
      return t('removed');
    case 'ignored_app':
      return t('ignored');
    case 'ignored_code':
      return t('ignored in the code (nosemgrep)');
    case 'reviewing':
      return t('being reviewed');
    case 'fixing':
      return t('being fixed');
    case 'provisionally_ignored_app':
      return t('provisionally ignored');
    case 'unknown':
      return t('in an unknown state');
    default:
      return undefined;
  }
}

/** "fixed on feature/login", "open in pull request #12", "ignored on another branch". */
export function sayElsewhere(e: Elsewhere, t: Say): string {
  const state = e.state === undefined ? t('in an unknown state') : (stateWords(e.state, t) ?? valueLabel(e.state));
  // A pull request's own ref (`refs/pull/12/head`) says nothing its number does not.
  const branch = e.ref && !e.ref.startsWith('refs/pull/') && !e.ref.startsWith('refs/merge-requests/') ? branchName(e.ref) : undefined;
  if (e.pullRequestId)
    return branch ? t('{0} in pull request #{1} ({2})', state, e.pullRequestId, branch) : t('{0} in pull request #{1}', state, e.pullRequestId);
  return e.ref ? t('{0} on {1}', state, branchName(e.ref)) : t('{0} on another branch', state);
}

/** What each kind of event says when the platform gave it no title. */
function activityWords(kind: ActivityKind, t: Say): string {
  switch (kind) {
    case 'status':
      return t('Its status changed');
    case 'triage':
      return t('Triaged');
    case 'autotriage':
      return t('The assistant gave its verdict');
    case 'autotriageFeedback':
      return t("Someone rated the assistant's verdict");
    case 'aiTag':
      return t('The assistant tagged it');
    case 'analysisStarted':
      return t('The assistant started looking at it');
    case 'reviewCommentSilenced':
      return t('Its pull request comment was silenced');
    case 'ticketCreated':
      return t('A ticket was created');
    case 'ticketAttempted':
      return t('A ticket could not be created');
    case 'guidanceRegeneration':
      return t('The assistant wrote its guidance again');
    case 'scmMention':
      return t('Mentioned on the code host');
    case 'fixPrRequested':
      return t('A fix pull request was asked for');
    case 'fixPrOpened':
      return t('A fix pull request was opened');
    case 'fixPrFailed':
      return t('A fix pull request could not be made');
    case 'fixPrMerged':
      return t('The fix pull request was merged');
    case 'exceptionRequested':
      return t('An exception was requested');
    case 'exceptionApproved':
      return t('The exception was approved');
    case 'exceptionRejected':
      return t('The exception was rejected');
    case 'other':
      return t('Something happened');
  }
}

export interface ActivityLine {
  readonly date?: Date;
  /** What happened: the platform's title, else our words for its kind. */
  readonly text: string;
  /** Who did it, and the reason and note they gave. */
  readonly actor?: string;
  readonly reason?: string;
  readonly note?: string;
}

export function sayActivity(entry: ActivityEntry, t: Say): ActivityLine {
  const fallback = entry.kind === 'other' && entry.rawType ? t('Something happened ({0})', entry.rawType) : activityWords(entry.kind, t);
  return {
    text: entry.title?.trim() || fallback,
    ...(entry.date ? { date: entry.date } : {}),
    ...(entry.actor ? { actor: entry.actor } : {}),
    ...(entry.triageReason ? { reason: valueLabel(entry.triageReason) } : {}),
    ...(entry.note ? { note: entry.note } : {}),
  };
}

/** "acme/api-maintainers (team), Dana Whitfield". */
export function sayOwners(owners: readonly CodeOwner[] | undefined, t: Say): string | undefined {
  if (!owners || owners.length === 0) return undefined;
  return owners.map((o) => (o.isTeam ? t('{0} (team)', o.name) : o.name)).join(', ');
}

/**
 * What the user may not do, said where Ignore would be offered: nothing when they may ignore it
 * (or the platform did not say).
 */
export function sayTriageLimit(permission: TriagePermission | undefined, exception: ExceptionState | undefined, t: Say): string | undefined {
  const limit =
    permission === 'request'
      ? t('Your role may not ignore this finding, only request an exception, which is done in the platform.')
      : permission === 'none'
        ? t('Your role may not ignore this finding or request an exception for it.')
        : undefined;
  if (limit === undefined) return undefined;
  const pending =
    exception === 'requested' ? t('An exception is already requested.') : exception === 'rejected' ? t('An exception was requested and rejected.') : undefined;
  return pending ? `${limit} ${pending}` : limit;
}

/** Whether Ignore would work for the user: not when the platform said they may only request an exception, or nothing. */
export function mayIgnore(permission: TriagePermission | undefined): boolean {
  return permission !== 'request' && permission !== 'none';
}

/** "asked for; the platform opens it once the fix is written", "open", "failed: …", "merged". */
export function sayFixPullRequest(pr: FixPullRequest, t: Say): string | undefined {
  switch (pr.state) {
    case 'requested':
      return t('asked for: the platform opens it once the fix is written');
    case 'opened':
      return t('open');
    case 'merged':
      return t('merged');
    case 'failed':
      return pr.reason ? t('could not be made: {0}', pr.reason) : t('could not be made');
    default:
      return undefined;
  }
}

/** In English, for the agent's text. */
export const elsewhereText = (e: Elsewhere): string => sayElsewhere(e, english);
export const activityLine = (entry: ActivityEntry): ActivityLine => sayActivity(entry, english);
export const ownersText = (owners: readonly CodeOwner[] | undefined): string | undefined => sayOwners(owners, english);
export const triageLimitText = (permission: TriagePermission | undefined, exception?: ExceptionState): string | undefined =>
  sayTriageLimit(permission, exception, english);
export const fixPullRequestText = (pr: FixPullRequest): string | undefined => sayFixPullRequest(pr, english);
