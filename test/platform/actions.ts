/**
 * Triage and Jira tickets on the local platform, as docs/platform-api.md ("Triage and tickets") describes them:
 * the stored wire findings are changed, so later findings answers show the change. Triage also
 * reaches the same finding (same `match_based_id`, same repository) on other refs, as the real
 * service does. Ticket creation needs the ticketing integration, which tests can switch off.
 */
import { secretStatusOf } from './secrets-and-ai';
import type { WireExternalTicket, WireSastFinding, WireScaFinding } from './wire';
import { error, json, type PlatformResponse } from './respond';
import type { PlatformData } from './types';

type AnyFinding = WireSastFinding | WireScaFinding;

const STATES = ['ignored', 'reviewing', 'fixing', 'reopened', 'provisionally_ignored'];
const REASONS = ['acceptable_risk', 'false_positive', 'no_time', 'no_triage_reason', 'duplicate'];
const MAX_IDS = 3000;
const MAX_NOTE = 3000;
const MAX_TICKET_IDS = 20;
const PER_TICKET = 50;

/** Mutable switches of the platform's integrations (tests flip them between requests). */
export interface Integrations {
  ticketing: boolean;
}

function parseBody(body: string | undefined): Record<string, unknown> | PlatformResponse {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return error(400, 'the body must be a JSON object');
    return parsed as Record<string, unknown>;
  } catch {
    return error(400, 'the body is not JSON');
  }
}

const isResponse = (value: unknown): value is PlatformResponse => typeof value === 'object' && value !== null && 'status' in value && 'body' in value;

function findingsOf(data: PlatformData, issueType: unknown): AnyFinding[] | undefined {
  // AI code findings are triaged as code findings; secrets by their own issue type.
  return issueType === 'sast'
    ? [...data.sast, ...data.ai_sast]
    : issueType === 'sca'
      ? data.sca
      : issueType === 'secrets'
        ? (data.secrets as unknown as AnyFinding[])
        : undefined;
}

/** Ids as the endpoints take them: integers, or strings of digits (tickets). */
function readIds(raw: unknown): number[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const ids = (raw as unknown[]).map((id): unknown => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id));
  return ids.every((id): id is number => typeof id === 'number' && Number.isSafeInteger(id)) ? ids : undefined;
}

export function triage(data: PlatformData, body: string | undefined): PlatformResponse {
  const request = parseBody(body);
  if (isResponse(request)) return request;
  const all = findingsOf(data, request.issue_type);
  if (!all) return error(400, 'issue_type must be sast, sca or secrets');
  const ids = readIds(request.issue_ids);
  if (!ids) return error(400, 'issue_ids must be a list of integers');
  if (ids.length > MAX_IDS) return error(400, `at most ${MAX_IDS} issue_ids`);
  const { new_triage_state: state, new_triage_reason: reason, new_note: note } = request;
  if (state === undefined && note === undefined) return error(400, 'one of new_triage_state or new_note is required');
  if (state !== undefined && !STATES.includes(state as string)) return error(400, `unknown new_triage_state ${JSON.stringify(state)}`);
  if (reason !== undefined && state !== 'ignored') return error(400, 'new_triage_reason applies only with new_triage_state ignored');
  if (reason !== undefined && !REASONS.includes(reason as string)) return error(400, `unknown new_triage_reason ${JSON.stringify(reason)}`);
  if (note !== undefined && (typeof note !== 'string' || note.length > MAX_NOTE)) return error(400, `new_note must be text of at most ${MAX_NOTE} characters`);

  // Secrets carry their id as text.
  const byId = new Map(all.map((f) => [Number(f.id ?? -1), f]));
  const sent = ids.map((id) => byId.get(id)).filter((f): f is AnyFinding => f !== undefined);
  // The same finding on other refs of the same repository is triaged too.
  const keys = new Set(sent.map((f) => `${f.repository?.name ?? ''}\n${f.match_based_id ?? ''}`));
  const twins = all.filter((f) => !sent.includes(f) && f.match_based_id && keys.has(`${f.repository?.name ?? ''}\n${f.match_based_id}`));
  const now = new Date().toISOString();
  for (const finding of [...sent, ...twins]) {
    applyTriage(finding, state as string | undefined, reason as string | undefined, note, now);
    // The secrets list spells statuses its own way.
    if (request.issue_type === 'secrets') finding.status = secretStatusOf(finding.status ?? 'open');
  }
  const triaged = [...sent, ...twins].map((f) => Number(f.id));
  return json(200, { num_triaged: triaged.length, triaged_issues: triaged });
}

function applyTriage(finding: AnyFinding, state: string | undefined, reason: string | undefined, note: string | undefined, now: string): void {
  if (state === 'ignored' || state === 'provisionally_ignored') {
    finding.status = state;
    finding.triage_state = state;
    finding.triage_reason = reason ?? 'no_triage_reason';
  } else if (state === 'reviewing' || state === 'fixing') {
    finding.status = state;
    finding.triage_state = state;
  } else if (state === 'reopened') {
    finding.status = 'open';
    finding.triage_state = 'reopened';
    finding.triage_reason = 'no_triage_reason';
  }
  if (note !== undefined) finding.triage_comment = note;
  finding.triaged_at = now;
}

let nextTicket = 9000;

/** When each ticket made here was created: a finding's activity dates it then, not by the finding's own age. */
const createdAt = new WeakMap<WireExternalTicket, string>();

