/**
 * What the editor says about a dependency on its lockfile or manifest line: the inlay hint's short
 * text, the hover's Markdown and the license policy's diagnostic. Pure text from the inventory,
 * the repository's supply-chain findings and the license policy, so the host only places it.
 */
import { formatCount, t } from '../l10n';
import type { Dependency, LicensePolicyOutcome } from '../model/dependency';
import { severityRank } from '../model/severity';
import type { Finding } from '../model/types';

export interface DependencyFacts {
  readonly dependency: Dependency;
  /** Its open supply-chain findings in its repository (`package-findings.ts`). */
  readonly findings: readonly Finding[];
  readonly licensePolicy?: LicensePolicyOutcome;
  /** How many other repositories use the package; absent while not known yet. */
  readonly otherRepositories?: number;
}

/** The hint's licenses: two at most, each cut short, so the hint stays at the line's end. */
const HINT_LICENSES = 2;
const HINT_LICENSE_CHARS = 32;

/**
 * The inlay hint at the end of the dependency's line: `2 vulnerabilities (critical) · MIT`,
 * `MIT, Apache-2.0`, `GPL-3.0 (blocked by policy)`, `malicious · 1 vulnerability (critical)`.
 * Plain text. Empty when there is nothing to say (no open finding, no license, no policy), so the
 * caller shows no hint. `declared`: the version a manifest's line pins today. Once it is a version
 * that fixes the findings (the upgrade quick fix wrote it) while the inventory still has the old
 * one, the line says so until the lockfile changes and a scan sees it, instead of the
 * vulnerabilities the edit has already dealt with.
 */
export function dependencyHint(facts: DependencyFacts, declared?: string): string {
  const parts: string[] = [];
  const { version } = facts.dependency;
  const upgraded = declared !== undefined && declared !== version && facts.findings.some((f) => f.sca?.fixVersions?.includes(declared));
  // The inventory's facts (its findings, its license) are the locked version's: once the line
  // names another, the hint says only that, short enough for VS Code's hint length (43).
  if (upgraded) return t('upgraded here; lockfile still has {0}', cut(oneLine(version), 12));
  if (facts.findings.some((f) => f.sca?.isMalicious)) parts.push(t('malicious'));
  if (facts.findings.length > 0) parts.push(openVulnerabilities(facts.findings));
  const licenses = facts.dependency.licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const shown = licenses
    .slice(0, HINT_LICENSES)
    .map((l) => cut(l, HINT_LICENSE_CHARS))
    .join(', ');
  const more = licenses.length > HINT_LICENSES ? ` +${licenses.length - HINT_LICENSES}` : '';
  const policy = facts.licensePolicy === 'block' ? t('blocked by policy') : facts.licensePolicy === 'comment' ? t('flagged by policy') : '';
  if (shown !== '') parts.push(policy ? `${shown}${more} (${policy})` : `${shown}${more}`);
  else if (policy) parts.push(facts.licensePolicy === 'block' ? t('license blocked by policy') : t('license flagged by policy'));
  return parts.join(' · ');
}

/**
 * The hover's Markdown, one fact per line: the package, its version, how it is depended on and its
 * ecosystem; its licenses and what the policy does with them; its open findings with the worst
 * severity and the versions that fix them; how many other repositories use it (`…` while
 * unknown). Every text from the platform goes through `escape`, the views' Markdown escaper
 * (which this layer may not import), so a hostile package name stays inert text.
 */
export function dependencyHoverMarkdown(facts: DependencyFacts, escape: (text: string) => string): string {
  const text = (value: string): string => escape(oneLine(value));
  const { dependency, findings } = facts;
  const about = [
    dependency.version ? text(dependency.version) : undefined,
    transitivityLabel(dependency.transitivity, text),
    dependency.ecosystem ? text(dependency.ecosystem) : undefined,
  ];
  const lines = [[`**${text(dependency.name)}**`, ...about.filter((part) => part !== undefined)].join(' · ')];

  const licenses = dependency.licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const licenseText = licenses.length === 0 ? t('unknown') : licenses.map(text).join(', ');
  const policy =
    facts.licensePolicy === 'block'
      ? ` — ${t('**blocked** by the license policy')}`
      : facts.licensePolicy === 'comment'
        ? ` — ${t('flagged by the license policy')}`
        : '';
  lines.push(`${licenses.length > 1 ? t('Licenses: {0}', licenseText) : t('License: {0}', licenseText)}${policy}`);

  if (findings.some((f) => f.sca?.isMalicious)) lines.push(`**${t('Malicious package')}**`);
  if (findings.length === 0) lines.push(t('No open vulnerabilities'));
  else {
    const worst = worstSeverity(findings);
    const fixes = fixVersions(findings);
    const open = findings.length === 1 ? t('{0} open vulnerability', formatCount(1)) : t('{0} open vulnerabilities', formatCount(findings.length));
    lines.push(
      [
        worst ? t('{0}, worst {1}', open, text(severityWord(worst))) : open,
        fixes.length === 0 ? t('no fixed version yet') : t('fixed in {0}', fixes.map(text).join(', ')),
      ].join(' · '),
    );
  }

  const others = facts.otherRepositories;
  lines.push(
    others === undefined
      ? t('Used by other repositories: …')
      : others === 0
        ? t('Used by no other repository')
        : others === 1
          ? t('Used by {0} other repository', formatCount(others))
          : t('Used by {0} other repositories', formatCount(others)),
  );
  // Two trailing spaces: a hard line break, one fact per line.
  return lines.join('  \n');
}

