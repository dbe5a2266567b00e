/**
 * What the store shows, written compactly and read back (for a start that shows findings before
 * any request). The text is lines of JSON: a head naming each answer and how many findings it
 * has, then segments of {@link SEGMENT} findings, each with its own table of the strings it uses
 * and each finding as a tuple. Segments keep every step short both ways: one parse of a whole
 * large cache is one long stall at start-up (docs/performance.md, "Cached start"). Reading is
 * as distrustful as reading the platform: every finding is checked by the platform decoder's
 * rules, and a snapshot of another version, a broken or a cut-off one (its counts do not add
 * up) is dropped whole (undefined), never thrown. Both ways work in slices (`…InSlices`).
 */
import { lineFromUrl } from '../model/links';
import { decodeLocation } from '../model/decodeLocation';
import { isObject } from '../model/decodeRead';
import { StringInterner } from '../model/interner';
import { runAtOnce, runInSlices, type Slices } from '../slices';
import type { Finding, IssueType, SourceRange } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-query';
import { isIssueType } from '../model/finding-kinds';

export const SNAPSHOT_FORMAT = 'appsec-findings/store';
/** 5: lines of JSON, a head and segments with their own string tables (4 was one document). */
export const SNAPSHOT_VERSION = 5;

type Str = number; // index into the segment's string table; -1 for none
type RangeTuple = [Str, number, number, number, number];

/** Strings kept once each, referred to by index (shared with the kept drawing's format, shown-snapshot.ts). */
export class StringTable {
  readonly strings: string[] = [];
  private readonly at = new Map<string, number>();
  put(value: string | undefined): Str {
    if (value === undefined) return -1;
    let i = this.at.get(value);
    if (i === undefined) {
      i = this.strings.push(value) - 1;
      this.at.set(value, i);
    }
    return i;
  }
}

/**
 * Findings per segment: one segment is parsed and read back in one turn. Inside VS Code at a
 * cached start the collector is marking the heap that start is filling, so a segment takes far
 * longer than in plain Node; smaller segments keep each turn short and cost nothing in file
 * size or total time (docs/performance.md, "Cached start").
 */
const SEGMENT = 1000;

/** The snapshot as text, in one go (small snapshots, tests). */
export function encodeSnapshot(results: readonly FindingsResult[]): string {
  return runAtOnce(encodeSteps(results)).join('');
}

/**
 * The snapshot as text in parts (joined, they are the text; a line per part), encoded in slices
 * with a turn of the event loop between them, so a large store does not hold the extension host
 * after a refresh (docs/performance.md, "Writing the cache"). Parts, because joining tens of
 * megabytes into one string (or measuring it) is itself such a block: they are measured and
 * written one by one.
 */
export function encodeSnapshotInSlices(results: readonly FindingsResult[]): Promise<string[]> {
  return runInSlices(encodeSteps(results));
}

/** Encodes segment by segment, pausing (yielding) between them; returns the lines. */
function* encodeSteps(results: readonly FindingsResult[]): Slices<string[]> {
  const head = results.map((r) => ({ query: r.query, loadedAt: r.loadedAt.getTime(), skipped: r.skipped, findings: r.findings.length }));
  const lines = [`${JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, results: head })}\n`];
  for (const [r, result] of results.entries()) {
    for (let start = 0; start < result.findings.length; start += SEGMENT) {
      if (lines.length > 1) yield;
      const table = new StringTable();
      const tuples = result.findings.slice(start, start + SEGMENT).map((f) => tupleOf(f, table));
      lines.push(`{"result":${r},"strings":${JSON.stringify(table.strings)},"findings":${JSON.stringify(tuples)}}\n`);
    }
  }
  return lines;
}

function tupleOf(f: Finding, table: StringTable): unknown[] {
  const range = (r: SourceRange | undefined): RangeTuple | 0 => (r ? [table.put(r.filePath), r.line, r.column ?? 0, r.endLine ?? 0, r.endColumn ?? 0] : 0);
  return [
    f.id,
    table.put(f.ruleName),
    table.put(f.message),
    table.put(f.severity),
    table.put(f.confidence),
    table.put(f.status),
    table.put(f.ref),
    table.put(f.repositoryName),
    table.put(f.lineOfCodeUrl),
    f.relevantSince ?? 0,
    table.put(f.triageReason),
    range(f.location),
    f.policy ? [f.policy.id, table.put(f.policy.name), table.put(f.policy.slug)] : 0,
    f.sca
      ? [
          table.put(f.sca.advisory),
          table.put(f.sca.package),
          table.put(f.sca.version),
          table.put(f.sca.ecosystem),
          table.put(f.sca.transitivity),
          table.put(f.sca.reachability),
          f.sca.isMalicious ? 1 : 0,
          (f.sca.fixVersions ?? []).map((v) => table.put(v)),
          table.put(f.sca.lockfileLineUrl),
          range(f.sca.usage),
        ]
      : 0,
    f.matchKey ?? 0,
    table.put(f.triageComment),
    f.ticket ? [table.put(f.ticket.slug), table.put(f.ticket.url), ...(f.ticket.id === undefined ? [] : [f.ticket.id])] : 0,
    f.ai ? [table.put(f.ai.impact)] : 0,
    f.secret ? [table.put(f.secret.service), table.put(f.secret.validation)] : 0,
  ];
}

