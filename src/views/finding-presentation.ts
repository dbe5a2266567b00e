/**
 * How a finding reads in the tree: label, description, icon, context flags, screen-reader text
 * and tooltip. Pure (no `vscode`), so each is unit-tested; `tree-items.ts` applies them.
 */
import { findingLabel, shortRuleName } from '../core/model/finding-names';

/** Defined below the views (the details page and the agent name findings the same way). */
export { findingLabel, shortRuleName };
import { branchName } from '../core/model/refs';
import { DEFAULT_MAPPING, findingLevel, levelFor, type Level, type PlanOptions, type SeverityMapping } from '../core/workspace/diagnostic-plan';
import { scannedCommitOf } from '../core/workspace/drift-hint';
import { isMappedPlace, type GonePlace, type TodayPlace } from '../core/workspace/today-place';
import type { Finding } from '../core/model/types';
import { secretValidationLabel, valueLabel } from '../core/services/filters';
import type { FindingGroup, GroupBy } from '../core/services/grouping';
import { TooltipText } from './markdown';
import { codeHostFlags } from './project-presentation';
import { formatDay, t } from '../core/l10n';

/** A codicon and the theme color it is drawn in. */
export interface IconSpec {
  readonly id: string;
  readonly color?: string;
}

const LEVEL_ICONS: Record<Level, IconSpec> = {
  error: { id: 'error', color: 'problemsErrorIcon.foreground' },
  warning: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  information: { id: 'info', color: 'problemsInfoIcon.foreground' },
  hint: { id: 'lightbulb' },
};

/**
 * The icon of a severity: the level `appsecFindings.severityMapping` gives it in Problems (by
 * default critical and high are errors, medium a warning, low information), so the tree and
 * Problems agree; a severity the platform adds later gets a question mark.
 */
export function severityIcon(severity: string, mapping: SeverityMapping = DEFAULT_MAPPING): IconSpec {
  if (!Object.hasOwn(mapping, severity) && !Object.hasOwn(DEFAULT_MAPPING, severity)) return { id: 'question' };
  return LEVEL_ICONS[levelFor(severity, mapping)];
}

/** A finding's icon: the level Problems shows it at (an unreachable one at information, when so set). */
export function findingIcon(finding: Finding, mapping: SeverityMapping = DEFAULT_MAPPING, options: PlanOptions = {}): IconSpec {
  const overridden = finding.sca?.reachability === 'unreachable' && options.unreachableLevel !== undefined;
  return overridden ? LEVEL_ICONS[findingLevel(finding, mapping, options)] : severityIcon(finding.severity, mapping);
}

/**
 * A finding whose code is not in this copy: gone since the scan, or not here yet, because its scan
 * is of a branch this checkout does not include (a user on main looking at feature/x's findings).
 */
export function goneText(finding: Finding, place: GonePlace): string {
  if (place.onlyAt === undefined) return t('no longer in this copy');
  return finding.ref ? t('not in this copy yet: it is on {0}', branchName(finding.ref)) : t('not in this copy yet');
}

/** Where the finding is: today's place when drift moved it there (or its code is gone), else the scanned one. */
export function locationText(finding: Finding, today?: TodayPlace): string | undefined {
  const location = finding.location;
  if (today?.kind === 'deleted') return location ? `${location.filePath} · ${goneText(finding, today)}` : goneText(finding, today);
  if (isMappedPlace(today)) {
    const place = `${today.relativePath}:${today.range.startLine + 1}`;
    return today.kind === 'changed' ? t('{0} (code changed since the scan)', place) : place;
  }
  return location ? `${location.filePath}:${location.line}` : undefined;
}

function fixText(fixVersions: readonly string[] | undefined): string | undefined {
  return fixVersions && fixVersions.length > 0 ? t('fix {0}', fixVersions.join(', ')) : undefined;
}

/**
 * Code: `src/app.py:42`. Supply chain: `CVE-2021-23337 · reachable · fix 4.17.21`. The status is
 * added when it is not "open": the usual case, and the default filter, would only add noise on
 * every row. A supply-chain finding without its facts reads like a code finding rather than as nothing.
 */
