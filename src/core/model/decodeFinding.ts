import { PlatformError } from './errors';
import { decodeLocation } from './decodeLocation';
import { asObject, isObject, readSafeInteger, readString, readTimestampMs, type JsonObject } from './decodeRead';
import type { StringInterner } from './interner';
import { matchKeyOf } from './match-key';
import { decodeTicketLink } from './decodeTicket';
import { lineFromUrl } from './links';
import type { Finding, ListIssueType, ScaFacts } from './types';

/** One page of findings: those that decoded, and how many were skipped as malformed. */
export interface FindingsPage {
  readonly findings: Finding[];
  readonly skipped: number;
}

/** A findings page plus the raw item count the pager needs to see the end of the list. */
export interface DecodedFindingsPage extends FindingsPage {
  readonly rawCount: number;
}

/** The members of the spec's envelope, by the issue type whose items each holds. */
const ENVELOPE_MEMBERS = { sast: 'sastFindings', sca: 'scaFindings', ai_sast: 'aiSastFindings' } as const;
const ALL_MEMBERS = ['sastFindings', 'scaFindings', 'aiSastFindings'] as const;

/**
 * Decodes one findings answer in either shape the service is known to use (docs/platform-api.md):
 * the flat `{"findings":[…]}` its reference documents, or the spec's envelope
 * `{"sastFindings":{"findings":[…]}}` (also `scaFindings`, `aiSastFindings`). The request's
 * issue type says what the items are. Anything else is an error that names the keys it saw
 * (never their values): passing it off as "no findings" would hide every finding.
 *
 * It awaits `between` after every `slice` items: a whole page decoded in the turn it was parsed
 * in would hold the extension host for one long stall. And it consumes `body`: each slice of raw
 * items is let go of once decoded. The young-generation collector runs between turns, and
 * whatever of the parsed page is still reachable then is copied (twice, as it survives and is
 * promoted), so letting go as it goes keeps a big sync's collections short (docs/performance.md,
 * "Refresh").
 */
export async function decodeFindingsPageInSlices(
  body: unknown,
  issueType: ListIssueType,
  interner: StringInterner,
  between: () => Promise<void>,
  slice = 1000,
): Promise<DecodedFindingsPage> {
  const items = pageItems(body, issueType);
  const findings: Finding[] = [];
  const rawCount = items.length;
  for (let start = 0; start < rawCount; start += slice) {
    if (start > 0) await between();
    const end = Math.min(start + slice, rawCount);
    decodeItems(items, start, end, issueType, interner, findings);
    items.fill(undefined, start, end);
  }
  return { findings, skipped: rawCount - findings.length, rawCount };
}

/** Decodes items [from, to) into `into`, leaving out those that are not findings. */
function decodeItems(items: readonly unknown[], from: number, to: number, issueType: ListIssueType, interner: StringInterner, into: Finding[]): void {
  for (let i = from; i < to; i++) {
    const finding = decodeFinding(items[i], issueType, interner);
    if (finding) into.push(finding);
  }
}

function pageItems(body: unknown, issueType: ListIssueType): unknown[] {
  if (!isObject(body)) {
    throw envelopeError(`is ${Array.isArray(body) ? 'a list' : body === null ? 'null' : `a ${typeof body}`}, not an object with a "findings" list`);
  }
  return findingsList(body, issueType);
}

/** The raw items of a findings answer, in either shape (for the detail of one finding). */
export function rawFindings(body: unknown, issueType: ListIssueType): readonly unknown[] {
  if (!isObject(body)) throw envelopeError('is not an object with a "findings" list');
  return findingsList(body, issueType);
}

/** The answer's list of items: top-level `findings`, else the envelope member for the type, else any. */
function findingsList(body: JsonObject, issueType: ListIssueType): unknown[] {
  const flat = body.findings;
  if (flat !== undefined && flat !== null) {
    if (!Array.isArray(flat)) {
      throw envelopeError('has "findings" that is not a list');
    }
    return flat;
  }
  const preferred = body[ENVELOPE_MEMBERS[issueType]];
  const member = preferred ?? ALL_MEMBERS.map((name) => body[name]).find((value) => value !== undefined && value !== null);
  if (member === undefined || member === null) {
    throw envelopeError(`has no "findings" list (it has ${describeKeys(body)})`);
  }
  if (!isObject(member)) {
    throw envelopeError('has a findings member that is not an object');
  }
  const items = member.findings ?? [];
  if (!Array.isArray(items)) {
    throw envelopeError('has "findings" that is not a list');
  }
  return items;
}

/** The top-level keys of an unexpected answer, for the message: names only, never values, at most ten. */
function describeKeys(body: JsonObject): string {
  const keys = Object.keys(body);
  if (keys.length === 0) {
    return 'no keys at all';
  }
  const shown = keys.slice(0, 10).map((key) => JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key));
  return `the key${keys.length === 1 ? '' : 's'} ${shown.join(', ')}${keys.length > 10 ? ` and ${keys.length - 10} more` : ''}`;
}

/**
 * One finding, or undefined when it cannot be one: not an object, no safe integer `id`, or no
 * rule name (the deprecated `rule_name`, else `rule.name`). Everything else is optional, `null`
 * is "no value", and an unknown enumeration value is kept as it came.
 *
 * This runs for every finding of a sync (100 000 and more), so it reads each field once, with
 * no closures, regexes or temporary objects: all it allocates is what the finding keeps.
 */
