/**
 * Turns a finding "spec" (the few choices that make a finding what it is) into the wire JSON.
 * Specs hold only primitives and shared read-only templates, so a duplicate on another ref is a
 * spread copy of its spec and the builder still makes fresh objects: a test that mutates one
 * finding never changes its twin.
 */
import type { WireAssistant, WireFindingBase, WireLocation, WireReviewComment, WireSastFinding, WireScaFinding } from './wire';
import { formatTimestamp, type TimestampStyle } from './timestamps';
import { FIX_FAILURE_REASONS, type PackageTemplate, type RuleTemplate, type Severity } from './vocab';

export interface FindingSpecBase {
  id: number;
  syntacticId: string;
  matchBasedId: string;
  projectName: string;
  repoUrl: string;
  ref: string;
  commitSha: string;
  severity: Severity;
  confidence: 'low' | 'medium' | 'high';
  status: 'open' | 'fixed' | 'ignored' | 'reviewing' | 'fixing';
  /** Used only when status is `ignored`. */
  triageReason: 'acceptable_risk' | 'false_positive' | 'no_time' | 'no_triage_reason';
  triageComment: string;
  createdAt: number;
  relevantSince: number;
  scanId: number;
  locationStyle: 'camel' | 'snake';
  timeStyle: TimestampStyle;
  path: string;
  line: number;
  column: number;
  /** Absent: the location has no end (the service sometimes omits it). */
  end?: { line: number; column: number };
  ticketId?: number;
  reviewCommentCount: number;
}

export interface SastSpec extends FindingSpecBase {
  rule: RuleTemplate;
  policy: { id: number; name: string; slug: string };
  fixPrCount: number;
  fixFailureCount: number;
  /**
   * `fixCode`: the suggested fix's lines; without it, a placeholder comment in the rule's language.
   * `reason`: the verdict's reason for this finding; without it, a generic one for the verdict.
   */
  assistant?: {
    verdict: 'true_positive' | 'false_positive';
    tag: string;
    risk: 'high' | 'medium' | 'low';
    autofix: boolean;
    fixCode?: string;
    reason?: string;
  };
}

export interface ScaSpec extends FindingSpecBase {
  pkg: PackageTemplate;
  transitivity: 'direct' | 'transitive' | 'unknown';
  reachability: 'reachable' | 'always_reachable' | 'conditionally_reachable' | 'unreachable' | 'unknown';
  epss: { score: number; percentile: number };
  /** Where the vulnerable package is called from, when the scanner found it. */
  usage?: { path: string; line: number; column: number; endLine: number; endColumn: number; ticketId?: number };
}

const DAY_MS = 86_400_000;

/** Link to a line of a file at a commit, in GitHub or GitLab form depending on the host. */
export function blobUrl(repoUrl: string, sha: string, path: string, line: number): string {
  const blob = repoUrl.includes('gitlab') ? '/-/blob/' : '/blob/';
  return `${repoUrl}${blob}${sha}/${path}#L${line}`;
}

function location(spec: FindingSpecBase): WireLocation {
  const { path, line, column, end } = spec;
  // Both spellings occur in the wild; each finding uses one of them.
  if (spec.locationStyle === 'camel') {
    return end ? { filePath: path, line, column, endLine: end.line, endColumn: end.column } : { filePath: path, line, column };
  }
  return end ? { file_path: path, line, column, end_line: end.line, end_column: end.column } : { file_path: path, line, column };
}

function ticket(id: number, projectName: string): { id: number; externalSlug: string; linkedIssueIds: number[]; url: string } {
  const key = `SEC-${id % 10_000}`;
  return {
    id,
    externalSlug: key,
    linkedIssueIds: [id * 3, id * 3 + 1],
    url: `https://acme.atlassian.net/browse/${key}?project=${encodeURIComponent(projectName)}`,
  };
}

function reviewComments(spec: FindingSpecBase): WireReviewComment[] {
  const out: WireReviewComment[] = [];
  for (let i = 0; i < spec.reviewCommentCount; i++) {
    out.push({ externalDiscussionId: `${spec.syntacticId.slice(0, 12)}${i}`, externalNoteId: spec.id * 10 + i });
  }
  return out;
}

/**
 * The fields code and supply-chain findings share, in one object literal: this runs 100 000
 * times for the benchmark, and one literal (no spreads, no helper objects) keeps it fast.
 */
function commonFields(spec: FindingSpecBase): WireFindingBase {
  const style = spec.timeStyle;
  const ignored = spec.status === 'ignored';
  const triaged = ignored || spec.status === 'reviewing';
  const updatedAt = formatTimestamp(spec.relevantSince + 3 * DAY_MS, style);
  const createdAt = formatTimestamp(spec.createdAt, style);
  const base: WireFindingBase = {
    id: spec.id,
    syntactic_id: spec.syntacticId,
    match_based_id: spec.matchBasedId,
    confidence: spec.confidence,
    severity: spec.severity,
    status: spec.status,
    state: spec.status === 'fixed' ? 'fixed' : ignored ? 'muted' : 'unresolved',
    state_updated_at: updatedAt,
    triage_state: ignored ? 'ignored' : spec.status === 'reviewing' ? 'reviewing' : spec.status === 'fixing' ? 'fixing' : 'untriaged',
    triage_reason: ignored ? spec.triageReason : 'no_triage_reason',
    triage_comment: triaged ? spec.triageComment : '',
    triaged_at: triaged ? updatedAt : createdAt,
    created_at: createdAt,
    relevant_since: formatTimestamp(spec.relevantSince, style),
    first_seen_scan_id: spec.scanId,
    ref: spec.ref,
    repository: { name: spec.projectName, url: spec.repoUrl },
    location: location(spec),
    line_of_code_url: blobUrl(spec.repoUrl, spec.commitSha, spec.path, spec.line),
    review_comments: reviewComments(spec),
  };
  if (spec.ticketId !== undefined) base.external_ticket = ticket(spec.ticketId, spec.projectName);
  return base;
}

