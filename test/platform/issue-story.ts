/**
 * The v2 single-finding call of the local platform (`GET /api/agent/deployments/{id}/issues/v2/
 * {issueId}`): one finding's story in the service's protobuf JSON (camelCase, 64-bit numbers and
 * lines as strings, enumerations by full name, `false` and empty lists left out). Tests can
 * leave members out of every answer (`omit`, also inside places: `content`, `locationUrl`,
 * `offset`, `end`) or have it spelt in snake_case, which no deployment is known to send but the
 * client reads too.
 */
import type { AutofixDesk, AutofixJob } from './autofix';
import { ticketCreatedAt } from './actions';
import { error, json, type PlatformResponse } from './respond';
import { elsewhereOf, iso, ownersOf, traceOf, type StoredFinding, type WireHistoryEntry } from './story-parts';
import type { PlatformData } from './types';

/** Members a test can leave out: the answer's own, and those of each place of the trace. */
export const STORY_MEMBERS = [
  'dataflowTrace',
  'relatedIssues',
  'activityHistory',
  'isBlocking',
  'codeowners',
  'triagePermission',
  'codeSnippets',
  'clickToFixPrUrl',
  'clickToFixPrId',
  'commitUrl',
  'firstDetectedAt',
  'ruleDisplayName',
  'intermediateVars',
  'content',
  'locationUrl',
  'offset',
  'end',
] as const;
export type StoryMember = (typeof STORY_MEMBERS)[number];

/** Mutable: tests change them between requests. */
export interface StoryKnobs {
  omit: Set<StoryMember>;
  spelling: 'camel' | 'snake';
}

export interface StoryContext {
  data: PlatformData;
  knobs: StoryKnobs;
  autofix: AutofixDesk;
  /** The token's role may not write: it may only request exceptions. */
  readOnly: boolean;
}

const HOUR_MS = 3_600_000;

export function issueStory(ctx: StoryContext, issueId: number, params: URLSearchParams): PlatformResponse {
  const { data } = ctx;
  const withCode = params.get('includeCodeSnippet') !== 'false';
  const finding = [...data.sast, ...data.ai_sast, ...data.sca].find((f) => f.id === issueId);
  const secret = finding ? undefined : data.secrets.find((s) => s.id === String(issueId));
  if (!finding && !secret) return error(404, 'issue not found');
  const permission = ctx.readOnly ? 'TRIAGE_PERMISSION_REQUEST' : 'TRIAGE_PERMISSION_IGNORE';
  const story: Record<string, unknown> = secret
    ? {
        id: secret.id,
        ref: secret.ref,
        activityHistory: [{ date: secret.createdAt, title: 'Secret detected', historyType: 'HISTORY_TYPE_STATUS' }],
        triagePermission: permission,
      }
    : findingStory(ctx, finding as StoredFinding, withCode, permission);
  const shaped = reshape(story, ctx.knobs);
  return json(200, shaped);
}

function findingStory(ctx: StoryContext, f: StoredFinding, withCode: boolean, permission: string): Record<string, unknown> {
  const { data } = ctx;
  const job = f.id === undefined ? undefined : ctx.autofix.job(f.id);
  const trace = traceOf(data, f, withCode);
  const prs = 'click_to_fix_prs' in f ? (f.click_to_fix_prs ?? []) : [];
  const prUrl = job?.pullRequest?.url ?? prs[prs.length - 1]?.url;
  const sha = /\/blob\/([0-9a-f]{7,64})\//.exec(f.line_of_code_url ?? '')?.[1];
  const related = elsewhereOf(data, f);
  const owners = ownersOf(data.deployment.slug, f);
  const sink = trace?.taintSink?.[0];
  const ruleName = f.rule?.name ?? f.rule_name ?? '';
  return {
    id: String(f.id),
    ...(f.ref ? { ref: f.ref } : {}),
    ruleDisplayName: displayName(ruleName),
    ...maybe('firstDetectedAt', iso(f.created_at)),
    ...maybe('commitUrl', sha && f.repository?.url ? `${f.repository.url}/commit/${sha}` : undefined),
    ...(trace ? { dataflowTrace: trace } : {}),
    ...(related.length > 0 ? { relatedIssues: related } : {}),
    activityHistory: historyOf(f, prs, job),
    ...(isBlocking(data, f) ? { isBlocking: true } : {}),
    ...(owners.length > 0 ? { codeowners: owners } : {}),
    triagePermission: permission,
    ...(withCode && sink?.content ? { codeSnippets: [{ path: sink.path, content: sink.content }] } : {}),
    ...maybe('clickToFixPrUrl', prUrl),
    ...maybe('clickToFixPrId', job?.pullRequest ? String(job.pullRequest.number) : /(\d+)$/.exec(prUrl ?? '')?.[1]),
  };
}

