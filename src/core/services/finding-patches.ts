/**
 * Local changes to findings (a triage state, a reason) and the filters a patched finding is
 * checked against without asking the platform. Pure: the store applies them and keeps the undo.
 */
import type { Finding, FindingFilters, ScaFacts, SourceRange } from '../model/types';

/** What a patch may change: what triage and tickets change on the platform. */
export type FindingChange = Partial<Pick<Finding, 'status' | 'triageReason'>>;

/** The finding with `change` applied: a new object, the original left untouched for the undo. */
export function applyChange(finding: Finding, change: FindingChange): Finding {
  return { ...finding, ...change };
}

/**
 * Whether a finding still belongs to the answer of `filters`, judged by the fields a patch can
 * change or that the platform filters on locally knowable facts. Used only for patched findings:
 * the platform's own answer is trusted for the others.
 */
export function matchesFilters(finding: Finding, filters: FindingFilters): boolean {
  if (filters.status !== undefined && finding.status !== filters.status) return false;
  if (filters.severities && filters.severities.length > 0 && !filters.severities.includes(finding.severity)) return false;
  // "Applies when status is ignored": it narrows ignored findings and leaves the others alone.
  const reasons = filters.triageReasons;
  if (reasons && reasons.length > 0 && finding.status === 'ignored' && !reasons.includes(finding.triageReason ?? '')) return false;
  if (filters.confidence !== undefined && finding.issueType === 'sast' && finding.confidence !== filters.confidence) return false;
  const sca = finding.sca;
  if (sca && finding.issueType === 'sca') {
    if (filters.exposures && filters.exposures.length > 0 && !filters.exposures.includes(sca.reachability ?? '')) return false;
    if (filters.transitivities && filters.transitivities.length > 0 && !filters.transitivities.includes(sca.transitivity ?? '')) return false;
    if (filters.isMalicious !== undefined && (sca.isMalicious === true) !== filters.isMalicious) return false;
  }
  return true;
}

/**
 * Two decodings of one finding that say the same: the later one can then share the earlier
 * object, so a finding loaded by two queries is held once. Nested parts decoded through one
 * interner are compared field by field (their objects differ between loads).
 */
export function sameFinding(a: Finding, b: Finding): boolean {
  return a.id === b.id && a.issueType === b.issueType && a.ruleName === b.ruleName && a.message === b.message
    && a.severity === b.severity && a.confidence === b.confidence && a.status === b.status && a.ref === b.ref
    && a.repositoryName === b.repositoryName && a.lineOfCodeUrl === b.lineOfCodeUrl && a.triageReason === b.triageReason
    && a.relevantSince?.getTime() === b.relevantSince?.getTime()
    && sameRange(a.location, b.location) && samePolicy(a.policy, b.policy) && sameSca(a.sca, b.sca);
}

function sameRange(a: SourceRange | undefined, b: SourceRange | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.filePath === b.filePath && a.line === b.line && a.column === b.column
    && a.endLine === b.endLine && a.endColumn === b.endColumn;
}

function samePolicy(a: Finding['policy'], b: Finding['policy']): boolean {
  return a === b || (a !== undefined && b !== undefined && a.id === b.id && a.name === b.name && a.slug === b.slug);
}

function sameSca(a: ScaFacts | undefined, b: ScaFacts | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && a.advisory === b.advisory && a.package === b.package && a.version === b.version
    && a.ecosystem === b.ecosystem && a.transitivity === b.transitivity && a.reachability === b.reachability
    && a.isMalicious === b.isMalicious && a.lockfileLineUrl === b.lockfileLineUrl && a.lockfileLine === b.lockfileLine
    && (a.fixVersions ?? []).join('\n') === (b.fixVersions ?? []).join('\n') && sameRange(a.usage, b.usage);
}
