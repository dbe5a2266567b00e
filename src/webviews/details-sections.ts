/**
 * The sections of the Finding Details page below its header. Each returns nothing when it has no
 * content, so a code finding shows no supply-chain section and a finding without a ticket no
 * ticket section. Values from the platform go in as plain strings (escaped by `html`); enumeration
 * values go through `valueLabel`, which keeps a value it does not know as it came.
 */
import { branchName } from '../core/model/refs';
import type { Finding } from '../core/model/types';
import type { FindingDetail } from '../core/model/finding-detail';
import { secretValidationLabel, valueLabel } from '../core/services/filters';
import { lockfilePathOf } from '../core/workspace/diagnostic-plan';
import type { FoundPlace, TodayPlace } from '../core/workspace/today-place';
import type { DetailsInput } from './details-input';
import { button, EMPTY, fields, html, join, link, list, prose, section, time, type Field, type Html } from './html';
import { historySections, pathSections } from './story-sections';

export function detailSections(input: DetailsInput): Html {
  return join([
    where(input), pathSections(input), rule(input), aiAnalysis(input), secret(input), triage(input), assistant(input), supplyChain(input),
    historySections(input), ticket(input), pullRequests(input), identifiers(input),
  ], html`\n`);
}

/** A finding of the AI-powered analysis: said so, with the likely impact it gives. */
function aiAnalysis({ finding, detail }: DetailsInput): Html {
  const ai = detail?.ai ?? finding.ai;
  if (!ai) return EMPTY;
  return section('AI analysis', 'ai', [fields([
    ['Found by', 'the platform\'s AI-powered code analysis'],
    ['Likely impact', prose(ai.impact ?? 'the platform gave none')],
  ])]);
}

/** A secret: its service and whether it was found to work. Its value is never sent, so never shown. */
function secret({ finding }: DetailsInput): Html {
  const facts = finding.secret;
  if (!facts) return EMPTY;
  const valid = facts.validation === 'confirmed_valid';
  return section('Secret', 'secret', [
    valid ? html`<p class="banner danger" role="note"><strong>This secret works.</strong> The platform confirmed it is valid: rotate it, then remove it from the history.</p>` : undefined,
    fields([
      ['Service', facts.service],
      ['Validation', secretValidationLabel(facts.validation)],
      ['Value', 'not sent by the platform (never stored or shown here)'],
    ]),
  ]);
}

const IGNORED: ReadonlySet<string> = new Set(['ignored', 'provisionally_ignored']);

/** A reason is only meaningful while ignored: a reopened finding may still carry its old one. */
function reasonOf(finding: Finding): string | undefined {
  return IGNORED.has(finding.status) && finding.triageReason ? valueLabel(finding.triageReason) : undefined;
}

/** `ignored (false positive)`, `reviewing`, `open`. */
export function statusText(finding: Finding): string {
  const reason = reasonOf(finding);
  return reason ? `${valueLabel(finding.status)} (${reason})` : valueLabel(finding.status);
}

/** `path:line` of a place in this copy (1-based, as the scanner writes it). */
function placeText(place: FoundPlace): string {
  return `${place.relativePath}:${place.range.startLine + 1}`;
}

/** A finding gone from this copy is named by where it was scanned; without a scanned file, nothing is said. */
function todayPlace(finding: Finding, place: TodayPlace): Html | undefined {
  if (place.kind === 'deleted') return finding.location ? html`${finding.location.filePath} <span class="note">· no longer in this copy</span>` : undefined;
  return html`${placeText(place)}${place.kind === 'changed' ? html` <span class="note">· code changed since the scan</span>` : undefined} ${button('openLocation', 'Open in Editor')}`;
}

function where({ finding, detail, place }: DetailsInput): Html {
  const scanned = finding.location ? `${finding.location.filePath}:${finding.location.line}` : undefined;
  // Said once when today's place is the scanned one; both when the code moved or went.
  const sameAsToday = place !== undefined && place.kind !== 'deleted' && place.kind !== 'changed' && scanned === placeText(place);
  const repositoryName = finding.repositoryName;
  const repositoryUrl = detail?.repositoryUrl;
  return section('Where', 'where', [fields([
    ['In this copy', place ? todayPlace(finding, place) : undefined],
    ['Scanned at', sameAsToday ? undefined : scanned],
    ['Scanned code', finding.lineOfCodeUrl ? link(finding.lineOfCodeUrl, 'the scanned line on the code host') : undefined],
    ['Branch', finding.ref ? branchName(finding.ref) : undefined],
    ['Repository', repositoryUrl ? link(repositoryUrl, repositoryName ?? repositoryUrl) : repositoryName],
    ['Policy', finding.policy?.name],
    ['Created', time(detail?.createdAt)],
    ['Relevant since', time(dateOf(finding.relevantSince ?? detail?.relevantSince))],
    ['State updated', time(detail?.stateUpdatedAt)],
  ])]);
}

