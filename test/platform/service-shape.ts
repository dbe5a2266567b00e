/**
 * The local platform's answers as the real service sends them (docs/platform-api.md): stored
 * findings and projects keep the spec's spelling (tests change them in place), and are turned
 * into the service's spelling as each answer is written.
 *
 * - the rule's lists in snake_case (`cwe_names`, `owasp_names`, `vulnerability_classes`), the
 *   ticket as `external_slug`/`linked_issue_ids`, review comments as `external_discussion_id`;
 * - `null` for optional values that are absent (triage fields of an untriaged finding, a missing
 *   usage or ticket, an empty reachable condition);
 * - defaults left out, as proto3 JSON does: `false`, empty lists, empty strings;
 * - the deprecated `rule_name`/`rule_message` left out on every finding whose id is divisible by 3;
 * - projects' branches as `refs/heads/<name>`, and `enabled: false` left out of scan settings.
 *
 * One pass per finding and no JSON round trip: the benchmark serves 100 000 findings this way.
 */
import type { WireExternalTicket, WireFindingRule, WireReviewComment } from './wire';
import type { AnyFinding } from './findings-query';
import type { StoredProject } from './types';

export type AnswerShape = 'service' | 'spec';

const NULL_WHEN_EMPTY = new Set(['triaged_at', 'triage_comment', 'triage_reason', 'state_updated_at', 'reachable_condition']);

/** One stored finding in the service's spelling. */
export function serviceFinding(f: AnyFinding): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const untriaged = f.triage_state === undefined || f.triage_state === 'untriaged';
  for (const key in f) {
    const value = (f as Record<string, unknown>)[key];
    if (key === 'rule') out.rule = serviceRule(value as WireFindingRule | undefined);
    else if (key === 'external_ticket') out.external_ticket = serviceTicket(value as WireExternalTicket | undefined);
    else if (key === 'review_comments') setList(out, key, (value as WireReviewComment[] | undefined)?.map(serviceComment));
    else if (key === 'usage') out.usage = serviceUsage(value as AnyFinding['usage']);
    else if ((key === 'rule_name' || key === 'rule_message') && f.id !== undefined && f.id % 3 === 0) continue;
    else if (NULL_WHEN_EMPTY.has(key)) out[key] = value === '' || value === undefined ? null : value;
    else setValue(out, key, value);
  }
  // An untriaged finding has no triage facts: the service sends them as null.
  if (untriaged) {
    out.triaged_at = null;
    out.triage_comment = null;
  }
  if (f.status !== 'ignored') out.triage_reason = null;
  out.external_ticket ??= null;
  if ('vulnerability_identifier' in f) out.usage ??= null;
  return out;
}

/** A stored project in the service's spelling. */
export function serviceProject(p: StoredProject, withScanConfig: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    created_at: p.created_at,
    default_branch: fullRef(p.default_branch),
    primary_branch: fullRef(p.primary_branch),
    latest_scan_at: p.latest_scan_at,
    url: p.url,
  };
  setList(out, 'tags', [...p.tags]);
  if (withScanConfig) {
    const c = p.managed_scan_config;
    out.managed_scan_config = { diff_scan: c.diff_scan.enabled ? { enabled: true } : {}, full_scan: c.full_scan.enabled ? { enabled: true } : {} };
  }
  return out;
}

function fullRef(branch: string): string {
  return branch === '' || branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}

function serviceRule(rule: WireFindingRule | undefined): Record<string, unknown> | undefined {
  if (!rule) return undefined;
  const out: Record<string, unknown> = {};
  setValue(out, 'name', rule.name);
  setValue(out, 'message', rule.message);
  setValue(out, 'category', rule.category);
  setValue(out, 'confidence', rule.confidence);
  setList(out, 'cwe_names', rule.cwe_names ?? rule.cweNames);
  setList(out, 'owasp_names', rule.owasp_names ?? rule.owaspNames);
  setList(out, 'subcategories', rule.subcategories);
  setList(out, 'vulnerability_classes', rule.vulnerability_classes ?? rule.vulnerabilityClasses);
  return out;
}

function serviceTicket(ticket: WireExternalTicket | undefined): Record<string, unknown> | null {
  if (!ticket) return null;
  const out: Record<string, unknown> = {};
  setValue(out, 'id', ticket.id);
  setValue(out, 'external_slug', ticket.external_slug ?? ticket.externalSlug);
  setList(out, 'linked_issue_ids', ticket.linked_issue_ids ?? ticket.linkedIssueIds);
  setValue(out, 'url', ticket.url);
  return out;
}

function serviceComment(comment: WireReviewComment): Record<string, unknown> {
  return {
    external_discussion_id: comment.external_discussion_id ?? comment.externalDiscussionId,
    external_note_id: comment.external_note_id ?? comment.externalNoteId,
  };
}

function serviceUsage(usage: AnyFinding['usage']): Record<string, unknown> | null {
  if (!usage) return null;
  return { location: usage.location, external_ticket: serviceTicket(usage.external_ticket) };
}

/** Leaves out `false`, `''`, empty lists and `undefined`, as the service's JSON does. */
function setValue(out: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined || value === false || value === '' || (Array.isArray(value) && value.length === 0)) return;
  out[key] = value;
}

function setList(out: Record<string, unknown>, key: string, value: readonly unknown[] | undefined): void {
  if (value && value.length > 0) out[key] = value;
}
