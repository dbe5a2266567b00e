/**
 * The Finding Details page: every field the platform sends, in sections shown only when they
 * have content, with the actions at the top. Pure: the panel passes what it knows and gets the
 * whole document. Strict CSP: no inline script or style; the script comes from the extension with
 * a nonce, the style from the extension; server text is escaped everywhere.
 */
import { supplyChainName } from '../core/model/finding-names';
import type { Finding, FindingDetail } from '../core/model/types';
import { valueLabel } from '../core/services/filters';
import { button, escapeHtml, fields, link, list, prose, section } from './html';

export interface DetailsPlace { readonly path: string; readonly line: number; readonly changed?: boolean; readonly gone?: boolean }

export interface DetailsInput {
  /** The finding as the views hold it (always there), and its full detail once loaded. */
  readonly finding: Finding;
  readonly detail?: FindingDetail;
  /** Loading the detail: show what `finding` has, and say the rest is loading. */
  readonly loading?: boolean;
  /** Loading the detail failed: the reason (plain text), shown above what is known. */
  readonly error?: string;
  /** Where the finding is in today's code (after drift mapping), if known. */
  readonly place?: DetailsPlace;
  /** The platform's page of the finding (http(s)), if known. */
  readonly platformUrl?: string;
  /** Whether the finding is new on its branch, with the branch that lacks it. */
  readonly newAgainst?: string;
  /** The code at the finding's lines today (beside the suggested fix), if known. */
  readonly currentCode?: string;
  /** A triage or ticket action in flight or just done (plain text). */
  readonly notice?: { readonly kind: 'info' | 'error' | 'busy'; readonly text: string };
}

export interface WebviewResources { readonly nonce: string; readonly cspSource: string; readonly scriptUri: string; readonly styleUri: string }

/** The messages the page's script posts to the extension. */
export type DetailsMessage =
  | { readonly type: 'triage'; readonly state: 'ignored' | 'reviewing' | 'fixing' | 'reopened' }
  | { readonly type: 'addNote' }
  | { readonly type: 'createTicket' } | { readonly type: 'linkTicket' } | { readonly type: 'unlinkTicket' }
  | { readonly type: 'openInPlatform' } | { readonly type: 'openLink'; readonly url: string }
  | { readonly type: 'openLocation' } | { readonly type: 'applyFix' } | { readonly type: 'copyRuleId' } | { readonly type: 'refresh' };

const SIMPLE = new Set(['addNote', 'createTicket', 'linkTicket', 'unlinkTicket', 'openInPlatform', 'openLocation', 'applyFix', 'copyRuleId', 'refresh']);
const STATES = new Set(['ignored', 'reviewing', 'fixing', 'reopened']);

