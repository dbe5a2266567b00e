/**
 * Jira tickets for findings: create (the platform groups findings of one rule and repository),
 * link an existing ticket by its URL, unlink. The result for every finding is said: created
 * (with its link), failed (the platform's reason), skipped (why).
 */
import * as vscode from 'vscode';
import { showError, showInformation, showInput, showWarning, withProgress } from '../host/notify';
import { formatCount, t } from '../core/l10n';
import type { TicketLinkResult, TicketResult } from '../core/model/triage-and-tickets';
import { isHttpUrl } from '../core/model/links';
import { id, invalid, listOf, object, oneOf, schema, valid, type Schema } from '../host/schema';
import { ISSUE_TYPES, type IssueType } from '../core/model/types';
import { distinctName } from '../core/model/finding-names';
import { itemOf, type CommandItem } from './command-item';
import { subjectOr as subjectFor, type TriageCommandsDeps } from './triage-commands';

const count = (n: number): string => (n === 1 ? t('{0} finding', formatCount(n)) : t('{0} findings', formatCount(n)));

function nothingChosen(prompt: string): undefined {
  void showInformation(prompt);
  return undefined;
}

/** "Created SEC-12 (2 findings). Skipped 1: already has a ticket." */
export function ticketSummary(result: TicketResult): string {
  const parts: string[] = [];
  if (result.succeeded.length > 0)
    parts.push(t('Created {0}.', result.succeeded.map((k) => `${k.slug ?? k.url ?? t('a ticket')} (${count(k.ids.length)})`).join(', ')));
  for (const failed of result.failed) parts.push(t('Failed for {0}: {1}.', count(failed.ids.length), failed.error));
  for (const skipped of result.skipped) parts.push(t('Skipped {0}: {1}.', count(skipped.ids.length), skipped.reason));
  return parts.length > 0 ? parts.join(' ') : t('The platform created no ticket and said nothing about why.');
}

/** Automation names the findings by their ids, of one issue type. */
export interface TicketRequest {
  readonly issueType: IssueType;
  readonly ids: readonly number[];
}

const TICKET_FIELDS = object(
  {
    issueType: oneOf(ISSUE_TYPES, `issueType must be ${ISSUE_TYPES.map((k) => `"${k}"`).join(', ')}.`),
    findingIds: listOf(id('findingIds must be whole numbers (or strings of digits).'), 'findingIds must be a list of finding ids.'),
  },
  'A ticket request takes { findingIds, issueType }.',
  (extra) => `${JSON.stringify(extra)} is not a field of a ticket request (findingIds, issueType).`,
);

/** `{ findingIds, issueType }` (checked strictly: no confirmation follows), or what a click passes (read, never refused). */
export const TICKET_REQUEST_ARGUMENT: Schema<CommandItem | TicketRequest | undefined> = schema<CommandItem | TicketRequest | undefined>((value) => {
  if (value === undefined) return valid(undefined);
  if (typeof value !== 'object' || value === null || !('findingIds' in value)) return valid(itemOf(value));
  const checked = TICKET_FIELDS.check(value);
  return checked.ok ? valid({ issueType: checked.value.issueType, ids: checked.value.findingIds }) : checked;
});

const isTicketRequest = (target: CommandItem | TicketRequest | undefined): target is TicketRequest => target !== undefined && 'ids' in target;

/**
 * Creates Jira tickets for the findings clicked or selected, after a confirmation: a ticket is
 * seen by the team in the tracker, as a fix pull request is seen in the repository. Given
 * `{ findingIds, issueType }` (automation), without one.
 */
export async function createTicket(
  app: TriageCommandsDeps,
  target?: CommandItem | TicketRequest,
  selected?: readonly CommandItem[],
): Promise<TicketResult[] | undefined> {
  const chosen: ReadonlyMap<IssueType, readonly number[]> = isTicketRequest(target)
    ? new Map([[target.issueType, target.ids]])
    : new Map([...subjectFor(app, target, selected)].map(([issueType, findings]) => [issueType, findings.map((f) => f.id)]));
  const findings = [...chosen.values()].reduce((n, ids) => n + ids.length, 0);
  if (findings === 0) return nothingChosen(t('AppSec: select one or more findings to create a ticket for.'));
  if (!isTicketRequest(target) && !(await ticketConfirmed(app, target, selected, findings))) return undefined;
  const results = await withProgress({ location: vscode.ProgressLocation.Notification, title: t('AppSec: creating Jira tickets…') }, async () => {
    const out: TicketResult[] = [];
    for (const [issueType, ids] of chosen) out.push(await app.triage.createTickets(issueType, [...ids]));
    return out;
  });
  const merged: TicketResult = {
    succeeded: results.flatMap((r) => r.succeeded),
    failed: results.flatMap((r) => r.failed),
    skipped: results.flatMap((r) => r.skipped),
  };
  const links = merged.succeeded.filter((t) => isHttpUrl(t.url)).slice(0, 2);
  const show = merged.failed.length > 0 && merged.succeeded.length === 0 ? showError : showInformation;
  const openTitle = (k: (typeof links)[number]): string => (k.slug ? t('Open {0}', k.slug) : t('Open Ticket'));
  void show(t('AppSec: {0}', ticketSummary(merged)), ...links.map(openTitle)).then((picked) => {
    const ticket = links.find((k) => picked === openTitle(k));
    if (ticket?.url) void vscode.env.openExternal(vscode.Uri.parse(ticket.url));
  });
  return results;
}

