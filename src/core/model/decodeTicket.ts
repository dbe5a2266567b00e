/**
 * A finding's ticket (`external_ticket`), the one reader for every list and the detail: the
 * service spells its keys in snake_case, the spec and the secrets list in camelCase, and either
 * may come. A ticket that names nothing (no key, no link) is no ticket.
 */
import { isObject, readSafeInteger, readString, type JsonObject } from './decodeRead';
import type { StringInterner } from './interner';
import type { TicketLink } from './types';
import type { ExternalTicket } from './finding-detail';

/**
 * The ticket's key and link, as a finding keeps them. It repeats across the findings of a grouped
 * ticket, so the findings of a list share one object when an interner is given.
 */
export function decodeTicketLink(raw: unknown, interner?: StringInterner): TicketLink | undefined {
  if (!isObject(raw)) return undefined;
  const slug = ticketSlug(raw);
  const url = readString(raw.url);
  if (slug === undefined && url === undefined) return undefined;
  const id = readSafeInteger(raw.id);
  if (interner) return interner.ticket(id, slug, url);
  return { ...(id === undefined ? {} : { id }), slug, url };
}

/** The whole ticket, for the detail: also its id and the findings linked to it. */
export function decodeExternalTicket(raw: unknown): ExternalTicket | undefined {
  if (!isObject(raw)) return undefined;
  const id = readSafeInteger(raw.id);
  const slug = ticketSlug(raw);
  const url = readString(raw.url);
  if (id === undefined && slug === undefined && url === undefined) return undefined;
  return { id, slug, url, linkedIssueIds: readIntegers(raw.linked_issue_ids ?? raw.linkedIssueIds) };
}

/** The ticket's key in the tracker (`SEC-42`): the service's `external_slug`, else the spec's `externalSlug`. */
function ticketSlug(raw: JsonObject): string | undefined {
  return readString(raw.external_slug) ?? readString(raw.externalSlug);
}

function readIntegers(raw: unknown): number[] {
  if (!Array.isArray(raw)) return [];
  const out: number[] = [];
  for (const item of raw as unknown[]) {
    const n = readSafeInteger(item);
    if (n !== undefined) out.push(n);
  }
  return out;
}
