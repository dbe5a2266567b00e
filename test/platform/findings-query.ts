/**
 * The findings endpoint's query engine (spec 4.2): filters, `dedup`, ordering and offset paging.
 * Findings are sorted once per issue type and re-sorted only when the data changed, then scanned
 * in order until the requested page is full, so one page out of 100 000 costs milliseconds.
 */
import type { WireSastFinding, WireScaFinding } from './wire';
import { boolean, integer, list, number, QueryError } from './query-params';
import { parseTimestamp } from './timestamps';
import type { ClickToFixPrState, PlatformData } from './types';

export type IssueType = 'sast' | 'sca' | 'ai_sast';
export type AnyFinding = WireSastFinding & WireScaFinding;
type Predicate = (f: AnyFinding) => boolean;

/**
 * A code finding's fix PR is "merged" once the finding is fixed, otherwise "open"; findings
 * without PRs have no state. Supply-chain findings carry no PR list on the wire, so their PR
 * (an upgrade) is taken to be open while `fixing` and merged once `fixed`.
 */
export function clickToFixPrState(f: WireSastFinding | WireScaFinding): ClickToFixPrState | undefined {
  const hasPr = 'click_to_fix_prs' in f ? (f.click_to_fix_prs?.length ?? 0) > 0 : f.status === 'fixing' || f.status === 'fixed';
  if (!hasPr) return undefined;
  return f.status === 'fixed' ? 'merged' : 'open';
}

const POLICY_FILTER_MODES: Record<string, string> = {
  'rule-board-audit': 'MODE_MONITOR',
  'rule-board-pr-comments': 'MODE_COMMENT',
  'rule-board-block': 'MODE_BLOCK',
};

export interface FindingsPage {
  issueType: IssueType;
  findings: AnyFinding[];
}

/** Findings newest first, with each one's `relevant_since` in epoch ms (-Infinity if unreadable). */
export interface SortedFindings {
  findings: AnyFinding[];
  times: number[];
}

interface SortedView {
  snapshot: AnyFinding[];
  keys: (string | undefined)[];
  ids: (number | undefined)[];
  sorted: SortedFindings;
}

/** Holds the sorted order of each issue type and notices when tests changed the data. */
export class FindingsIndex {
  private readonly views = new Map<IssueType, SortedView>();

  sorted(type: IssueType, findings: AnyFinding[]): SortedFindings {
    const view = this.views.get(type);
    if (view && unchanged(view, findings)) return view.sorted;
    const fresh = sortNewestFirst(findings);
    this.views.set(type, fresh);
    return fresh.sorted;
  }
}

/** O(n) identity check: catches pushes, removals, replacements and edits of the sort keys. */
function unchanged(view: SortedView, findings: AnyFinding[]): boolean {
  if (view.snapshot.length !== findings.length) return false;
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i];
    if (f !== view.snapshot[i] || f.relevant_since !== view.keys[i] || f.id !== view.ids[i]) return false;
  }
  return true;
}

/** Newest `relevant_since` first, ties by id descending; unreadable times sort last. */
function sortNewestFirst(findings: AnyFinding[]): SortedView {
  const times = findings.map((f) => {
    const t = parseTimestamp(f.relevant_since);
    return Number.isNaN(t) ? -Infinity : t;
  });
  const order = findings.map((_, i) => i);
  order.sort((a, b) => times[b] - times[a] || (findings[b].id ?? 0) - (findings[a].id ?? 0));
  return {
    snapshot: findings.slice(),
    keys: findings.map((f) => f.relevant_since),
    ids: findings.map((f) => f.id),
    sorted: { findings: order.map((i) => findings[i]), times: order.map((i) => times[i]) },
  };
}

function oneOf(values: string[] | undefined, read: (f: AnyFinding) => string | undefined): Predicate | undefined {
  if (!values) return undefined;
  const wanted = new Set(values);
  return (f) => {
    const v = read(f);
    return v !== undefined && wanted.has(v);
  };
}