export type LicenseDiagnosticSeverity = 'error' | 'warning';

/** A license the policy blocks is an error on the line; one it comments on, a warning. */
export const LICENSE_DIAGNOSTIC_SEVERITY: Readonly<Record<LicensePolicyOutcome, LicenseDiagnosticSeverity>> = { block: 'error', comment: 'warning' };

/** The severity of the license diagnostic, or undefined when the policy has nothing to say. */
export function licenseDiagnosticSeverity(facts: DependencyFacts): LicenseDiagnosticSeverity | undefined {
  return facts.licensePolicy === undefined ? undefined : LICENSE_DIAGNOSTIC_SEVERITY[facts.licensePolicy];
}

/**
 * The license diagnostic's plain-text message (`left-pad 1.3.0: license GPL-3.0 is blocked by
 * the organization's license policy.`), or undefined when the policy neither blocks nor comments.
 */
export function licenseDiagnosticMessage(facts: DependencyFacts): string | undefined {
  if (facts.licensePolicy === undefined) return undefined;
  const { name, version } = facts.dependency;
  const licenses = facts.dependency.licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const what = `${oneLine(name)}${version ? ` ${oneLine(version)}` : ''}`;
  const list = licenses.join(', ');
  if (facts.licensePolicy === 'block') {
    return licenses.length === 0
      ? t("{0}: its license is blocked by the organization's license policy.", what)
      : licenses.length === 1
        ? t("{0}: license {1} is blocked by the organization's license policy.", what, list)
        : t("{0}: licenses {1} are blocked by the organization's license policy.", what, list);
  }
  return licenses.length === 0
    ? t("{0}: its license is flagged by the organization's license policy.", what)
    : licenses.length === 1
      ? t("{0}: license {1} is flagged by the organization's license policy.", what, list)
      : t("{0}: licenses {1} are flagged by the organization's license policy.", what, list);
}

/** The most severe of the findings, by the one severity order (one line, for a hint). */
export function worstSeverity(findings: readonly Finding[]): string | undefined {
  let worst: string | undefined;
  for (const { severity } of findings) if (severity && (worst === undefined || severityRank(severity) < severityRank(worst))) worst = severity;
  return worst === undefined ? undefined : oneLine(worst);
}

/** The fix versions of all the findings, each once, in the order the findings give them. */
function fixVersions(findings: readonly Finding[]): string[] {
  const seen = new Set<string>();
  for (const finding of findings) for (const version of finding.sca?.fixVersions ?? []) if (oneLine(version) !== '') seen.add(oneLine(version));
  return [...seen];
}

/** A package's open findings in the words the tree and the editor share: `2 vulnerabilities (critical)`. */
export function openVulnerabilities(findings: readonly Finding[]): string {
  const worst = worstSeverity(findings);
  const count = findings.length === 1 ? t('{0} vulnerability', formatCount(1)) : t('{0} vulnerabilities', formatCount(findings.length));
  return `${count}${worst ? ` (${cut(severityWord(worst), 16)})` : ''}`;
}

/** The glossary's word for a known severity; another is shown as the platform sent it. */
function severityWord(severity: string): string {
  switch (severity) {
    case 'critical':
      return t('critical');
    case 'high':
      return t('high');
    case 'medium':
      return t('medium');
    case 'low':
      return t('low');
    default:
      return severity;
  }
}

function transitivityLabel(transitivity: string, text: (value: string) => string): string | undefined {
  if (transitivity === 'direct') return t('direct');
  if (transitivity === 'transitive') return t('transitive');
  return transitivity === 'unknown' || transitivity === '' ? undefined : text(transitivity);
}

/** Server text on one line: a hint, a hover line and a diagnostic message are each one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
