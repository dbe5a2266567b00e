/**
 * How the tree shows the supply-chain inventory: a package's label, description, icon and
 * tooltip, a lockfile's count. Pure (no `vscode`); `tree-items.ts` maps these to TreeItems.
 */
import { openVulnerabilities, worstSeverity } from '../core/workspace/dependency-facts';
import type { LockfileSummary } from '../core/model/dependency';
import { findingIcon, type IconSpec } from './finding-presentation';
import { escapeMarkdown, markdownCode } from './markdown';
import type { PackageItem } from './tree-nodes';
import { DEFAULT_MAPPING, findingLevel, LEVELS, type PlanOptions, type SeverityMapping } from '../core/workspace/diagnostic-plan';

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export { worstSeverity };

export function packageLabel(item: PackageItem): string {
  return `${item.dependency.name} ${item.dependency.version}`;
}

const POLICY_WORDS = { block: 'licence blocked', comment: 'licence flagged' } as const;

/** "direct · MIT · 2 vulnerabilities (critical) · licence blocked". */
export function packageDescription(item: PackageItem): string {
  const { dependency, findings, licensePolicy } = item;
  return [
    dependency.transitivity,
    dependency.licenses.length > 0 ? dependency.licenses.join(', ') : 'no licence known',
    ...(findings.length > 0 ? [openVulnerabilities(findings)] : []),
    ...(licensePolicy ? [POLICY_WORDS[licensePolicy]] : []),
  ].join(' · ');
}

/**
 * The icon says what matters most: a blocked licence, then the finding Problems shows at the
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
  lines.push(`**${escapeMarkdown(d.name)}** ${markdownCode(d.version)} (${escapeMarkdown(d.ecosystem)}, ${escapeMarkdown(d.transitivity)})`);
  lines.push(`Licences: ${d.licenses.length > 0 ? d.licenses.map(escapeMarkdown).join(', ') : 'none known'}${licensePolicy ? ` — the licence policy ${licensePolicy === 'block' ? 'blocks' : 'comments on'} it` : ''}`);
  if (findings.length > 0) {
    const fixes = [...new Set(findings.flatMap((f) => f.sca?.fixVersions ?? []))];
    lines.push(`${plural(findings.length, 'open finding')}, worst ${escapeMarkdown(worstSeverity(findings) ?? 'unknown')}${fixes.length > 0 ? `; fixed in ${fixes.map(markdownCode).join(', ')}` : ''}`);
  }
  if (d.definedAt?.path) lines.push(`Declared in ${markdownCode(d.definedAt.path)}${d.definedAt.line !== undefined ? ` line ${d.definedAt.line}` : ''}`);
  return lines.join('  \n');
}

export function lockfileDescription(lockfile: LockfileSummary, shown?: number): string {
  const all = plural(lockfile.dependencies, 'dependency', 'dependencies');
  return shown === undefined || shown === lockfile.dependencies ? all : `${shown.toLocaleString('en-US')} of ${all}`;
}