async function ticketConfirmed(
  app: TriageCommandsDeps,
  target: CommandItem | undefined,
  selected: readonly CommandItem[] | undefined,
  findings: number,
): Promise<boolean> {
  const one = findings === 1 ? [...subjectFor(app, target, selected).values()].flat()[0] : undefined;
  const create = findings === 1 ? t('Create Ticket') : t('Create Tickets');
  const answer = await showWarning(
    one ? t('Create a Jira ticket for {0}?', distinctName(one)) : t('Create Jira tickets for {0}?', count(findings)),
    {
      modal: true,
      detail: t(
        'The platform creates the ticket in the Jira project its integration names, where the team sees it; findings of one rule in one repository share a ticket. Unlink Ticket takes the link back here; the ticket stays in Jira.',
      ),
    },
    create,
  );
  return answer === create;
}

/** With `url` given (automation), no prompt. */
export async function linkTicket(
  app: TriageCommandsDeps,
  item?: CommandItem,
  selected?: readonly CommandItem[],
  url?: string,
): Promise<TicketLinkResult[] | undefined> {
  const subject = subjectFor(app, item, selected);
  if (subject.size === 0) return nothingChosen(t('AppSec: select one or more findings to link a ticket to.'));
  const ticketUrl =
    url ??
    (await showInput({
      title: t('AppSec: Link Existing Ticket'),
      prompt: t("The ticket's link, e.g. {0}", 'https://acme.atlassian.net/browse/SEC-42'),
      ignoreFocusOut: true,
      validateInput: (text) => (isHttpUrl(text.trim()) ? undefined : t('A link starting with https:// (or http://).')),
    }));
  if (!ticketUrl) return undefined;
  const out: TicketLinkResult[] = [];
  for (const [issueType, findings] of subject)
    out.push(
      await app.triage.linkTicket(
        issueType,
        findings.map((f) => f.id),
        ticketUrl.trim(),
      ),
    );
  const replaced = out.reduce((n, r) => n + r.replacedIds.length, 0);
  const ticketName = out[0]?.slug ?? ticketUrl.trim();
  const linked = count(out.reduce((n, r) => n + r.linkedIds.length, 0));
  void showInformation(
    replaced > 0
      ? t('AppSec: linked {0} to {1} ({2} had another ticket).', ticketName, linked, count(replaced))
      : t('AppSec: linked {0} to {1}.', ticketName, linked),
  );
  return out;
}

export async function unlinkTicket(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[]): Promise<number | undefined> {
  const subject = subjectFor(app, item, selected);
  if (subject.size === 0) return nothingChosen(t('AppSec: select one or more findings to unlink.'));
  let unlinked = 0;
  for (const [issueType, findings] of subject)
    unlinked += (
      await app.triage.unlinkTicket(
        issueType,
        findings.map((f) => f.id),
      )
    ).length;
  void showInformation(t('AppSec: unlinked the ticket of {0}.', count(unlinked)));
  return unlinked;
}

/** Automation names the ticket by its id on the platform. */
export interface TicketIdRequest {
  readonly ticketId: string;
}

/** `{ ticketId }` (checked strictly), or a finding's item (read, never refused). */
export const TICKET_ID_ARGUMENT: Schema<CommandItem | TicketIdRequest | undefined> = schema<CommandItem | TicketIdRequest | undefined>((value) => {
  if (value === undefined || Array.isArray(value)) return valid(undefined);
  if (typeof value !== 'object' || value === null || !('ticketId' in value)) return valid(itemOf(value));
  const id: unknown = value.ticketId;
  const text = typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? String(id) : id;
  return typeof text === 'string' && /^\d+$/.test(text) ? valid({ ticketId: text }) : invalid("ticketId must be the ticket's id on the platform (digits).");
});

/**
 * Unlinks a finding's ticket from every finding it is linked to, after a confirmation; given
 * `{ ticketId }`, without one. The ticket itself stays in the tracker.
 */
export async function unlinkTicketEverywhere(
  app: TriageCommandsDeps,
  target: CommandItem | TicketIdRequest | undefined,
): Promise<readonly number[] | undefined> {
  let ticketId = target && 'ticketId' in target ? target.ticketId : undefined;
  if (ticketId === undefined) {
    const ticket = target && 'finding' in target ? target.finding?.ticket : undefined;
    if (!ticket) return nothingChosen(t('AppSec: select one or more findings to unlink from all its findings: choose a finding that has a ticket.'));
    if (ticket.id === undefined)
      throw new Error(
        t(
          'The platform did not say the id of {0}, which unlinking it everywhere needs. Use Unlink Ticket on the findings instead.',
          ticket.slug ?? t('this ticket'),
        ),
      );
    const name = ticket.slug ?? t('ticket {0}', ticket.id);
    const unlink = t('Unlink Everywhere');
    const answer = await showWarning(
      t('Unlink {0} from all its findings?', name),
      {
        modal: true,
        detail: t('Every finding linked to {0}, on every branch and in every project, loses the link. The ticket itself stays in the tracker.', name),
      },
      unlink,
    );
    if (answer !== unlink) return undefined;
    ticketId = String(ticket.id);
  }
  const unlinked = await app.triage.unlinkTicketEverywhere(ticketId);
  void showInformation(t('AppSec: unlinked the ticket from {0}.', count(unlinked.length)));
  return unlinked;
}
