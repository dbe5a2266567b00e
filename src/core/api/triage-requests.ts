/**
 * Triage and Jira tickets (docs/platform-api.md, "Triage and tickets"): each a write, so a 403 is
 * the token's role, and none is retried. `PlatformClient` exposes them.
 */
import { decodeTicketLinkResult, decodeTicketResult, decodeTriageResult, decodeUnlinkResult } from '../model/decodeActions';
import { PlatformError } from '../model/errors';
import { isHttpUrl } from '../model/links';
import type { TicketLinkResult, TicketRequest, TicketResult, TriageRequest, TriageResult } from '../model/triage-and-tickets';
import { deploymentPath, type CallOptions } from './endpoints';
import type { PlatformHttp } from './http';
import { formatCount, said } from '../l10n';

/** Triage (bulk): one request; the service checks and batches (docs/platform-api.md, "Triage and tickets"). */
export async function triage(http: PlatformHttp, deploymentSlug: string, request: TriageRequest, options: CallOptions = {}): Promise<TriageResult> {
  const body = await http.requestJson({
    method: 'POST',
    path: `${deploymentPath(deploymentSlug)}/triage`,
    body: {
      issue_type: request.issueType,
      issue_ids: request.ids,
      ...(request.state ? { new_triage_state: request.state } : {}),
      ...(request.reason ? { new_triage_reason: request.reason } : {}),
      ...(request.note !== undefined && request.note !== '' ? { new_note: request.note } : {}),
    },
    what: request.ids.length === 1 ? said('the triage of {0} finding', formatCount(1)) : said('the triage of {0} findings', formatCount(request.ids.length)),
    access: 'write',
    signal: options.signal,
  });
  return decodeTriageResult(body);
}

/** Jira tickets (ids as strings, as the endpoint takes them). Never retried: a repeat could create a second ticket. */
export async function createTickets(http: PlatformHttp, deploymentSlug: string, request: TicketRequest, options: CallOptions = {}): Promise<TicketResult> {
  const body = await http.requestJson({
    method: 'POST',
    path: `${deploymentPath(deploymentSlug)}/tickets`,
    body: {
      issue_type: request.issueType,
      issue_ids: request.ids.map(String),
      ...(request.groupIssues !== undefined ? { group_issues: request.groupIssues } : {}),
      ...(request.jiraProjectId ? { jira_project_id: request.jiraProjectId } : {}),
    },
    what: said('creating Jira tickets'),
    access: 'write',
    signal: options.signal,
  });
  return decodeTicketResult(body);
}

/** Records an existing ticket on findings (the path takes the deployment's id). */
export async function linkTicket(
  http: PlatformHttp,
  deploymentId: string,
  ticketUrl: string,
  ids: readonly number[],
  options: CallOptions = {},
): Promise<TicketLinkResult> {
  if (!isHttpUrl(ticketUrl)) throw new PlatformError('badRequest', said('A ticket link starts with {0} (or {1}).', 'https://', 'http://'));
  const body = await http.requestJson({
    method: 'POST',
    path: `${deploymentPath(deploymentId)}/tickets/link`,
    body: { ticket_url: ticketUrl, issue_ids: ids.map(String) },
    what: said('linking the ticket'),
    access: 'write',
    signal: options.signal,
  });
  return decodeTicketLinkResult(body);
}

export async function unlinkTicket(http: PlatformHttp, deploymentId: string, ids: readonly number[], options: CallOptions = {}): Promise<readonly number[]> {
  const body = await http.requestJson({
    method: 'POST',
    path: `${deploymentPath(deploymentId)}/tickets/unlink`,
    body: { issue_ids: ids.map(String) },
    what: said('unlinking the ticket'),
    access: 'write',
    signal: options.signal,
  });
  return decodeUnlinkResult(body);
}