/** The results of a snapshot, or undefined when it is not one of this version or is broken. */
export function decodeSnapshot(text: string | Uint8Array): FindingsResult[] | undefined {
  return runAtOnce(decodeSteps(text));
}

/**
 * As {@link decodeSnapshot}, a segment per turn of the event loop (a start stays responsive).
 * Given the file's bytes, each line is decoded from UTF-8 only when its turn comes.
 */
export function decodeSnapshotInSlices(text: string | Uint8Array): Promise<FindingsResult[] | undefined> {
  return runInSlices(decodeSteps(text));
}

/** The lines of the text (a newline never occurs inside JSON text, nor inside a UTF-8 character's bytes). */
function* linesOf(text: string | Uint8Array): Generator<string, void, void> {
  const bytes = typeof text === 'string' ? undefined : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const length = bytes ? bytes.length : (text as string).length;
  let start = 0;
  while (start < length) {
    let end = bytes ? bytes.indexOf(0x0a, start) : (text as string).indexOf('\n', start);
    if (end < 0) end = length;
    yield bytes ? bytes.toString('utf8', start, end) : (text as string).slice(start, end);
    start = end + 1;
  }
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function* decodeSteps(text: string | Uint8Array): Slices<FindingsResult[] | undefined> {
  const lines = linesOf(text);
  const head = parsed(lines.next().value ?? '');
  if (!isObject(head) || head.format !== SNAPSHOT_FORMAT || head.version !== SNAPSHOT_VERSION || !Array.isArray(head.results)) return undefined;
  const answers: { query: FindingsQuery; loadedAt: number; skipped: number; count: number; findings: Finding[]; interner: StringInterner }[] = [];
  for (const raw of head.results as unknown[]) {
    const query = isObject(raw) ? decodeQuery(raw.query) : undefined;
    if (!query || !isObject(raw) || typeof raw.loadedAt !== 'number' || !Number.isSafeInteger(raw.findings) || (raw.findings as number) < 0) return undefined;
    answers.push({
      query,
      loadedAt: raw.loadedAt,
      skipped: typeof raw.skipped === 'number' ? raw.skipped : 0,
      count: raw.findings as number,
      findings: [],
      interner: new StringInterner(),
    });
  }
  for (const line of lines) {
    if (line === '') continue;
    yield;
    const segment = parsed(line);
    if (!isObject(segment) || !Array.isArray(segment.strings) || !Array.isArray(segment.findings) || typeof segment.result !== 'number') return undefined;
    const answer = answers[segment.result];
    const strings = segment.strings as unknown[];
    if (!answer || !strings.every((s) => typeof s === 'string')) return undefined;
    const str = (i: unknown): string | undefined => (typeof i === 'number' && i >= 0 ? strings[i] : undefined);
    for (const tuple of segment.findings as unknown[]) {
      const finding = Array.isArray(tuple) ? decodeTuple(tuple, answer.query.issueType, str, answer.interner) : undefined;
      if (!finding) return undefined;
      answer.findings.push(finding);
    }
  }
  // A file cut off between lines parses line by line: only the counts tell.
  if (answers.some((a) => a.findings.length !== a.count)) return undefined;
  return answers.map(({ query, findings, skipped, loadedAt }) => ({ query, findings, skipped, loadedAt: new Date(loadedAt) }));
}

/**
 * A tuple read back into a finding, as distrustfully as the platform decoder reads an answer
 * (ids must be safe integers, a rule name must be there, places must be sane), but straight from
 * the tuple: going through the platform's shape first cost most of a cached start.
 */
function decodeTuple(t: unknown[], issueType: IssueType, str: (i: unknown) => string | undefined, interner: StringInterner): Finding | undefined {
  const id = t[0];
  const ruleName = str(t[1]);
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || ruleName === undefined) return undefined;
  const ai = Array.isArray(t[17]) ? (t[17] as unknown[]) : undefined;
  const lineOfCodeUrl = str(t[8]);
  const since = t[9];
  const policy = Array.isArray(t[12]) ? (t[12] as unknown[]) : undefined;
  const policyName = str(policy?.[1]);
  const policySlug = str(policy?.[2]);
  const ticket = Array.isArray(t[16]) ? (t[16] as unknown[]) : undefined;
  const ticketSlug = str(ticket?.[0]);
  const ticketUrl = str(ticket?.[1]);
  // Snapshots written before tickets kept their id have two members: they read as a ticket without one.
  const ticketId = typeof ticket?.[2] === 'number' && Number.isSafeInteger(ticket[2]) && ticket[2] >= 0 ? ticket[2] : undefined;
  const confidence = str(t[4]);
  const finding: Finding = {
    issueType: issueType === 'sca' ? 'sca' : 'sast',
    id,
    ruleName: interner.intern(ruleName),
    message: interner.intern(str(t[2]) ?? ''),
    severity: interned(interner, str(t[3])) ?? 'unknown',
    confidence: confidence === undefined ? undefined : interner.intern(confidence),
    status: interned(interner, str(t[5])) ?? 'unknown',
    ref: interned(interner, str(t[6])),
    repositoryName: interned(interner, str(t[7])),
    location: rangeOf(t[11], str, interner),
    lineOfCodeUrl,
    relevantSince: typeof since === 'number' && Number.isFinite(since) && since > 0 ? since : undefined,
    triageReason: interned(interner, str(t[10])),
    // The key is a hash of an id the snapshot does not keep: taken as written, when it can be one.
    matchKey: typeof t[14] === 'number' && Number.isSafeInteger(t[14]) && t[14] > 0 ? t[14] : undefined,
    triageComment: interned(interner, str(t[15])),
    ticket: ticketSlug === undefined && ticketUrl === undefined ? undefined : interner.ticket(ticketId, ticketSlug, ticketUrl),
    policy:
      issueType !== 'sca' && typeof policy?.[0] === 'number' && Number.isSafeInteger(policy[0]) && policyName !== undefined && policySlug !== undefined
        ? interner.policy(policy[0], policyName, policySlug)
        : undefined,
    sca: issueType === 'sca' ? scaOf(Array.isArray(t[13]) ? (t[13] as unknown[]) : [], str, interner, lineOfCodeUrl) : undefined,
    ai: ai ? { impact: str(ai[0]) } : undefined,
  };
  if (issueType !== 'secrets') return finding;
  const secret = Array.isArray(t[18]) ? (t[18] as unknown[]) : undefined;
  const service = str(secret?.[0]);
  const validation = str(secret?.[1]);
  if (service === undefined || validation === undefined) return undefined;
  return { ...finding, issueType, secret: { service: interner.intern(service), validation: interner.intern(validation) } };
}