function rule({ finding, detail }: DetailsInput): Html {
  const r = detail?.rule;
  // The header already shows one message; the rule's own is repeated only when it differs.
  const headerMessage = finding.message || r?.message;
  const categories = [...new Set([r?.category, ...(detail?.categories ?? [])].filter((c): c is string => !!c))];
  const confidence = r?.confidence ?? finding.confidence;
  return section('Rule', 'rule', [fields([
    ['Rule id', html`<code>${finding.ruleName}</code>`],
    ['Name', r?.name && r.name !== finding.ruleName ? r.name : undefined],
    ['Message', r?.message && r.message !== headerMessage ? prose(r.message) : undefined],
    ['Category', list(categories)],
    ['Confidence', confidence ? valueLabel(confidence) : undefined],
    ['CWE', list(r?.cweNames)],
    ['OWASP', list(r?.owaspNames)],
    ['Vulnerability classes', list(r?.vulnerabilityClasses)],
    ['Kind of rule', list(r?.subcategories?.map((s) => SUBCATEGORY_WORDS[s] ?? s))],
  ])]);
}

/** The platform's rule subcategories, worded (an unknown one is shown as sent). */
const SUBCATEGORY_WORDS: Readonly<Record<string, string>> = {
  vuln: 'vulnerability (a flaw an attacker can reach)',
  audit: 'audit (a pattern worth a review, not a proven flaw)',
  guardrail: 'guardrail (a safe default the organization asks for)',
};

function triage({ finding, detail }: DetailsInput): Html {
  const rest: Field[] = [
    ['Reason', reasonOf(finding)],
    ['Note', prose(finding.triageComment ?? detail?.triageComment)],
    ['Triaged', time(detail?.triagedAt)],
  ];
  // An open finding nobody has triaged has nothing to say here beyond the header's badge.
  if (finding.status === 'open' && fields(rest).isEmpty) return EMPTY;
  return section('Triage', 'triage', [fields([['Status', valueLabel(finding.status)], ...rest])]);
}

function assistant({ detail, currentCode, place }: DetailsInput): Html {
  const a = detail?.assistant;
  if (!a) return EMPTY;
  return section('Assistant', 'assistant', [
    suggestedFix(a.autofixCode, currentCode, place),
    fields([
      ['About the fix', prose(a.autofixExplanation)],
      ['Verdict', a.autotriageVerdict ? valueLabel(a.autotriageVerdict) : undefined],
      ['Why', prose(a.autotriageReason)],
      ['Component', a.componentTag],
      ['Component risk', a.componentRisk ? valueLabel(a.componentRisk) : undefined],
      ['Guidance', prose(a.guidanceSummary)],
      ['Steps', prose(a.guidanceInstructions)],
      ['The rule explained', prose(a.ruleExplanationSummary)],
    ]),
  ]);
}

/** Two pieces of code with the same lines, whatever their indentation and blank lines. */
function sameLines(a: string, b: string): boolean {
  const lines = (text: string): string => text.split('\n').map((line) => line.trim()).filter((line) => line !== '').join('\n');
  return lines(a) === lines(b);
}

/**
 * The suggested fix beside today's code, and Apply only where the panel can apply it: the code is
 * here, has not changed since the scan (the fix was written for the scanned lines) and does not
 * already read as the fix.
 */

function suggestedFix(code: string | undefined, currentCode: string | undefined, place: TodayPlace | undefined): Html {
  if (!code || code.trim() === '') return EMPTY;
  const pane = (title: string, text: string): Html => html`<div class="code-pane"><h3>${title}</h3><pre><code>${text}</code></pre></div>`;
  // The code here already reads as the fix (applied from here or the quick fix, saved or not).
  const applied = currentCode !== undefined && sameLines(currentCode, code);
  const applicable = currentCode !== undefined && !applied && place?.kind !== 'deleted' && place?.kind !== 'changed';
  const why = applied
    ? 'The suggested fix is in the code here (unsaved edits included). Undo in the editor takes it back.'
    : place?.kind === 'deleted'
    ? 'The finding is no longer in this copy, so the fix cannot be applied here.'
    : place?.kind === 'changed'
      ? 'The code here changed since the scan: compare, and apply the fix by hand.'
      : 'Open the finding\'s repository in this window to apply the fix here.';
  return html`<div class="fix-compare">${currentCode !== undefined ? pane('Today\'s code', currentCode) : undefined}${pane('Suggested fix', code)}</div>
${applicable ? html`<p>${button('applyFix', 'Apply suggested fix', { primary: true })}</p>` : html`<p class="note">${why}</p>`}`;
}