function maybe<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}

/** `…injection.tainted-sql-string` → `Tainted sql string`. */
function displayName(ruleName: string): string {
  const last = (ruleName.split('.').pop() ?? ruleName).replace(/[-_]+/g, ' ').trim();
  return last.charAt(0).toUpperCase() + last.slice(1);
}

/** The finding's rule runs in block mode in its sourcing policy. */
function isBlocking(data: PlatformData, f: StoredFinding): boolean {
  if (!('sourcing_policy' in f)) return false;
  const rules = data.rulesByPolicyId.get(String(f.sourcing_policy?.id ?? ''));
  return rules?.find((r) => r.path === (f.rule?.name ?? f.rule_name))?.policyMode === 'MODE_BLOCK';
}

/** Oldest first: found, the assistant's verdict, a ticket, a triage, fix pull requests and their fate. */
function historyOf(f: StoredFinding, prs: readonly { created_at?: string; url?: string }[], job: AutofixJob | undefined): WireHistoryEntry[] {
  const created = iso(f.created_at) ?? new Date(0).toISOString();
  const later = (hours: number): string => new Date(Date.parse(created) + hours * HOUR_MS).toISOString();
  const out: WireHistoryEntry[] = [{ date: created, title: `Found on ${f.ref ?? 'a branch'}`, historyType: 'HISTORY_TYPE_STATUS' }];
  const verdict = 'assistant' in f ? f.assistant?.autotriage : undefined;
  if (verdict?.verdict) {
    out.push({
      date: later(1),
      title: `Assistant: ${verdict.verdict.replace('_', ' ')}`,
      historyType: 'HISTORY_TYPE_AUTOTRIAGE',
      ...(verdict.reason ? { note: verdict.reason } : {}),
    });
  }
  const slug = f.external_ticket?.externalSlug ?? f.external_ticket?.external_slug;
  const ticketMade = f.external_ticket && ticketCreatedAt(f.external_ticket);
  if (slug) out.push({ date: ticketMade || later(2), title: `Ticket ${slug} created`, historyType: 'HISTORY_TYPE_TICKET_CREATED', actor: 'Jira integration' });
  const triaged = f.status === 'ignored' || f.status === 'reviewing' || f.status === 'fixing';
  if (triaged && f.triage_state !== 'untriaged') {
    out.push({
      date: iso(f.triaged_at) ?? later(3),
      title: `Triaged as ${f.status ?? ''}`,
      historyType: 'HISTORY_TYPE_TRIAGE',
      actor: 'Dana Whitfield',
      ...(f.status === 'ignored' && f.triage_reason ? { triageReason: f.triage_reason } : {}),
      ...(f.triage_comment ? { note: f.triage_comment } : {}),
    });
  }
  for (const failure of 'click_to_fix_failures' in f ? (f.click_to_fix_failures ?? []) : []) {
    out.push({
      date: iso(failure.created_at) ?? later(4),
      title: 'Fix pull request failed',
      historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_FAILED',
      ...(failure.reason ? { note: failure.reason } : {}),
    });
  }
  if (job) out.push({ date: job.requestedAt, title: 'Fix pull request requested', historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_REQUESTED', actor: 'API token' });
  const opened = prs.map((pr) => ({ date: iso(pr.created_at) ?? later(5), url: pr.url ?? '' }));
  if (job?.pullRequest && !opened.some((pr) => pr.url === job.pullRequest?.url)) opened.push({ date: job.pullRequest.openedAt, url: job.pullRequest.url });
  for (const pr of opened) out.push({ date: pr.date, title: `Fix pull request opened: ${pr.url}`, historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_OPENED' });
  const last = opened[opened.length - 1];
  if (last && f.status === 'fixed')
    out.push({
      date: new Date(Date.parse(last.date) + 48 * HOUR_MS).toISOString(),
      title: 'Fix pull request merged',
      historyType: 'HISTORY_TYPE_CLICK_TO_FIX_PR_MERGED',
    });
  return out.sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
}

/** The answer with the members a test left out removed (at any depth), and spelt as it asked. */
function reshape(value: unknown, knobs: StoryKnobs): unknown {
  if (Array.isArray(value)) return value.map((item) => reshape(item, knobs));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (knobs.omit.has(key as StoryMember)) continue;
    out[knobs.spelling === 'snake' ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key] = reshape(inner, knobs);
  }
  return out;
}

/** The finding's id from its path segment, or undefined when it is not a whole number. */
export function issueIdOf(segment: string | undefined): number | undefined {
  return segment !== undefined && /^\d{1,15}$/.test(segment) ? Number(segment) : undefined;
}
