/**
 * How the tree shows the supply-chain inventory: a package's label, description, icon and
 * tooltip, a lockfile's count. Pure (no `vscode`); `tree-items.ts` maps these to TreeItems.
 */
import { formatNumber, t } from '../core/l10n';
import { openVulnerabilities, worstSeverity } from '../core/workspace/dependency-facts';
import { valueLabel } from '../core/services/filters';
import type { LockfileSummary } from '../core/model/dependency';
import { findingIcon, type IconSpec } from './finding-presentation';
import { escapeMarkdown, markdownCode } from './markdown';
import type { PackageItem } from './tree-nodes';
import { DEFAULT_MAPPING, findingLevel, LEVELS, type PlanOptions, type SeverityMapping } from '../core/workspace/diagnostic-plan';

export { worstSeverity };

export function packageLabel(item: PackageItem): string {
  return `${item.dependency.name} ${item.dependency.version}`;
}

/** "direct · MIT · 2 vulnerabilities (critical) · license blocked". */
export function packageDescription(item: PackageItem): string {
  const { dependency, findings, licensePolicy } = item;
  return [
    transitivityWord(dependency.transitivity),
    dependency.licenses.length > 0 ? dependency.licenses.join(', ') : t('no license known'),
    ...(findings.length > 0 ? [openVulnerabilities(findings)] : []),
    ...(licensePolicy === 'block' ? [t('license blocked')] : licensePolicy === 'comment' ? [t('license flagged')] : []),
  ].join(' · ');
}

/**
 * The icon says what matters most: a blocked license, then the finding Problems shows at the
 * highest level (an unreachable one at information, when so set), then nothing.
 */
export function packageIcon(item: PackageItem, mapping: SeverityMapping = DEFAULT_MAPPING, options: PlanOptions = {}): IconSpec {
  if (item.licensePolicy === 'block') return { id: 'law', color: 'problemsErrorIcon.foreground' };
  const rank = (f: PackageItem['findings'][number]): number => LEVELS.indexOf(findingLevel(f, mapping, options));
  const worst = item.findings.reduce<PackageItem['findings'][number] | undefined>((w, f) => (w === undefined || rank(f) < rank(w) ? f : w), undefined);
  if (worst !== undefined) return findingIcon(worst, mapping, options);
  if (item.licensePolicy === 'comment') return { id: 'law', color: 'problemsWarningIcon.foreground' };
  return { id: 'package' };
}

export function packageContextValue(item: PackageItem): string {
  return ['package', ...(item.findings.length > 0 ? ['vulnerable'] : [])].join(' ');
}

export function packageAccessibilityLabel(item: PackageItem): string {
  return `${packageLabel(item)}, ${packageDescription(item)}`;
}

export function packageTooltip(item: PackageItem): string {
  const { dependency: d, findings, licensePolicy } = item;
  // Each line is built of escaped server text; a hard break ends each.
  const lines: string[] = [];
  lines.push(`**${escapeMarkdown(d.name)}** ${markdownCode(d.version)} (${escapeMarkdown(d.ecosystem)}, ${escapeMarkdown(transitivityWord(d.transitivity))})`);
  const licenses = d.licenses.length > 0 ? d.licenses.map(escapeMarkdown).join(', ') : t('none known');
  const policy =
    licensePolicy === 'block' ? ` — ${t('the license policy blocks it')}` : licensePolicy === 'comment' ? ` — ${t('the license policy comments on it')}` : '';
  lines.push(`${t('Licenses: {0}', licenses)}${policy}`);
  if (findings.length > 0) {
    const fixes = [...new Set(findings.flatMap((f) => f.sca?.fixVersions ?? []))];
    const worst = worstSeverity(findings);
    const open = findings.length === 1 ? t('{0} open finding', formatNumber(1)) : t('{0} open findings', formatNumber(findings.length));
    const summary = t('{0}, worst {1}', open, escapeMarkdown(worst ? valueLabel(worst) : t('unknown')));
    lines.push(fixes.length > 0 ? t('{0}; fixed in {1}', summary, fixes.map(markdownCode).join(', ')) : summary);
  }
  if (d.definedAt?.path) {
    lines.push(
      d.definedAt.line !== undefined
        ? t('Declared in {0} line {1}', markdownCode(d.definedAt.path), d.definedAt.line)
        : t('Declared in {0}', markdownCode(d.definedAt.path)),
    );
  }
  return lines.join('  \n');
}

export function lockfileDescription(lockfile: LockfileSummary, shown?: number): string {
  const count = formatNumber(lockfile.dependencies);
  if (shown === undefined || shown === lockfile.dependencies) return lockfile.dependencies === 1 ? t('{0} dependency', count) : t('{0} dependencies', count);
  return lockfile.dependencies === 1 ? t('{0} of {1} dependency', formatNumber(shown), count) : t('{0} of {1} dependencies', formatNumber(shown), count);
}

/** `direct` and `transitive` in the display language; another value as the platform sent it. */
function transitivityWord(transitivity: string): string {
  return transitivity === 'direct' ? t('direct') : transitivity === 'transitive' ? t('transitive') : transitivity;
}