/** Validates a message from the page (untrusted): undefined for anything else. */
export function parseDetailsMessage(raw: unknown): DetailsMessage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { type, state, url } = raw as Record<string, unknown>;
  if (typeof type !== 'string') return undefined;
  if (SIMPLE.has(type)) return { type } as DetailsMessage;
  if (type === 'triage' && typeof state === 'string' && STATES.has(state)) return { type, state: state as 'ignored' };
  if (type === 'openLink' && typeof url === 'string' && /^https?:\/\//i.test(url)) {
    try {
      const { protocol } = new URL(url);
      return protocol === 'http:' || protocol === 'https:' ? { type, url } : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function findingDetailsHtml(input: DetailsInput, resources: WebviewResources): string {
  const { finding, detail } = input;
  const nonce = escapeHtml(resources.nonce);
  // The policy's own quotes stay as they are; what comes from outside is escaped.
  const source = escapeHtml(resources.cspSource);
  const csp = `default-src 'none'; img-src ${source} https: data:; style-src ${source}; script-src 'nonce-${nonce}';`;
  const body = [
    header(input),
    status(input),
    whereSection(input),
    ruleSection(finding, detail),
    triageSection(finding, detail),
    assistantSection(input),
    supplyChainSection(finding, detail),
    ticketSection(finding, detail),
    pullRequestSection(detail),
  ].join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeHtml(resources.styleUri)}">
<title>${escapeHtml(titleOf(finding))}</title>
</head>
<body>
<main>
${body}
</main>
<script nonce="${nonce}" src="${escapeHtml(resources.scriptUri)}"></script>
</body>
</html>`;
}

function titleOf(finding: Finding): string {
  return supplyChainName(finding) ?? finding.ruleName.split('.').pop() ?? finding.ruleName;
}

function statusText(finding: Finding): string {
  const reason = finding.status === 'ignored' && finding.triageReason ? ` (${valueLabel(finding.triageReason)})` : '';
  return `${valueLabel(finding.status)}${reason}`;
}

function header(input: DetailsInput): string {
  const { finding } = input;
  const severity = escapeHtml(finding.severity || 'unknown');
  const badges = [
    `<span class="badge severity severity-${severity.replace(/[^a-z]/g, '')}">${severity}</span>`,
    `<span class="badge status">${escapeHtml(statusText(finding))}</span>`,
    finding.sca?.isMalicious ? '<span class="badge danger">malicious package</span>' : '',
    input.newAgainst ? `<span class="badge new" title="${escapeHtml(`${input.newAgainst} does not have it`)}">new on this branch</span>` : '',
  ].join(' ');
  const open = finding.status === 'open';
  const ticket = finding.ticket ?? input.detail?.externalTicket;
  const actions = [
    button('triage', 'Ignore…', { state: 'ignored' }, true),
    finding.status !== 'reviewing' ? button('triage', 'Mark as Reviewing', { state: 'reviewing' }) : '',
    finding.status !== 'fixing' ? button('triage', 'Mark as Fixing', { state: 'fixing' }) : '',
    open ? '' : button('triage', 'Reopen', { state: 'reopened' }),
    button('addNote', 'Add Note…'),
    ticket ? button('unlinkTicket', 'Unlink Ticket') : button('createTicket', 'Create Jira Ticket'),
    button('linkTicket', 'Link Existing Ticket…'),
    input.platformUrl ? button('openInPlatform', 'Open in Platform') : '',
    button('copyRuleId', 'Copy Rule ID'),
    button('refresh', 'Refresh'),
  ].filter((b) => b !== '').join('');
  return `<header>
<h1>${escapeHtml(titleOf(finding))}</h1>
<p class="rule-id">${escapeHtml(finding.ruleName)}</p>
<p class="badges">${badges}</p>
<p class="message prose">${escapeHtml(finding.message)}</p>
<nav class="actions" aria-label="Actions">${actions}</nav>
</header>`;
}

function status(input: DetailsInput): string {
  const lines: string[] = [];
  if (input.loading) lines.push('<p class="loading" aria-busy="true">Loading the platform\'s details…</p>');
  if (input.error) lines.push(`<p class="banner error" role="alert">${escapeHtml(input.error)}</p>`);
  if (input.notice) lines.push(`<p class="banner ${escapeHtml(input.notice.kind)}" role="status" aria-live="polite">${escapeHtml(input.notice.text)}</p>`);
  return lines.join('\n');
}

function date(value: Date | undefined): string | undefined {
  return value && !Number.isNaN(value.getTime()) ? escapeHtml(value.toISOString().replace('T', ' ').slice(0, 16)) : undefined;
}

function whereSection(input: DetailsInput): string {
  const { finding, detail, place } = input;
  const where = place
    ? `${escapeHtml(`${place.path}:${place.line}`)}${place.gone ? ' <span class="note">· no longer in this copy</span>' : place.changed ? ' <span class="note">· the code here changed since the scan</span>' : ''}${place.gone ? '' : ` ${button('openLocation', 'Open')}`}`
    : finding.location ? escapeHtml(`${finding.location.filePath}:${finding.location.line}`) : undefined;
  return section('Where', fields([
    ['Place', where],
    ['Branch', finding.ref ? escapeHtml(finding.ref) : undefined],
    ['Repository', finding.repositoryName ? (detail?.repositoryUrl ? link(detail.repositoryUrl, finding.repositoryName) : escapeHtml(finding.repositoryName)) : undefined],
    ['Scanned code', finding.lineOfCodeUrl ? link(finding.lineOfCodeUrl, 'at the scanned commit') : undefined],
    ['Policy', finding.policy ? escapeHtml(finding.policy.name) : undefined],
    ['First seen', date(detail?.createdAt)],
    ['Relevant since', date(finding.relevantSince)],
    ['State updated', date(detail?.stateUpdatedAt)],
  ]));
}

function ruleSection(finding: Finding, detail: FindingDetail | undefined): string {
  const rule = detail?.rule;
  return section('Rule', fields([
    ['Rule', escapeHtml(rule?.name ?? finding.ruleName)],
    ['Category', rule?.category ? escapeHtml(rule.category) : list(detail?.categories ?? [])],
    ['Confidence', rule?.confidence ?? finding.confidence ? escapeHtml(rule?.confidence ?? finding.confidence ?? '') : undefined],
    ['CWE', list(rule?.cweNames ?? [])],
    ['OWASP', list(rule?.owaspNames ?? [])],
    ['Vulnerability classes', list(rule?.vulnerabilityClasses ?? [])],
    ['Subcategories', list(rule?.subcategories ?? [])],
  ]) + (rule?.message && rule.message !== finding.message ? prose(rule.message) : ''));
}

function triageSection(finding: Finding, detail: FindingDetail | undefined): string {
  return section('Triage', fields([
    ['Status', escapeHtml(statusText(finding))],
    ['Triage state', detail?.triageState && detail.triageState !== 'untriaged' ? escapeHtml(valueLabel(detail.triageState)) : undefined],
    ['Note', finding.triageComment ?? detail?.triageComment ? `<span class="prose">${escapeHtml(finding.triageComment ?? detail?.triageComment ?? '')}</span>` : undefined],
    ['Triaged', date(detail?.triagedAt)],
  ]));
}

function assistantSection(input: DetailsInput): string {
  const a = input.detail?.assistant;
  if (!a) return '';
  const fix = a.autofixCode
    ? `<div class="fix"><div><h3>Suggested fix</h3><pre><code>${escapeHtml(a.autofixCode)}</code></pre></div>${input.currentCode !== undefined
      ? `<div><h3>Today's code</h3><pre><code>${escapeHtml(input.currentCode)}</code></pre></div>` : ''}</div>${prose(a.autofixExplanation)}${button('applyFix', 'Apply suggested fix', {}, true)}`
    : '';
  return section('Assistant', fix + fields([
    ['Verdict', a.autotriageVerdict ? escapeHtml(valueLabel(a.autotriageVerdict)) : undefined],
    ['Why', a.autotriageReason ? `<span class="prose">${escapeHtml(a.autotriageReason)}</span>` : undefined],
    ['Component', [a.componentTag, a.componentRisk ? `${a.componentRisk} risk` : undefined].filter(Boolean).map((t) => escapeHtml(t ?? '')).join(' · ') || undefined],
    ['Guidance', a.guidanceSummary ? `<span class="prose">${escapeHtml(a.guidanceSummary)}</span>` : undefined],
    ['Steps', a.guidanceInstructions ? `<span class="prose">${escapeHtml(a.guidanceInstructions)}</span>` : undefined],
    ['Rule explained', a.ruleExplanationSummary ? `<span class="prose">${escapeHtml(a.ruleExplanationSummary)}</span>` : undefined],
  ]));
}

function percent(value: number | undefined): string | undefined {
  if (value === undefined || !Number.isFinite(value)) return undefined;
  const pct = value <= 1 ? value * 100 : value;
  return `${pct < 1 ? pct.toFixed(2) : pct.toFixed(1)} %`;
}

function supplyChainSection(finding: Finding, detail: FindingDetail | undefined): string {
  const sca = finding.sca;
  if (!sca) return '';
  const epss = detail?.epss;
  return section('Supply chain', fields([
    ['Package', sca.package ? escapeHtml(`${sca.package}${sca.version ? ` ${sca.version}` : ''}`) : undefined],
    ['Ecosystem', sca.ecosystem ? escapeHtml(sca.ecosystem) : undefined],
    ['Dependency', sca.transitivity ? escapeHtml(sca.transitivity) : undefined],
    ['Advisory', sca.advisory ? escapeHtml(sca.advisory) : undefined],
    ['Reachability', sca.reachability ? escapeHtml(valueLabel(sca.reachability)) : undefined],
    ['Reachable when', detail?.reachableCondition ? `<span class="prose">${escapeHtml(detail.reachableCondition)}</span>` : undefined],
    ['EPSS score', percent(epss?.score)],
    ['EPSS percentile', percent(epss?.percentile)],
    ['Fixed in', list(sca.fixVersions ?? [])],
    ['Malicious', sca.isMalicious ? '<strong>yes: remove this package</strong>' : undefined],
    ['Lockfile', sca.lockfileLineUrl ? link(sca.lockfileLineUrl, `line ${sca.lockfileLine ?? ''}`.trim()) : undefined],
  ]));
}

function ticketSection(finding: Finding, detail: FindingDetail | undefined): string {
  const ticket = finding.ticket ?? detail?.externalTicket;
  if (!ticket) return '';
  const linked = detail?.externalTicket?.linkedIssueIds ?? [];
  return section('Ticket', fields([
    ['Ticket', ticket.url ? link(ticket.url, ticket.slug ?? ticket.url) : escapeHtml(ticket.slug ?? '')],
    ['Also on', linked.length > 1 ? escapeHtml(linked.filter((id) => id !== finding.id).map((id) => `#${id}`).join(', ')) : undefined],
  ]));
}

function pullRequestSection(detail: FindingDetail | undefined): string {
  const prs = detail?.clickToFixPrUrls ?? [];
  const failures = detail?.clickToFixFailures ?? [];
  const comments = detail?.reviewComments ?? [];
  return section('Pull requests', fields([
    ['Fix pull requests', prs.length > 0 ? prs.map((url) => link(url)).join('<br>') : undefined],
    ['Fix attempts that failed', failures.length > 0
      ? failures.map((f) => `<span class="prose">${[date(f.createdAt), f.reason ? escapeHtml(f.reason) : 'no reason given'].filter(Boolean).join(': ')}</span>`).join('<br>')
      : undefined],
    ['Review comments', comments.length > 0 ? escapeHtml(`${comments.length} comment${comments.length === 1 ? '' : 's'} on the pull request`) : undefined],
  ]));
}
