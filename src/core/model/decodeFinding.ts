import { PlatformError } from '../api/errors';
import { decodeLocation } from './decodeLocation';
import { asObject, isObject, readBoolean, readSafeInteger, readString, readTimestamp, type JsonObject } from './decodeRead';
import type { StringInterner } from './interner';
import type { Finding, IssueType, ScaFacts } from './types';

/** One page of findings: those that decoded, and how many were skipped as malformed. */
export interface FindingsPage {
  readonly findings: Finding[];
  readonly skipped: number;
}

/** A findings page plus the raw item count the pager needs to see the end of the list. */
export interface DecodedFindingsPage extends FindingsPage {
  readonly rawCount: number;
}

/**
 * Decodes the spec 4.2 envelope. The member named after the issue type is read; should the
 * service fill the other one instead, that is read. A body that is not this envelope at all is
 * an error (it would otherwise pass for "no findings"); a member without `findings` is empty.
 */
export function decodeFindingsPage(body: unknown, issueType: IssueType, interner: StringInterner): DecodedFindingsPage {
  if (!isObject(body)) {
    throw envelopeError('is not a JSON object');
  }
  const preferred = issueType === 'sca' ? body.scaFindings : body.sastFindings;
  const other = issueType === 'sca' ? body.sastFindings : body.scaFindings;
  const member = preferred ?? other;
  if (member === undefined || member === null) {
    throw envelopeError('has neither sastFindings nor scaFindings');
  }
  if (!isObject(member)) {
    throw envelopeError('has a findings member that is not an object');
  }
  const items = member.findings ?? [];
  if (!Array.isArray(items)) {
    throw envelopeError('has "findings" that is not a list');
  }
  const findings: Finding[] = [];
  for (const item of items) {
    const finding = decodeFinding(item, issueType, interner);
    if (finding) {
      findings.push(finding);
    }
  }
  return { findings, skipped: items.length - findings.length, rawCount: items.length };
}

/**
 * One finding, or undefined when it cannot be one: not an object, no safe integer `id`, or no
 * `rule_name`. Everything else is optional and an unknown enumeration value is kept as it came.
 */
export function decodeFinding(raw: unknown, issueType: IssueType, interner: StringInterner): Finding | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readSafeInteger(raw.id);
  const ruleName = readString(raw.rule_name);
  if (id === undefined || ruleName === undefined) {
    return undefined;
  }
  const rule = asObject(raw.rule);
  const text = (value: unknown): string | undefined => interner.optional(readString(value));
  const lineOfCodeUrl = readString(raw.line_of_code_url);
  return {
    issueType,
    id,
    ruleName: interner.intern(ruleName),
    message: interner.intern(readString(raw.rule_message) ?? readString(rule?.message) ?? ''),
    severity: text(raw.severity) ?? 'unknown',
    confidence: text(raw.confidence) ?? text(rule?.confidence),
    status: text(raw.status) ?? 'unknown',
    ref: text(raw.ref),
    repositoryName: text(asObject(raw.repository)?.name),
    location: decodeLocation(raw.location, interner),
    lineOfCodeUrl,
    relevantSince: readTimestamp(raw.relevant_since),
    triageReason: text(raw.triage_reason),
    policy: issueType === 'sast' ? decodeSourcingPolicy(raw.sourcing_policy, interner) : undefined,
    sca: issueType === 'sca' ? decodeScaFacts(raw, interner, lineOfCodeUrl) : undefined,
  };
}

function decodeSourcingPolicy(raw: unknown, interner: StringInterner): Finding['policy'] {
  const o = asObject(raw);
  const id = readSafeInteger(o?.id);
  const name = readString(o?.name);
  const slug = readString(o?.slug);
  if (id === undefined || name === undefined || slug === undefined) {
    return undefined;
  }
  // Thousands of findings come from the same few policies: one object each.
  return interner.shared(`policy\u0000${id}\u0000${name}\u0000${slug}`, () => ({ id, name: interner.intern(name), slug: interner.intern(slug) }));
}

function decodeScaFacts(raw: JsonObject, interner: StringInterner, lineOfCodeUrl: string | undefined): ScaFacts {
  const dependency = asObject(raw.found_dependency);
  const lockfileUrl = readString(dependency?.lockfile_line_url);
  // A supply-chain finding's code line usually is its lockfile line: keep one string for both.
  const lockfileLineUrl = lockfileUrl === lineOfCodeUrl ? lineOfCodeUrl : lockfileUrl;
  const text = (value: unknown): string | undefined => interner.optional(readString(value));
  return {
    advisory: text(raw.vulnerability_identifier),
    package: text(dependency?.package),
    version: text(dependency?.version),
    ecosystem: text(dependency?.ecosystem),
    transitivity: text(dependency?.transitivity),
    reachability: text(raw.reachability),
    isMalicious: readBoolean(raw.is_malicious),
    fixVersions: decodeFixVersions(raw.fix_recommendations, interner),
    lockfileLineUrl,
    lockfileLine: lineFromUrl(lockfileLineUrl),
    usage: decodeLocation(asObject(raw.usage)?.location, interner),
  };
}

function decodeFixVersions(raw: unknown, interner: StringInterner): readonly string[] | undefined {
  if (!Array.isArray(raw)) {
    return undefined;
  }
  const versions = raw.map((r) => readString(asObject(r)?.version)).filter((v): v is string => v !== undefined);
  // Findings of one advisory share their fix versions: one frozen list each.
  return versions.length > 0 ? interner.shared(`fixes\u0000${versions.join('\u0000')}`, () => versions.map((v) => interner.intern(v))) : undefined;
}

/** The 1-based line of a `…#L42` (or `…#L42-L45`) link, or undefined when it names none. */
export function lineFromUrl(url: string | undefined): number | undefined {
  const m = url === undefined ? null : /#L(\d+)(?:-L?\d+)?$/.exec(url);
  const line = m ? Number(m[1]) : undefined;
  return line !== undefined && Number.isSafeInteger(line) && line > 0 ? line : undefined;
}

function envelopeError(problem: string): PlatformError {
  return new PlatformError('invalidResponse', `The platform's findings answer ${problem}. Try again; if it persists, check the base URL.`);
}
