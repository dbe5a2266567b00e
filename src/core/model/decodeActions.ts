/**
 * The answers of the platform's triage and ticket endpoints (docs/platform-api.md, "Triage and
 * tickets"). Ids come as numbers or as strings of digits; keys in snake_case (the service) or
 * camelCase; `null` is "no value". An answer that is not an object is an error that says so.
 */
import { PlatformError } from './errors';
import { asObject, readSafeInteger, readString, type JsonObject } from './decodeRead';
import type { TicketLinkResult, TicketResult, TriageResult } from './triage-and-tickets';

export function decodeTriageResult(body: unknown): TriageResult {
  const o = answer(body, 'triage');
  const triagedIds = ids(o.triaged_issues ?? o.triagedIssues);
  return { triaged: readSafeInteger(o.num_triaged ?? o.numTriaged) ?? triagedIds.length, triagedIds };
}

export function decodeTicketResult(body: unknown): TicketResult {
  const o = answer(body, 'tickets');
  return {
    succeeded: objects(o.succeeded).map((t) => ({
      ticketId: idText(t.ticket_id ?? t.ticketId),
      url: readString(t.ticket_url ?? t.ticketUrl),
      slug: readString(t.external_slug ?? t.externalSlug),
      ids: ids(t.issue_ids ?? t.issueIds),
    })),
    failed: objects(o.failed).map((t) => ({ error: readString(t.error) ?? 'no reason given', ids: ids(t.issue_ids ?? t.issueIds) })),
    skipped: objects(o.skipped).map((t) => ({ reason: readString(t.reason) ?? 'no reason given', ids: ids(t.issue_ids ?? t.issueIds) })),
  };
}

export function decodeTicketLinkResult(body: unknown): TicketLinkResult {
  const o = answer(body, 'ticket link');
  return {
    ticketId: idText(o.ticket_id ?? o.ticketId),
    url: readString(o.ticket_url ?? o.ticketUrl),
    slug: readString(o.external_slug ?? o.externalSlug),
    linkedIds: ids(o.linked_issue_ids ?? o.linkedIssueIds),
    replacedIds: ids(o.replaced_issue_ids ?? o.replacedIssueIds),
  };
}

export function decodeUnlinkResult(body: unknown): number[] {
  const o = answer(body, 'ticket unlink');
  return ids(o.unlinked_issue_ids ?? o.unlinkedIssueIds);
}

/** A ticket unlinked from every finding: the findings' ids (`issueIds`, as strings). */
export function decodeUnlinkEverywhereResult(body: unknown): number[] {
  const o = answer(body, 'ticket unlink');
  return ids(o.issueIds ?? o.issue_ids);
}

function answer(body: unknown, what: string): JsonObject {
  const o = asObject(body);
  if (!o) throw new PlatformError('invalidResponse', `The platform's ${what} answer is not an object; report it with the log (AppSec: Show Logs).`);
  return o;
}

/** Ids as numbers, from numbers or strings of digits; anything else is left out. */
function ids(raw: unknown): number[] {
  if (!Array.isArray(raw)) return [];
  const out: number[] = [];
  for (const item of raw as unknown[]) {
    const id = typeof item === 'string' && /^\d{1,15}$/.test(item) ? Number(item) : readSafeInteger(item);
    if (id !== undefined) out.push(id);
  }
  return out;
}

function idText(raw: unknown): string | undefined {
  return typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : readString(raw);
}

function objects(raw: unknown): JsonObject[] {
  return Array.isArray(raw) ? raw.map(asObject).filter((o): o is JsonObject => o !== undefined) : [];
}