/** How a line comment starts in the rule's language, so a placeholder fix is at least valid code. */
function commentMark(language: RuleTemplate['language']): string {
  return ['python', 'ruby', 'generic'].includes(language) ? '#' : '//';
}

function assistant(spec: SastSpec): WireAssistant | undefined {
  const a = spec.assistant;
  if (!a) return undefined;
  const falsePositive = a.verdict === 'false_positive';
  return {
    autofix: {
      fix_code: a.fixCode ?? `${commentMark(spec.rule.language)} suggested fix for ${spec.rule.path.split('.').pop() ?? 'finding'}\n`,
      explanation: a.autofix ? 'Replaces the dangerous call with a safe equivalent.' : null,
    },
    autotriage: {
      verdict: a.verdict,
      reason:
        a.reason ??
        (falsePositive
          ? 'The input reaching this call is a constant defined in the same module.'
          : 'User-controlled input reaches the sink without sanitisation.'),
    },
    component: { risk: a.risk, tag: a.tag },
    guidance: {
      summary: `Fix ${spec.rule.vulnClass[0] ?? 'the issue'} in ${spec.path}`,
      instructions: a.autofix ? '1. Apply the suggested fix.\n2. Add a regression test.' : null,
    },
    rule_explanation: { summary: spec.rule.message, explanation: `${spec.rule.message} See ${spec.rule.cwe[0] ?? 'the rule documentation'}.` },
  };
}

export function buildSastFinding(spec: SastSpec): WireSastFinding {
  const { rule } = spec;
  const finding: WireSastFinding = commonFields(spec);
  finding.rule_name = rule.path;
  finding.rule_message = rule.message;
  finding.rule = {
    name: rule.path,
    message: rule.message,
    category: rule.category,
    confidence: spec.confidence,
    cweNames: rule.cwe.slice(),
    owaspNames: rule.owasp.slice(),
    subcategories: [rule.category === 'security' ? 'vuln' : 'audit'],
    vulnerabilityClasses: rule.vulnClass.slice(),
  };
  finding.categories = [rule.category];
  finding.sourcing_policy = { id: spec.policy.id, name: spec.policy.name, slug: spec.policy.slug };
  finding.click_to_fix_prs = [];
  for (let i = 0; i < spec.fixPrCount; i++) {
    finding.click_to_fix_prs.push({
      created_at: formatTimestamp(spec.relevantSince + (i + 1) * DAY_MS, spec.timeStyle),
      url: `${spec.repoUrl}/pull/${(spec.id % 5000) + i}`,
    });
  }
  finding.click_to_fix_failures = [];
  for (let i = 0; i < spec.fixFailureCount; i++) {
    finding.click_to_fix_failures.push({
      created_at: formatTimestamp(spec.relevantSince + (i + 1) * 3_600_000, spec.timeStyle),
      reason: FIX_FAILURE_REASONS[i % FIX_FAILURE_REASONS.length] ?? '',
    });
  }
  const help = assistant(spec);
  if (help) finding.assistant = help;
  return finding;
}

/** Supply-chain rule names look like `ssc-<uuid>`; derive a stable one from the advisory. */
export function scaRuleName(advisory: string): string {
  let h = 2166136261;
  const parts: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const ch of `${advisory}#${round}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    parts.push(h.toString(16).padStart(8, '0'));
  }
  const hex = parts.join('');
  return `ssc-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function buildScaFinding(spec: ScaSpec): WireScaFinding {
  const { pkg } = spec;
  const name = scaRuleName(pkg.advisory);
  const message = `${pkg.summary}. Affected versions of ${pkg.package} are vulnerable${pkg.fixVersion ? `; upgrade to ${pkg.fixVersion} or later` : ''}.`;
  const finding: WireScaFinding = commonFields(spec);
  Object.assign(finding, {
    rule_name: name,
    rule_message: message,
    rule: {
      name,
      message,
      category: 'security',
      confidence: spec.confidence,
      cweNames: pkg.malicious ? ['CWE-506: Embedded Malicious Code'] : ['CWE-1395: Dependency on Vulnerable Third-Party Component'],
      owaspNames: ['A06:2021 - Vulnerable and Outdated Components'],
      subcategories: ['vuln'],
      vulnerabilityClasses: [pkg.malicious ? 'Malicious Code' : 'Vulnerable Dependency'],
    },
    categories: ['security'],
    vulnerability_identifier: pkg.advisory,
    is_malicious: pkg.malicious === true,
    reachability: spec.reachability,
    reachable_condition: spec.reachability === 'conditionally_reachable' ? `Reachable if ${pkg.package} is called with untrusted input` : '',
    epss_score: { ...spec.epss },
    fix_recommendations: pkg.fixVersion ? [{ package: pkg.package, version: pkg.fixVersion }] : [],
    found_dependency: {
      ecosystem: pkg.ecosystem,
      package: pkg.package,
      version: pkg.version,
      transitivity: spec.transitivity,
      lockfile_line_url: blobUrl(spec.repoUrl, spec.commitSha, spec.path, spec.line),
    },
  } satisfies WireScaFinding);
  const u = spec.usage;
  if (u) {
    finding.usage = {
      location: {
        path: u.path,
        start_line: u.line,
        start_col: u.column,
        end_line: u.endLine,
        end_col: u.endColumn,
        url: blobUrl(spec.repoUrl, spec.commitSha, u.path, u.line),
      },
      ...(u.ticketId === undefined ? {} : { external_ticket: ticket(u.ticketId, spec.projectName) }),
    };
  }
  return finding;
}