export function findingDescription(finding: Finding, today?: TodayPlace, isNew = false, blocking = false): string {
  const sca = finding.sca;
  // First, where the eye lands: what a developer fixes before merging (and what stops the merge).
  const novelty =
    [isNew ? t('new on this branch') : undefined, blocking ? t('blocks pull requests') : undefined].filter((p): p is string => !!p).join(' · ') || undefined;
  if (sca) {
    const parts = [
      novelty,
      // The label names the advisory when it names the package; otherwise it goes here.
      sca.package ? undefined : sca.advisory,
      sca?.isMalicious ? t('malicious') : undefined,
      // "unknown" alone would not say what is unknown.
      sca?.reachability ? (sca.reachability === 'unknown' ? t('reachability unknown') : valueLabel(sca.reachability)) : undefined,
      fixText(sca?.fixVersions),
      statusIfNotOpen(finding),
    ];
    return parts.filter((p): p is string => !!p).join(' · ');
  }
  const kind = finding.ai ? t('AI') : finding.secret ? secretValidationLabel(finding.secret.validation) : undefined;
  return [novelty, kind, locationText(finding, today) ?? t('no location'), statusIfNotOpen(finding)].filter((p): p is string => !!p).join(' · ');
}

function statusIfNotOpen(finding: Finding): string | undefined {
  return finding.status === 'open' ? undefined : valueLabel(finding.status);
}

/** "finding hasUrl sast status-open hasTicket": space-separated flags that menus match with `\bword\b`. */
export function findingContextValue(finding: Finding): string {
  return [
    'finding',
    ...codeHostFlags(finding.lineOfCodeUrl),
    finding.issueType,
    `status-${finding.status}`,
    ...(finding.ticket ? ['hasTicket'] : []),
    ...(finding.ticket?.id !== undefined ? ['hasTicketId'] : []),
  ].join(' ');
}

/** What a screen reader says for a finding: every fact the icon and columns show. */
export function findingAccessibilityLabel(finding: Finding, isNew = false): string {
  const level = finding.severity ? valueLabel(finding.severity) : t('unknown');
  const severity = isNew ? t('new on this branch, {0} severity', level) : t('{0} severity', level);
  const status = valueLabel(finding.status);
  const sca = finding.sca;
  if (sca) {
    const parts = [
      t('{0} supply-chain finding', severity),
      sca?.package ? (sca.version ? t('package {0} version {1}', sca.package, sca.version) : t('package {0}', sca.package)) : t('rule {0}', finding.ruleName),
      sca?.advisory ? t('advisory {0}', sca.advisory) : undefined,
      sca?.isMalicious ? t('malicious package') : undefined,
      sca?.reachability ? valueLabel(sca.reachability) : undefined,
      sca?.fixVersions && sca.fixVersions.length > 0 ? t('fixed in {0}', sca.fixVersions.join(', ')) : undefined,
      status,
    ];
    return parts.filter((p): p is string => !!p).join(', ');
  }
  const where = finding.location ? t('file {0} line {1}', finding.location.filePath, finding.location.line) : t('no location');
  if (finding.secret)
    return t('{0} {1} secret, {2}, {3}, {4}', severity, finding.secret.service, secretValidationLabel(finding.secret.validation), where, status);
  return finding.ai
    ? t('{0} AI code finding, rule {1}, {2}, {3}', severity, finding.ruleName, where, status)
    : t('{0} finding, rule {1}, {2}, {3}', severity, finding.ruleName, where, status);
}

