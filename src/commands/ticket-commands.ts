/**
 * Jira tickets for findings: create (the platform groups findings of one rule and repository),
 * link an existing ticket by its URL, unlink. The result for every finding is said: created
 * (with its link), failed (the platform's reason), skipped (why).
 */
import * as vscode from 'vscode';
import type { TicketLinkResult, TicketResult } from '../core/model/triage-and-tickets';
import { isHttpUrl } from '../core/model/links';
import { invalid, schema, valid, type Schema } from '../host/schema';
import { itemOf, type CommandItem } from './command-item';
import { subjectOr as subjectFor, type TriageCommandsDeps } from './triage-commands';

const count = (n: number): string => `${n} finding${n === 1 ? '' : 's'}`;

function nothingChosen(what: string): undefined {
  void vscode.window.showInformationMessage(`AppSec: select one or more findings to ${what}.`);
  return undefined;
}

/** "Created SEC-12 (2 findings). Skipped 1: already has a ticket." */
export function ticketSummary(result: TicketResult): string {
  const parts: string[] = [];
  if (result.succeeded.length > 0) parts.push(`Created ${result.succeeded.map((t) => `${t.slug ?? t.url ?? 'a ticket'} (${count(t.ids.length)})`).join(', ')}.`);
  for (const failed of result.failed) parts.push(`Failed for ${count(failed.ids.length)}: ${failed.error}.`);
  for (const skipped of result.skipped) parts.push(`Skipped ${count(skipped.ids.length)}: ${skipped.reason}.`);
  return parts.length > 0 ? parts.join(' ') : 'The platform created no ticket and said nothing about why.';
}

export async function createTicket(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[]): Promise<TicketResult[] | undefined> {
  const subject = subjectFor(app, item, selected);
  if (subject.size === 0) return nothingChosen('create a ticket for');
  const results = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'AppSec: creating Jira tickets…' },
    async () => {
      const out: TicketResult[] = [];
      for (const [issueType, findings] of subject) out.push(await app.triage.createTickets(issueType, findings.map((f) => f.id)));
      return out;
    },
  );
  const merged: TicketResult = {
    succeeded: results.flatMap((r) => r.succeeded), failed: results.flatMap((r) => r.failed), skipped: results.flatMap((r) => r.skipped),
  };
  const links = merged.succeeded.filter((t) => isHttpUrl(t.url)).slice(0, 2);
  const show = merged.failed.length > 0 && merged.succeeded.length === 0 ? vscode.window.showErrorMessage : vscode.window.showInformationMessage;
  void show(`AppSec: ${ticketSummary(merged)}`, ...links.map((t) => `Open ${t.slug ?? 'Ticket'}`)).then((picked) => {
    const ticket = links.find((t) => picked === `Open ${t.slug ?? 'Ticket'}`);
    if (ticket?.url) void vscode.env.openExternal(vscode.Uri.parse(ticket.url));
  });
  return results;
}

/** With `url` given (automation), no prompt. */
export async function linkTicket(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[], url?: string): Promise<TicketLinkResult[] | undefined> {
  const subject = subjectFor(app, item, selected);
  if (subject.size === 0) return nothingChosen('link a ticket to');
  const ticketUrl = url ?? await vscode.window.showInputBox({
    title: 'AppSec: Link Existing Ticket', prompt: 'The ticket\'s link, e.g. https://acme.atlassian.net/browse/SEC-42', ignoreFocusOut: true,
    validateInput: (text) => (isHttpUrl(text.trim()) ? undefined : 'A link starting with https:// (or http://).'),
  });
  if (!ticketUrl) return undefined;
  const out: TicketLinkResult[] = [];
  for (const [issueType, findings] of subject) out.push(await app.triage.linkTicket(issueType, findings.map((f) => f.id), ticketUrl.trim()));
  const replaced = out.reduce((n, r) => n + r.replacedIds.length, 0);
  void vscode.window.showInformationMessage(`AppSec: linked ${out[0]?.slug ?? ticketUrl.trim()} to ${count(out.reduce((n, r) => n + r.linkedIds.length, 0))}${replaced > 0 ? ` (${count(replaced)} had another ticket)` : ''}.`);
  return out;
}

export async function unlinkTicket(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[]): Promise<number | undefined> {
  const subject = subjectFor(app, item, selected);
  if (subject.size === 0) return nothingChosen('unlink');
  let unlinked = 0;
  for (const [issueType, findings] of subject) unlinked += (await app.triage.unlinkTicket(issueType, findings.map((f) => f.id))).length;
  void vscode.window.showInformationMessage(`AppSec: unlinked the ticket of ${count(unlinked)}.`);
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
  return typeof text === 'string' && /^\d+$/.test(text) ? valid({ ticketId: text }) : invalid('ticketId must be the ticket\'s id on the platform (digits).');
});

/**
 * Unlinks a finding's ticket from every finding it is linked to, after a confirmation; given
 * `{ ticketId }`, without one. The ticket itself stays in the tracker.
 */
export async function unlinkTicketEverywhere(app: TriageCommandsDeps, target: CommandItem | TicketIdRequest | undefined): Promise<readonly number[] | undefined> {
  let ticketId = target && 'ticketId' in target ? target.ticketId : undefined;
  if (ticketId === undefined) {
    const ticket = target && 'finding' in target ? target.finding?.ticket : undefined;
    if (!ticket) return nothingChosen('unlink from all its findings: choose a finding that has a ticket');
    if (ticket.id === undefined) throw new Error(`The platform did not say the id of ${ticket.slug ?? 'this ticket'}, which unlinking it everywhere needs. Use Unlink Ticket on the findings instead.`);
    const name = ticket.slug ?? `ticket ${ticket.id}`;
    const unlink = 'Unlink Everywhere';
    const answer = await vscode.window.showWarningMessage(`Unlink ${name} from all its findings?`, {
      modal: true, detail: `Every finding linked to ${name}, on every branch and in every project, loses the link. The ticket itself stays in the tracker.`,
    }, unlink);
    if (answer !== unlink) return undefined;
    ticketId = String(ticket.id);
  }
  const unlinked = await app.triage.unlinkTicketEverywhere(ticketId);
  void vscode.window.showInformationMessage(`AppSec: unlinked the ticket from ${count(unlinked.length)}.`);
  return unlinked;
}
