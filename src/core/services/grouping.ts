/**
 * Groups findings for the tree (by severity, rule or file) with counts. Pure, and linear in the
 * number of findings: it runs once per load, never per keystroke or per expansion.
 */
import { SEVERITY_ORDER, severityRank } from '../model/severity';
import { ruleGroupName } from '../model/finding-names';
import type { Finding } from '../model/types';

export type GroupBy = 'severity' | 'rule' | 'file';

export interface FindingGroup {
  readonly key: string;
  /** What people call the group: for rules, {@link ruleGroupName}; otherwise the key. */
  readonly label: string;
  readonly findings: readonly Finding[];
}

function keyOf(finding: Finding, by: GroupBy): string {
  switch (by) {
    case 'severity':
      return finding.severity || 'unknown';
    case 'rule':
      return finding.ruleName;
    case 'file':
      return finding.location?.filePath ?? finding.sca?.lockfileLineUrl ?? '(no location)';
  }
}

export function groupFindings(findings: readonly Finding[], by: GroupBy): FindingGroup[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = keyOf(finding, by);
    let bucket = groups.get(key);
    if (!bucket) groups.set(key, (bucket = []));
    bucket.push(finding);
  }
  const result = [...groups].map(([key, items]) => ({
    key,
    label: by === 'rule' && items[0] ? ruleGroupName(items[0]) : key,
    findings: items.sort(compareFindings),
  }));
  if (by === 'severity') return result.sort((a, b) => severityRank(a.key) - severityRank(b.key) || a.key.localeCompare(b.key));
  // Rules and files: the most severe first (a group's findings are sorted, so its first is its
  // worst), then the most findings, then by name for a stable order.
  const worst = (group: { findings: readonly Finding[] }): number => severityRank(group.findings[0]?.severity ?? '');
  return result.sort((a, b) => worst(a) - worst(b) || b.findings.length - a.findings.length || a.key.localeCompare(b.key));
}

/** Within a group: most severe first, then by file and line, so a file's findings read top-down. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    (a.location?.filePath ?? '').localeCompare(b.location?.filePath ?? '') ||
    (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
    a.id - b.id
  );
}

/** Counts per severity, in severity order, for status-bar text and descriptions. */
export function countBySeverity(findings: Iterable<Finding>): Map<string, number> {
  const counts = new Map<string, number>(SEVERITY_ORDER.map((s) => [s, 0]));
  for (const f of findings) counts.set(f.severity, (counts.get(f.severity) ?? 0) + 1);
  return counts;
}