function interned(interner: StringInterner, value: string | undefined): string | undefined {
  return value === undefined ? undefined : interner.intern(value);
}

/** A range tuple through the platform's own location rules (positive lines, ends after starts). */
function rangeOf(r: unknown, str: (i: unknown) => string | undefined, interner: StringInterner): SourceRange | undefined {
  if (!Array.isArray(r)) return undefined;
  const [path, line, column, endLine, endColumn] = r as unknown[];
  return decodeLocation({ filePath: str(path), line, column: column || undefined, endLine: endLine || undefined, endColumn: endColumn || undefined }, interner);
}

function scaOf(
  sca: unknown[],
  str: (i: unknown) => string | undefined,
  interner: StringInterner,
  lineOfCodeUrl: string | undefined,
): NonNullable<Finding['sca']> {
  const lockfileUrl = str(sca[8]);
  const lockfileLineUrl = lockfileUrl === lineOfCodeUrl ? lineOfCodeUrl : lockfileUrl;
  const versions = Array.isArray(sca[7]) ? (sca[7] as unknown[]).map(str).filter((v): v is string => v !== undefined) : [];
  return {
    advisory: interned(interner, str(sca[0])),
    package: interned(interner, str(sca[1])),
    version: interned(interner, str(sca[2])),
    ecosystem: interned(interner, str(sca[3])),
    transitivity: interned(interner, str(sca[4])),
    reachability: interned(interner, str(sca[5])),
    isMalicious: sca[6] === 1,
    fixVersions:
      versions.length === 0
        ? undefined
        : interner.shared(`fixes${versions.map((v) => `:${v.length}:${v}`).join('')}`, () => versions.map((v) => interner.intern(v))),
    lockfileLineUrl,
    lockfileLine: lineFromUrl(lockfileLineUrl),
    usage: rangeOf(sca[9], str, interner),
  };
}

function decodeQuery(raw: unknown): FindingsQuery | undefined {
  if (!isObject(raw) || typeof raw.deploymentSlug !== 'string' || !isObject(raw.filters)) return undefined;
  const issueType = raw.issueType;
  if (!isIssueType(issueType)) return undefined;
  return { deploymentSlug: raw.deploymentSlug, issueType: issueType, filters: raw.filters };
}
