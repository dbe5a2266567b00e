/**
 * What the editor says about a dependency on its lockfile or manifest line: the inlay hint's short
 * text, the hover's Markdown and the licence policy's diagnostic. Pure text from the inventory,
 * the repository's supply-chain findings and the licence policy, so the host only places it.
 */
import type { Dependency, LicencePolicyOutcome } from '../model/dependency';
import { severityRank } from '../model/severity';
import type { Finding } from '../model/types';

export interface DependencyFacts {
  readonly dependency: Dependency;
  /** Its open supply-chain findings in its repository (`package-findings.ts`). */
  readonly findings: readonly Finding[];
  readonly licensePolicy?: LicencePolicyOutcome;
  /** How many other repositories use the package; absent while not known yet. */
  readonly otherRepositories?: number;
}

/** The hint's licences: two at most, each cut short, so the hint stays at the line's end. */
const HINT_LICENCES = 2;
const HINT_LICENCE_CHARS = 32;

/**
 * The inlay hint at the end of the dependency's line: `2 vulnerabilities (critical) · MIT`,
 * `MIT, Apache-2.0`, `GPL-3.0 (blocked by policy)`, `malicious · 1 vulnerability (critical)`.
 * Plain text. Empty when there is nothing to say (no open finding, no licence, no policy), so the
 * caller shows no hint.
 */
export function dependencyHint(facts: DependencyFacts): string {
  const parts: string[] = [];
  if (facts.findings.some((f) => f.sca?.isMalicious)) parts.push('malicious');
  if (facts.findings.length > 0) parts.push(openVulnerabilities(facts.findings));
  const licences = facts.dependency.licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const shown = licences.slice(0, HINT_LICENCES).map((l) => cut(l, HINT_LICENCE_CHARS)).join(', ');
  const more = licences.length > HINT_LICENCES ? ` +${licences.length - HINT_LICENCES}` : '';
  const policy = facts.licensePolicy === 'block' ? 'blocked by policy' : facts.licensePolicy === 'comment' ? 'flagged by policy' : '';
  if (shown !== '') parts.push(policy ? `${shown}${more} (${policy})` : `${shown}${more}`);
  else if (policy) parts.push(`licence ${policy}`);
  return parts.join(' · ');
}

/**
 * The hover's Markdown, one fact per line: the package, its version, how it is depended on and its
 * ecosystem; its licences and what the policy does with them; its open findings with the worst
 * severity and the versions that fix them; how many other repositories use it (`…` while
 * unknown). Every text from the platform goes through `escape`, the views' Markdown escaper
 * (which this layer may not import), so a hostile package name stays inert text.
 */
export function dependencyHoverMarkdown(facts: DependencyFacts, escape: (text: string) => string): string {
  const text = (value: string): string => escape(oneLine(value));
  const { dependency, findings } = facts;
  const about = [dependency.version ? text(dependency.version) : undefined, transitivityLabel(dependency.transitivity, text), dependency.ecosystem ? text(dependency.ecosystem) : undefined];
  const lines = [[`**${text(dependency.name)}**`, ...about.filter((part) => part !== undefined)].join(' · ')];

  const licences = dependency.licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const licenceText = licences.length === 0 ? 'unknown' : licences.map(text).join(', ');
  const policy = facts.licensePolicy === 'block' ? ' — **blocked** by the licence policy' : facts.licensePolicy === 'comment' ? ' — flagged by the licence policy' : '';
  lines.push(`${licences.length > 1 ? 'Licences' : 'Licence'}: ${licenceText}${policy}`);

  if (findings.some((f) => f.sca?.isMalicious)) lines.push('**Malicious package**');
  if (findings.length === 0) lines.push('No open vulnerabilities');
  else {
    const worst = worstSeverity(findings);
    const fixes = fixVersions(findings);
    lines.push([
      `${vulnerabilities(findings.length, 'open ')}${worst ? `, worst ${text(worst)}` : ''}`,
      fixes.length === 0 ? 'no fixed version yet' : `fixed in ${fixes.map(text).join(', ')}`,
    ].join(' · '));
  }

  const others = facts.otherRepositories;
  lines.push(others === undefined ? 'Used by other repositories: …' : others === 0 ? 'Used by no other repository' : `Used by ${others} other ${others === 1 ? 'repository' : 'repositories'}`);
  // Two trailing spaces: a hard line break, one fact per line.
  return lines.join('  \n');
}

export type LicenceDiagnosticSeverity = 'error' | 'warning';

/** A licence the policy blocks is an error on the line; one it comments on, a warning. */
export const LICENCE_DIAGNOSTIC_SEVERITY: Readonly<Record<LicencePolicyOutcome, LicenceDiagnosticSeverity>> = { block: 'error', comment: 'warning' };

/** The severity of the licence diagnostic, or undefined when the policy has nothing to say. */
export function licenceDiagnosticSeverity(facts: DependencyFacts): LicenceDiagnosticSeverity | undefined {
  return facts.licensePolicy === undefined ? undefined : LICENCE_DIAGNOSTIC_SEVERITY[facts.licensePolicy];
}

/**
 * The licence diagnostic's plain-text message (`left-pad 1.3.0: licence GPL-3.0 is blocked by
 * the organization's licence policy.`), or undefined when the policy neither blocks nor comments.
 */
export function licenceDiagnosticMessage(facts: DependencyFacts): string | undefined {
  if (facts.licensePolicy === undefined) return undefined;
  const { name, version, licenses } = facts.dependency;
  const licences = licenses.map((l) => oneLine(l)).filter((l) => l !== '');
  const which = licences.length === 0 ? 'its licence' : `${licences.length > 1 ? 'licences' : 'licence'} ${licences.join(', ')}`;
  const verb = licences.length > 1 ? 'are' : 'is';
  const outcome = facts.licensePolicy === 'block' ? 'blocked' : 'flagged';
  return `${oneLine(name)}${version ? ` ${oneLine(version)}` : ''}: ${which} ${verb} ${outcome} by the organization's licence policy.`;
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
  return `${vulnerabilities(findings.length)}${worst ? ` (${cut(worst, 16)})` : ''}`;
}

function vulnerabilities(count: number, adjective = ''): string {
  return `${count} ${adjective}${count === 1 ? 'vulnerability' : 'vulnerabilities'}`;
}

function transitivityLabel(transitivity: string, text: (value: string) => string): string | undefined {
  if (transitivity === 'direct' || transitivity === 'transitive') return transitivity;
  return transitivity === 'unknown' || transitivity === '' ? undefined : text(transitivity);
}

/** Server text on one line: a hint, a hover line and a diagnostic message are each one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