/** The time a ticket was created on this platform; undefined for the tickets the data came with. */
export function ticketCreatedAt(ticket: WireExternalTicket): string | undefined {
  return createdAt.get(ticket);
}

export function createTickets(data: PlatformData, body: string | undefined, integrations: Integrations): PlatformResponse {
  if (!integrations.ticketing) return error(400, 'no ticketing integration is configured for this deployment (Settings → Integrations)');
  const request = parseBody(body);
  if (isResponse(request)) return request;
  const all = findingsOf(data, request.issue_type);
  if (!all) return error(400, 'issue_type must be sast, sca or secrets');
  const ids = readIds(request.issue_ids);
  if (!ids || ids.length === 0) return error(400, 'issue_ids must be a non-empty list of ids');
  const taken = ids.slice(0, MAX_TICKET_IDS);
  const failed = ids.length > MAX_TICKET_IDS ? [{ error: `at most ${MAX_TICKET_IDS} findings per request`, issue_ids: ids.slice(MAX_TICKET_IDS) }] : [];
  const byId = new Map(all.map((f) => [f.id ?? -1, f]));
  const skipped: { reason: string; issue_ids: number[] }[] = [];
  const groups = new Map<string, AnyFinding[]>();
  for (const id of taken) {
    const finding = byId.get(id);
    if (!finding) {
      failed.push({ error: `finding ${id} not found`, issue_ids: [id] });
      continue;
    }
    if (finding.external_ticket) {
      skipped.push({ reason: 'already has a ticket', issue_ids: [id] });
      continue;
    }
    const key = request.group_issues === false ? String(id) : `${finding.rule_name ?? ''}\n${finding.repository?.name ?? ''}`;
    const group = groups.get(key) ?? [];
    if (group.length >= PER_TICKET) groups.set(`${key}\n${id}`, [finding]);
    else groups.set(key, [...group, finding]);
  }
  const succeeded = [...groups.values()].map((group) => {
    const id = nextTicket++;
    const ticket: WireExternalTicket = {
      id,
      external_slug: `SEC-${id}`,
      url: `https://acme.atlassian.net/browse/SEC-${id}`,
      linked_issue_ids: group.map((f) => f.id ?? -1),
    };
    createdAt.set(ticket, new Date().toISOString());
    for (const finding of group) finding.external_ticket = ticket;
    return { ticket_id: id, ticket_url: ticket.url, external_slug: ticket.external_slug, issue_ids: group.map((f) => f.id) };
  });
  return json(200, { succeeded, failed, skipped });
}

export function linkTicket(data: PlatformData, body: string | undefined): PlatformResponse {
  const request = parseBody(body);
  if (isResponse(request)) return request;
  const url = request.ticket_url;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return error(400, 'ticket_url must be an http(s) URL');
  const ids = readIds(request.issue_ids);
  if (!ids || ids.length === 0) return error(400, 'issue_ids must be a non-empty list of ids');
  const found = [...data.sast, ...data.sca].filter((f) => f.id !== undefined && ids.includes(f.id));
  const id = nextTicket++;
  const slug = /\/browse\/([A-Z][A-Z0-9]*-\d+)/.exec(url)?.[1] ?? `LINK-${id}`;
  const replaced = found.filter((f) => f.external_ticket && f.external_ticket.url !== url).map((f) => String(f.id));
  const ticket: WireExternalTicket = { id, external_slug: slug, url, linked_issue_ids: found.map((f) => f.id ?? -1) };
  for (const finding of found) finding.external_ticket = ticket;
  return json(200, { ticket_id: id, ticket_url: url, external_slug: slug, linked_issue_ids: found.map((f) => String(f.id)), replaced_issue_ids: replaced });
}

export function unlinkTicket(data: PlatformData, body: string | undefined): PlatformResponse {
  const request = parseBody(body);
  if (isResponse(request)) return request;
  const ids = readIds(request.issue_ids);
  if (!ids || ids.length === 0) return error(400, 'issue_ids must be a non-empty list of ids');
  const unlinked: string[] = [];
  for (const finding of [...data.sast, ...data.sca]) {
    if (finding.id !== undefined && ids.includes(finding.id) && finding.external_ticket) {
      delete finding.external_ticket;
      unlinked.push(String(finding.id));
    }
  }
  return json(200, { unlinked_issue_ids: unlinked });
}

/**
 * `DELETE ticketing/v2/tickets/{externalTicketId}`: takes the ticket off every finding that
 * carries it, as its own ticket or its dependency usage's, whatever the finding's kind.
 */
export function unlinkExternalTicket(data: PlatformData, externalTicketId: string): PlatformResponse {
  if (!/^\d+$/.test(externalTicketId)) return error(400, "externalTicketId must be the ticket's numeric id");
  const id = Number(externalTicketId);
  const unlinked: string[] = [];
  // Secrets carry no ticket in their type, but a test may give them one.
  const all: { id?: number | string; external_ticket?: WireExternalTicket; usage?: { external_ticket?: WireExternalTicket } }[] = [
    ...data.sast,
    ...data.ai_sast,
    ...data.sca,
    ...data.secrets,
  ];
  for (const finding of all) {
    let had = false;
    if (finding.external_ticket?.id === id) {
      delete finding.external_ticket;
      had = true;
    }
    if (finding.usage?.external_ticket?.id === id) {
      delete finding.usage.external_ticket;
      had = true;
    }
    if (had) unlinked.push(String(finding.id));
  }
  return unlinked.length > 0 ? json(200, { issueIds: unlinked }) : error(404, 'ticket not found');
}