/** Tooltip markdown: escaped server text, links only to http(s). */
export function findingTooltip(finding: Finding, newAgainst?: string, blocking = false): string {
  const sca = finding.sca;
  const tip = new TooltipText()
    .heading(finding.ruleName || t('(unnamed rule)'))
    .text(finding.message)
    .separator();
  tip
    .field(t('Severity'), finding.severity ? valueLabel(finding.severity) : finding.severity)
    .field(t('Confidence'), finding.confidence ? valueLabel(finding.confidence) : finding.confidence)
    .field(t('Status'), valueLabel(finding.status))
    .field(t('Triage reason'), finding.triageReason ? valueLabel(finding.triageReason) : undefined)
    .field(t('Note'), finding.triageComment)
    .field(t('Ticket'), finding.ticket ? (finding.ticket.slug ?? finding.ticket.url) : undefined)
    .codeField(t('Location'), locationText(finding))
    .field(t('Ref'), finding.ref === undefined ? undefined : branchName(finding.ref))
    .field(t('New on this branch'), newAgainst === undefined ? undefined : t('yes: {0} does not have it', newAgainst))
    .field(t('Blocks pull requests'), blocking ? t('yes: its rule runs in block mode') : undefined)
    .field(t('Policy'), finding.policy?.name)
    .field(t('Found by'), finding.ai ? t('the AI-powered analysis') : undefined)
    .field(t('Likely impact'), finding.ai?.impact)
    .field(t('Secret of'), finding.secret?.service)
    .field(t('Validation'), finding.secret ? secretValidationLabel(finding.secret.validation) : undefined)
    .field(t('Since'), finding.relevantSince !== undefined ? formatDay(new Date(finding.relevantSince)) : undefined);
  if (sca) {
    tip
      .field(t('Package'), sca.package ? `${sca.package}${sca.version ? `@${sca.version}` : ''}` : undefined)
      .field(t('Ecosystem'), sca.ecosystem)
      .field(t('Advisory'), sca.advisory)
      .field(t('Reachability'), sca.reachability ? valueLabel(sca.reachability) : undefined)
      .field(t('Dependency'), sca.transitivity ? valueLabel(sca.transitivity) : undefined)
      .field(t('Fixed in'), sca.fixVersions && sca.fixVersions.length > 0 ? sca.fixVersions.join(', ') : undefined)
      .field(t('Malicious'), sca.isMalicious ? t('yes') : undefined)
      .codeField(t('Used at'), sca.usage ? `${sca.usage.filePath}:${sca.usage.line}` : undefined)
      .link(t('Lockfile line'), sca.lockfileLineUrl);
  }
  tip.field(t('Scanned commit'), scannedCommitOf(finding.lineOfCodeUrl)?.slice(0, 7));
  tip.field(t('Finding id'), finding.id).link(t('Open the scanned code'), finding.lineOfCodeUrl);
  return tip.toString();
}

/**
 * A group's label: severities as headings; a code rule by its last segment, with the rest of its
 * dotted id in the description (two rules often share a last segment, e.g. "eval"); other rules
 * by their name (package and advisory, a secret's service); files by their name with the
 * directory in the description.
 */
export function groupLabel(groupBy: GroupBy, group: Pick<FindingGroup, 'key' | 'label'>): string {
  const { key, label } = group;
  if (groupBy === 'file') return key.split('/').pop() || key;
  if (groupBy === 'rule') return isDottedId(label) ? shortRuleName(label) : label;
  // Severities are headings here, as in the web UI; the platform spells them in lower case.
  const heading = key !== '' ? valueLabel(key) : key;
  return heading !== '' ? heading[0].toUpperCase() + heading.slice(1) : heading;
}

/** The count, and for files and code rules what the label leaves out of the name. */
export function groupDescription(groupBy: GroupBy, group: Pick<FindingGroup, 'key' | 'label'>, count: number): string {
  const name = groupBy === 'file' ? group.key : groupBy === 'rule' && isDottedId(group.label) ? group.label : '';
  const label = groupLabel(groupBy, group);
  const rest = name.length > label.length ? name.slice(0, name.length - label.length).replace(/[./]$/, '') : '';
  return rest ? `${count} · ${rest}` : String(count);
}

/** `javascript.browser.security.eval-detected`: a rule id to shorten (not a name with spaces). */
function isDottedId(name: string): boolean {
  return name.includes('.') && !/\s/.test(name);
}

export function groupIcon(groupBy: GroupBy, key: string, mapping: SeverityMapping = DEFAULT_MAPPING): IconSpec {
  switch (groupBy) {
    case 'severity':
      return severityIcon(key, mapping);
    case 'rule':
      return { id: 'law' };
    case 'file':
      return { id: 'file' };
  }
}

/** "Rules 1–500" for a paged list of groups. */
export const GROUP_NOUNS: Readonly<Record<GroupBy, string>> = {
  get severity() {
    return t('Severities');
  },
  get rule() {
    return t('Rules');
  },
  get file() {
    return t('Files');
  },
};