/**
 * A probability (0–1) as a percentage: two decimals below 1 %, one above, never rounded up to a
 * certainty it is not. A value outside 0–1 is not a probability and is shown as it came.
 */
export function percentText(fraction: number | undefined): string | undefined {
  if (fraction === undefined || !Number.isFinite(fraction)) return undefined;
  if (fraction < 0 || fraction > 1) return String(fraction);
  const pct = fraction * 100;
  if (pct === 0) return '0%';
  if (pct < 0.01) return '<0.01%';
  const rounded = Number(pct.toFixed(pct < 1 ? 2 : 1));
  return rounded === 100 && pct < 100 ? '>99.9%' : `${rounded}%`;
}

function supplyChain({ finding, detail }: DetailsInput): Html {
  const sca = detail?.sca ?? finding.sca;
  const epss = detail?.epss;
  if (!sca && !epss && !detail?.reachableCondition) return EMPTY;
  const lockfile = sca?.lockfileLineUrl
    ? `${lockfilePathOf(sca.lockfileLineUrl) ?? 'the lockfile'}${sca.lockfileLine ? ` line ${sca.lockfileLine}` : ''}`
    : undefined;
  return section('Supply chain', 'supply-chain', [
    sca?.isMalicious ? html`<p class="banner danger" role="note"><strong>Malicious package.</strong> The platform flags this package as malicious.</p>` : undefined,
    fields([
      ['Package', sca?.package],
      ['Version', sca?.version],
      ['Ecosystem', sca?.ecosystem],
      ['Dependency', sca?.transitivity ? valueLabel(sca.transitivity) : undefined],
      ['Advisory', sca?.advisory],
      ['Reachability', sca?.reachability ? valueLabel(sca.reachability) : undefined],
      ['Reachable when', prose(detail?.reachableCondition)],
      ['Used at', sca?.usage ? `${sca.usage.filePath}:${sca.usage.line}` : undefined],
      ['EPSS score', percentText(epss?.score)],
      ['EPSS percentile', percentText(epss?.percentile)],
      ['Fixed in', list(sca?.fixVersions)],
      ['Malicious', sca?.isMalicious ? html`<strong>yes</strong>` : undefined],
      ['Lockfile', lockfile ? link(sca?.lockfileLineUrl, lockfile) : undefined],
    ]),
  ]);
}

function ticket({ finding, detail }: DetailsInput): Html {
  const t = finding.ticket ?? detail?.externalTicket;
  if (!t) return EMPTY;
  const linked = detail?.externalTicket?.linkedIssueIds ?? [];
  return section('Ticket', 'ticket', [fields([
    ['Ticket', link(t.url, t.slug ?? t.url ?? 'linked (the platform gave no key)')],
    ['Linked findings', list(linked.map((id) => `#${id}`))],
  ])]);
}

function failureText(failure: FindingDetail['clickToFixFailures'][number]): Html {
  return join([time(failure.createdAt), prose(failure.reason || 'no reason given')], html`: `);
}

function pullRequests({ detail }: DetailsInput): Html {
  if (!detail) return EMPTY;
  return section('Pull requests', 'pull-requests', [fields([
    ['Fix pull requests', list(detail.clickToFixPrUrls.map((url) => link(url)))],
    ['Fix attempts that failed', list(detail.clickToFixFailures.map(failureText))],
    ['Review comments', list(detail.reviewComments.map((c) => `comment ${c.noteId ?? '(no id)'} in discussion ${c.discussionId ?? '(no id)'}`))],
  ])]);
}

function identifiers({ finding, detail }: DetailsInput): Html {
  return section('Identifiers', 'identifiers', [fields([
    ['Finding id', String(finding.id)],
    ['Match-based id', detail?.matchBasedId],
    ['Syntactic id', detail?.syntacticId],
    ['First seen in scan', detail?.firstSeenScanId === undefined ? undefined : String(detail.firstSeenScanId)],
  ])]);
}

function dateOf(epochMs: number | undefined): Date | undefined {
  return epochMs === undefined ? undefined : new Date(epochMs);
}
