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
import { goneText } from '../views/finding-presentation';
import { formatCount, t } from '../core/l10n';
import { button, EMPTY, fields, html, join, link, list, prose, section, time, type Field, type Html } from './html';
import { historySections, pathSections } from './story-sections';
import { assistantSection } from './assistant-section';

export function detailSections(input: DetailsInput): Html {
  return join(
    [
      where(input),
      pathSections(input),
      rule(input),
      aiAnalysis(input),
      secret(input),
      triage(input),
      assistantSection(input),
      supplyChain(input),
      historySections(input),
      ticket(input),
      pullRequests(input),
      identifiers(input),
    ],
    html`\n`,
  );
}

/** A finding of the AI-powered analysis: said so, with the likely impact it gives. */
function aiAnalysis({ finding, detail }: DetailsInput): Html {
  const ai = detail?.ai ?? finding.ai;
  if (!ai) return EMPTY;
  return section(t('AI analysis'), 'ai', [
    fields([
      [t('Found by'), t("the platform's AI-powered code analysis")],
      [t('Likely impact'), prose(ai.impact ?? t('the platform gave none'))],
    ]),
  ]);
}

/** A secret: its service and whether it was found to work. Its value is never sent, so never shown. */
function secret({ finding }: DetailsInput): Html {
  const facts = finding.secret;
  if (!facts) return EMPTY;
  const valid = facts.validation === 'confirmed_valid';
  return section(t('Secret'), 'secret', [
    valid
      ? html`<p class="banner danger" role="note"><strong>${t('This secret works.')}</strong> ${t('The platform confirmed it is valid: rotate it, then remove it from the history.')}</p>`
      : undefined,
    fields([
      [t('Service'), facts.service],
      [t('Validation'), secretValidationLabel(facts.validation)],
      [t('Value'), t('not sent by the platform (never stored or shown here)')],
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
  if (place.kind === 'deleted') {
    if (!finding.location) return undefined;
    const open = place.onlyAt === undefined ? undefined : html` ${button('openLocation', t('Open as It Is There'))}`;
    return html`${finding.location.filePath} <span class="note">· ${goneText(finding, place)}</span>${open}`;
  }
  return html`${placeText(place)}${place.kind === 'changed' ? html` <span class="note">· ${t('code changed since the scan')}</span>` : undefined} ${button('openLocation', t('Open in Editor'))}`;
}

function where({ finding, detail, place }: DetailsInput): Html {
  const scanned = finding.location ? `${finding.location.filePath}:${finding.location.line}` : undefined;
  // Said once when today's place is the scanned one; both when the code moved or went.
  const sameAsToday = place !== undefined && place.kind !== 'deleted' && place.kind !== 'changed' && scanned === placeText(place);
  const repositoryName = finding.repositoryName;
  const repositoryUrl = detail?.repositoryUrl;
  return section(t('Where'), 'where', [
    fields([
      [t('In this copy'), place ? todayPlace(finding, place) : undefined],
      [t('Scanned at'), sameAsToday ? undefined : scanned],
      [t('Scanned code'), finding.lineOfCodeUrl ? link(finding.lineOfCodeUrl, t('the scanned line on the code host')) : undefined],
      [t('Branch'), finding.ref ? branchName(finding.ref) : undefined],
      [t('Repository'), repositoryUrl ? link(repositoryUrl, repositoryName ?? repositoryUrl) : repositoryName],
      [t('Policy'), finding.policy?.name],
      [t('Created'), time(detail?.createdAt)],
      [t('Relevant since'), time(dateOf(finding.relevantSince ?? detail?.relevantSince))],
      [t('State updated'), time(detail?.stateUpdatedAt)],
    ]),
  ]);
}

function rule({ finding, detail }: DetailsInput): Html {
  const r = detail?.rule;
  // The header already shows one message; the rule's own is repeated only when it differs.
  const headerMessage = finding.message || r?.message;
  const categories = [...new Set([r?.category, ...(detail?.categories ?? [])].filter((c): c is string => !!c))];
  const confidence = r?.confidence ?? finding.confidence;
  return section(t('Rule'), 'rule', [
    fields([
      [t('Rule id'), html`<code>${finding.ruleName}</code>`],
      [t('Name'), r?.name && r.name !== finding.ruleName ? r.name : undefined],
      [t('Message'), r?.message && r.message !== headerMessage ? prose(r.message) : undefined],
      [t('Category'), list(categories)],
      [t('Confidence'), confidence ? valueLabel(confidence) : undefined],
      ['CWE', list(r?.cweNames)],
      ['OWASP', list(r?.owaspNames)],
      [t('Vulnerability classes'), list(r?.vulnerabilityClasses)],
      [t('Kind of rule'), list(r?.subcategories?.map(subcategoryWords))],
    ]),
  ]);
}

/** The platform's rule subcategories, worded (an unknown one is shown as sent). */
function subcategoryWords(subcategory: string): string {
  switch (subcategory) {
    case 'vuln':
      return t('vulnerability (a flaw an attacker can reach)');
    case 'audit':
      return t('audit (a pattern worth a review, not a proven flaw)');
    case 'guardrail':
      return t('guardrail (a safe default the organization asks for)');
    default:
      return subcategory;
  }
}

function triage({ finding, detail }: DetailsInput): Html {
  const rest: Field[] = [
    [t('Reason'), reasonOf(finding)],
    [t('Note'), prose(finding.triageComment ?? detail?.triageComment)],
    [t('Triaged'), time(detail?.triagedAt)],
  ];
  // An open finding nobody has triaged has nothing to say here beyond the header's badge.
  if (finding.status === 'open' && fields(rest).isEmpty) return EMPTY;
  return section(t('Triage'), 'triage', [fields([[t('Status'), valueLabel(finding.status)], ...rest])]);
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
  const lockfilePath = sca?.lockfileLineUrl ? (lockfilePathOf(sca.lockfileLineUrl) ?? t('the lockfile')) : undefined;
  const lockfile = lockfilePath && sca?.lockfileLine ? t('{0} line {1}', lockfilePath, sca.lockfileLine) : lockfilePath;
  return section(t('Supply chain'), 'supply-chain', [
    sca?.isMalicious
      ? html`<p class="banner danger" role="note"><strong>${t('Malicious package.')}</strong> ${t('The platform flags this package as malicious.')}</p>`
      : undefined,
    fields([
      [t('Package'), sca?.package],
      [t('Version'), sca?.version],
      [t('Ecosystem'), sca?.ecosystem],
      [t('Dependency'), sca?.transitivity ? valueLabel(sca.transitivity) : undefined],
      [t('Advisory'), sca?.advisory],
      [t('Reachability'), sca?.reachability ? valueLabel(sca.reachability) : undefined],
      [t('Reachable when'), prose(detail?.reachableCondition)],
      [t('Used at'), sca?.usage ? `${sca.usage.filePath}:${sca.usage.line}` : undefined],
      [t('EPSS score'), percentText(epss?.score)],
      [t('EPSS percentile'), percentText(epss?.percentile)],
      [t('Fixed in'), list(sca?.fixVersions)],
      [t('Malicious'), sca?.isMalicious ? html`<strong>${t('yes')}</strong>` : undefined],
      [t('Lockfile'), lockfile ? link(sca?.lockfileLineUrl, lockfile) : undefined],
    ]),
  ]);
}

function ticket({ finding, detail }: DetailsInput): Html {
  const linkedTicket = finding.ticket ?? detail?.externalTicket;
  if (!linkedTicket) return EMPTY;
  const linked = detail?.externalTicket?.linkedIssueIds ?? [];
  return section(t('Ticket'), 'ticket', [
    fields([
      [t('Ticket'), link(linkedTicket.url, linkedTicket.slug ?? linkedTicket.url ?? t('linked (the platform gave no key)'))],
      [t('Linked findings'), list(linked.map((id) => `#${id}`))],
    ]),
  ]);
}

function failureText(failure: FindingDetail['clickToFixFailures'][number]): Html {
  return join([time(failure.createdAt), prose(failure.reason || t('no reason given'))], html`: `);
}

function reviewCommentsText(count: number): string | undefined {
  if (count === 0) return undefined;
  return count === 1
    ? t('The platform commented on a pull request about this finding.')
    : t('The platform commented {0} times on pull requests about this finding.', formatCount(count));
}

function pullRequests({ detail }: DetailsInput): Html {
  if (!detail) return EMPTY;
  return section(t('Pull requests'), 'pull-requests', [
    fields([
      [t('Fix pull requests'), list(detail.clickToFixPrUrls.map((url) => link(url)))],
      [t('Fix attempts that failed'), list(detail.clickToFixFailures.map(failureText))],
      // The platform names its comments by the code host's ids only: how many, in words; the ids below.
      [t('Review comments'), reviewCommentsText(detail.reviewComments.length)],
    ]),
  ]);
}

function identifiers({ finding, detail }: DetailsInput): Html {
  return section(t('Identifiers'), 'identifiers', [
    fields([
      [t('Finding id'), String(finding.id)],
      [t('Match-based id'), detail?.matchBasedId],
      [t('Syntactic id'), detail?.syntacticId],
      [t('First seen in scan'), detail?.firstSeenScanId === undefined ? undefined : String(detail.firstSeenScanId)],
      [
        t('Review comment ids'),
        list((detail?.reviewComments ?? []).map((c) => t('comment {0} in discussion {1}', c.noteId ?? t('(no id)'), c.discussionId ?? t('(no id)')))),
      ],
    ]),
  ]);
}

function dateOf(epochMs: number | undefined): Date | undefined {
  return epochMs === undefined ? undefined : new Date(epochMs);
}