function commonPredicates(params: URLSearchParams, data: PlatformData): (Predicate | undefined)[] {
  const repositoryIds = list(params, 'repository_ids')?.map((v) => {
    if (!/^\d+$/.test(v)) throw new QueryError('repository_ids must be integers');
    return Number(v);
  });
  const reposById = repositoryIds ? new Set(data.projects.filter((p) => repositoryIds.includes(p.repository_id)).map((p) => p.name)) : undefined;
  const triageReasons = list(params, 'triage_reasons');
  const reasons = triageReasons ? new Set(triageReasons) : undefined;
  return [
    oneOf(list(params, 'repos'), (f) => f.repository?.name),
    reposById && ((f) => reposById.has(f.repository?.name ?? '')),
    oneOf(list(params, 'status'), (f) => f.status),
    // "Applies when status is ignored": it narrows the ignored findings and leaves the rest alone.
    reasons && ((f) => f.status !== 'ignored' || reasons.has(f.triage_reason ?? '')),
    oneOf(list(params, 'severities'), (f) => f.severity),
    oneOf(list(params, 'ref'), (f) => f.ref),
    // Supply-chain findings have no assistant, so a component tag filter matches none of them.
    oneOf(list(params, 'component_tags'), (f) => f.assistant?.component?.tag),
    oneOf(list(params, 'click_to_fix_pr_state'), clickToFixPrState),
  ];
}

function sastPredicates(params: URLSearchParams, data: PlatformData): (Predicate | undefined)[] {
  const policyFilter = list(params, 'policies');
  let byPolicyMode: Predicate | undefined;
  if (policyFilter) {
    const modes = new Set(policyFilter.map((p) => POLICY_FILTER_MODES[p]).filter((m) => m !== undefined));
    const modeOf = new Map<string, string | undefined>();
    for (const [policyId, rules] of data.rulesByPolicyId) {
      for (const r of rules) modeOf.set(`${policyId}\n${r.path ?? ''}`, r.policyMode);
    }
    byPolicyMode = (f) => modes.has(modeOf.get(`${f.sourcing_policy?.id ?? ''}\n${f.rule_name ?? ''}`) ?? '');
  }
  const categories = list(params, 'categories');
  const categorySet = categories ? new Set(categories) : undefined;
  return [
    byPolicyMode,
    oneOf(list(params, 'rules'), (f) => f.rule_name),
    categorySet && ((f) => (f.categories ?? []).some((c) => categorySet.has(c))),
    oneOf(list(params, 'confidence'), (f) => f.confidence),
    oneOf(list(params, 'autotriage_verdict'), (f) => f.assistant?.autotriage?.verdict),
  ];
}

function scaPredicates(params: URLSearchParams): (Predicate | undefined)[] {
  const malicious = boolean(params, 'is_malicious');
  return [
    oneOf(list(params, 'exposures'), (f) => f.reachability),
    oneOf(list(params, 'transitivities'), (f) => f.found_dependency?.transitivity),
    malicious === undefined ? undefined : (f) => (f.is_malicious === true) === malicious,
  ];
}

/**
 * Answers one findings request. Throws QueryError for a 400. With `maxPageSize`, a page holds at
 * most that many findings and pages are counted in that size (a server that caps page sizes).
 */
export function queryFindings(data: PlatformData, index: FindingsIndex, params: URLSearchParams, maxPageSize?: number): FindingsPage {
  const issueType = params.get('issue_type') || 'sast';
  if (issueType !== 'sast' && issueType !== 'sca' && issueType !== 'ai_sast') throw new QueryError('issue_type must be sast, sca or ai_sast');
  const page = integer(params, 'page', 0, 0, 2 ** 32 - 1);
  const asked = integer(params, 'page_size', 100, 100, 3000);
  const pageSize = maxPageSize === undefined ? asked : Math.min(asked, maxPageSize);
  const dedup = boolean(params, 'dedup') ?? false;
  const since = number(params, 'since');
  const sinceMs = since === undefined ? -Infinity : since * 1000;
  // Filters for the other issue type are ignored, as the spec's "applies to" notes say.
  const predicates = [...commonPredicates(params, data), ...(issueType === 'sca' ? scaPredicates(params) : sastPredicates(params, data))].filter(
    (p): p is Predicate => p !== undefined,
  );

  const { findings: all, times } = index.sorted(issueType, issueType === 'sast' ? data.sast : issueType === 'ai_sast' ? data.ai_sast : data.sca);
  const skip = page * pageSize;
  const out: AnyFinding[] = [];
  const seen = new Set<string>();
  let matched = 0;
  for (let i = 0; i < all.length; i++) {
    // Newest first: once older than `since`, every later finding is too.
    if (times[i] < sinceMs) break;
    const f = all[i];
    if (!predicates.every((p) => p(f))) continue;
    if (dedup) {
      // Sorted newest first, so the first of each (syntactic_id, repository) is the one kept.
      const key = `${f.syntactic_id ?? f.id ?? ''}\n${f.repository?.name ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    if (matched++ < skip) continue;
    out.push(f);
    if (out.length === pageSize) break;
  }
  return { issueType, findings: out };
}