export function decodeFinding(raw: unknown, issueType: ListIssueType, interner: StringInterner): Finding | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readSafeInteger(raw.id);
  if (id === undefined) {
    return undefined;
  }
  // `rule_name` and `rule_message` are deprecated in favour of `rule.name` and `rule.message`.
  let ruleName = readString(raw.rule_name);
  let message = readString(raw.rule_message);
  let confidence = readString(raw.confidence);
  if (ruleName === undefined || message === undefined || confidence === undefined) {
    const rule = asObject(raw.rule);
    ruleName ??= readString(rule?.name);
    message ??= readString(rule?.message);
    confidence ??= readString(rule?.confidence);
  }
  if (ruleName === undefined) {
    return undefined;
  }
  const repository = raw.repository;
  // A supply-chain finding's line is its dependency's, which its other advisories share: one copy.
  const lineOfCodeUrl = issueType === 'sca' ? internString(interner, raw.line_of_code_url) : readString(raw.line_of_code_url);
  return {
    issueType: issueType === 'sca' ? 'sca' : 'sast',
    id,
    ruleName: interner.intern(ruleName),
    message: interner.intern(message ?? ''),
    severity: internString(interner, raw.severity) ?? 'unknown',
    confidence: confidence === undefined ? undefined : interner.intern(confidence),
    status: internString(interner, raw.status) ?? 'unknown',
    ref: internString(interner, raw.ref),
    repositoryName: isObject(repository) ? internString(interner, repository.name) : undefined,
    location: decodeLocation(raw.location, interner),
    lineOfCodeUrl,
    relevantSince: readTimestampMs(raw.relevant_since),
    triageReason: internString(interner, raw.triage_reason),
    matchKey: matchKeyOf(raw.match_based_id),
    triageComment: internString(interner, raw.triage_comment),
    ticket: decodeTicketLink(raw.external_ticket, interner),
    policy: issueType === 'sca' ? undefined : decodeSourcingPolicy(raw.sourcing_policy, interner),
    sca: issueType === 'sca' ? decodeScaFacts(raw, interner, lineOfCodeUrl) : undefined,
    ai: issueType === 'ai_sast' ? { impact: readString(raw.ai_impact) } : undefined,
  };
}

/** A non-empty string, interned; undefined for anything else. */
function internString(interner: StringInterner, value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? interner.intern(value) : undefined;
}

function decodeSourcingPolicy(raw: unknown, interner: StringInterner): Finding['policy'] {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readSafeInteger(raw.id);
  const name = readString(raw.name);
  const slug = readString(raw.slug);
  if (id === undefined || name === undefined || slug === undefined) {
    return undefined;
  }
  // Thousands of findings come from the same few policies: one object each.
  return interner.policy(id, name, slug);
}

function decodeScaFacts(raw: JsonObject, interner: StringInterner, lineOfCodeUrl: string | undefined): ScaFacts {
  const dependency = asObject(raw.found_dependency);
  const lockfileUrl = internString(interner, dependency?.lockfile_line_url);
  // A supply-chain finding's code line usually is its lockfile line: keep one string for both.
  const lockfileLineUrl = lockfileUrl === lineOfCodeUrl ? lineOfCodeUrl : lockfileUrl;
  const usage = raw.usage;
  return {
    advisory: internString(interner, raw.vulnerability_identifier),
    package: internString(interner, dependency?.package),
    version: internString(interner, dependency?.version),
    ecosystem: internString(interner, dependency?.ecosystem),
    transitivity: internString(interner, dependency?.transitivity),
    reachability: internString(interner, raw.reachability),
    // The service leaves `false` out: an absent flag is "not malicious", not "unknown".
    isMalicious: raw.is_malicious === true,
    fixVersions: decodeFixVersions(raw.fix_recommendations, interner),
    lockfileLineUrl,
    lockfileLine: lineFromUrl(lockfileLineUrl),
    usage: isObject(usage) ? decodeLocation(usage.location, interner) : undefined,
  };
}

function decodeFixVersions(raw: unknown, interner: StringInterner): readonly string[] | undefined {
  if (!Array.isArray(raw)) {
    return undefined;
  }
  // Each version is prefixed with its length, so no two different lists share a key.
  let key = 'fixes';
  for (const item of raw as unknown[]) {
    const version = isObject(item) ? readString(item.version) : undefined;
    if (version !== undefined) {
      key += `:${version.length}:${version}`;
    }
  }
  if (key === 'fixes') {
    return undefined;
  }
  // Findings of one advisory share their fix versions: one frozen list each.
  return interner.shared(key, () => {
    const versions: string[] = [];
    for (const item of raw as unknown[]) {
      const version = isObject(item) ? readString(item.version) : undefined;
      if (version !== undefined) {
        versions.push(interner.intern(version));
      }
    }
    return versions;
  });
}

function envelopeError(problem: string): PlatformError {
  // The answer was JSON, so the base URL reached a JSON API: the shape is what is unexpected.
  return new PlatformError(
    'invalidResponse',
    `The platform's findings answer ${problem}. This extension reads "findings" or "sastFindings"/"scaFindings"; if the platform changed its answer, report it with the log (AppSec: Show Logs).`,
  );
}
