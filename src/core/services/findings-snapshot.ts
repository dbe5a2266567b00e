/**
 * What the store shows, written compactly and read back (for a start that shows findings before
 * any request). Repeated strings are stored once in a table; each finding is a tuple. Reading is
 * as distrustful as reading the platform: every finding is checked by the platform decoder's
 * rules, and a snapshot of another version, or a broken one, is dropped whole (undefined), never
 * thrown. Both ways work in slices for the extension host (`…InSlices`).
 */
import { lineFromUrl } from '../model/decodeFinding';
import { decodeLocation } from '../model/decodeLocation';
import { isObject } from '../model/decodeRead';
import { StringInterner } from '../model/interner';
import { runAtOnce, runInSlices, type Slices } from '../slices';
import type { Finding, IssueType, SourceRange } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-store';

export const SNAPSHOT_FORMAT = 'appsec-findings/store';
/** 4: each finding ends with its match key (0 for none), triage note, ticket, AI and secret facts. */
export const SNAPSHOT_VERSION = 4;

type Str = number; // index into the string table; -1 for none
type RangeTuple = [Str, number, number, number, number];

class StringTable {
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

/** Findings encoded per step of the sliced encoding: a few milliseconds' work. */
const ENCODE_SLICE = 5000;

/** The snapshot as JSON text, in one go (small snapshots, tests). */
export function encodeSnapshot(results: readonly FindingsResult[]): string {
  return runAtOnce(encodeSteps(results)).join('');
}

/**
 * The snapshot as JSON text in parts (joined, they are the text), encoded in slices with a turn
 * of the event loop between them: 50 000 findings would otherwise hold the extension host for a
 * quarter of a second after a refresh. Parts, because joining tens of megabytes into one string
 * (or measuring it) is itself such a block: the parts are measured and written one by one.
 */
export function encodeSnapshotInSlices(results: readonly FindingsResult[]): Promise<string[]> {
  return runInSlices(encodeSteps(results));
}

/** Encodes slice by slice, pausing (yielding) between them; returns the text's parts. */
function* encodeSteps(results: readonly FindingsResult[]): Slices<string[]> {
  const table = new StringTable();
  const range = (r: SourceRange | undefined): RangeTuple | 0 => (r ? [table.put(r.filePath), r.line, r.column ?? 0, r.endLine ?? 0, r.endColumn ?? 0] : 0);
  const tupleOf = (f: Finding): unknown[] => [
    f.id, table.put(f.ruleName), table.put(f.message), table.put(f.severity), table.put(f.confidence), table.put(f.status),
    table.put(f.ref), table.put(f.repositoryName), table.put(f.lineOfCodeUrl), f.relevantSince?.getTime() ?? 0,
    table.put(f.triageReason), range(f.location), f.policy ? [f.policy.id, table.put(f.policy.name), table.put(f.policy.slug)] : 0,
    f.sca ? [
      table.put(f.sca.advisory), table.put(f.sca.package), table.put(f.sca.version), table.put(f.sca.ecosystem),
      table.put(f.sca.transitivity), table.put(f.sca.reachability), f.sca.isMalicious ? 1 : 0,
      (f.sca.fixVersions ?? []).map((v) => table.put(v)), table.put(f.sca.lockfileLineUrl), range(f.sca.usage),
    ] : 0,
    f.matchKey ?? 0, table.put(f.triageComment), f.ticket ? [table.put(f.ticket.slug), table.put(f.ticket.url)] : 0,
    f.ai ? [table.put(f.ai.impact)] : 0, f.secret ? [table.put(f.secret.service), table.put(f.secret.validation)] : 0,
  ];
  // The results first (they fill the string table), then the table; the parts are put in file order at the end.
  const encoded: string[] = [];
  let sinceYield = 0;
  for (const [r, result] of results.entries()) {
    encoded.push(`${r > 0 ? ',' : ''}{"query":${JSON.stringify(result.query)},"loadedAt":${JSON.stringify(result.loadedAt.getTime())},"skipped":${JSON.stringify(result.skipped)},"findings":[`);
    for (let start = 0; start < result.findings.length; start += ENCODE_SLICE) {
      if (sinceYield >= ENCODE_SLICE) {
        yield;
        sinceYield = 0;
      }
      const slice = result.findings.slice(start, start + ENCODE_SLICE);
      sinceYield += slice.length;
      // Each slice as JSON array text without its brackets: the slices in a row make one array.
      encoded.push(`${start > 0 ? ',' : ''}${JSON.stringify(slice.map(tupleOf)).slice(1, -1)}`);
    }
    encoded.push(']}');
  }
  // The string table holds every distinct link (tens of thousands): encoded in slices too.
  const strings: string[] = [];
  for (let start = 0; start < table.strings.length; start += ENCODE_SLICE * 4) {
    yield;
    strings.push(`${start > 0 ? ',' : ''}${JSON.stringify(table.strings.slice(start, start + ENCODE_SLICE * 4)).slice(1, -1)}`);
  }
  return [`{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"strings":[`, ...strings, '],"results":[', ...encoded, ']}'];
}

/** Findings decoded per step of the sliced decoding. */
const DECODE_SLICE = 5000;

/** The results of a snapshot, or undefined when it is not one of this version or is broken. */
export function decodeSnapshot(text: string): FindingsResult[] | undefined {
  return runAtOnce(decodeSteps(text));
}

/** As {@link decodeSnapshot}, with a turn of the event loop between slices (a start stays responsive). */
export function decodeSnapshotInSlices(text: string): Promise<FindingsResult[] | undefined> {
  return runInSlices(decodeSteps(text));
}

function* decodeSteps(text: string): Slices<FindingsResult[] | undefined> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(body) || body.format !== SNAPSHOT_FORMAT || body.version !== SNAPSHOT_VERSION) return undefined;
  const { strings, results } = body;
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string') || !Array.isArray(results)) return undefined;
  const str = (i: unknown): string | undefined => (typeof i === 'number' && i >= 0 ? (strings)[i] : undefined);
  const decoded: FindingsResult[] = [];
  let sinceYield = 0;
  for (const raw of results as unknown[]) {
    if (!isObject(raw) || !Array.isArray(raw.findings) || typeof raw.loadedAt !== 'number') return undefined;
    const query = decodeQuery(raw.query);
    if (!query) return undefined;
    const interner = new StringInterner();
    const findings: Finding[] = [];
    for (const tuple of raw.findings as unknown[]) {
      if (++sinceYield > DECODE_SLICE) {
        yield;
        sinceYield = 0;
      }
      const finding = Array.isArray(tuple) ? decodeTuple(tuple, query.issueType, str, interner) : undefined;
      if (!finding) return undefined;
      findings.push(finding);
    }
    decoded.push({ query, findings, skipped: typeof raw.skipped === 'number' ? raw.skipped : 0, loadedAt: new Date(raw.loadedAt) });
  }
  return decoded;
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
  const ticketSlug = interned(interner, str(ticket?.[0]));
  const ticketUrl = str(ticket?.[1]);
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
    relevantSince: typeof since === 'number' && Number.isFinite(since) && since > 0 ? new Date(since) : undefined,
    triageReason: interned(interner, str(t[10])),
    // The key is a hash of an id the snapshot does not keep: taken as written, when it can be one.
    matchKey: typeof t[14] === 'number' && Number.isSafeInteger(t[14]) && t[14] > 0 ? t[14] : undefined,
    triageComment: interned(interner, str(t[15])),
    ticket: ticketSlug === undefined && ticketUrl === undefined ? undefined : { slug: ticketSlug, url: ticketUrl },
    policy: issueType !== 'sca' && typeof policy?.[0] === 'number' && Number.isSafeInteger(policy[0]) && policyName !== undefined && policySlug !== undefined
      ? interner.policy(policy[0], policyName, policySlug) : undefined,
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

function scaOf(sca: unknown[], str: (i: unknown) => string | undefined, interner: StringInterner, lineOfCodeUrl: string | undefined): NonNullable<Finding['sca']> {
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
    fixVersions: versions.length === 0 ? undefined : interner.shared(`fixes${versions.map((v) => `:${v.length}:${v}`).join('')}`, () => versions.map((v) => interner.intern(v))),
    lockfileLineUrl,
    lockfileLine: lineFromUrl(lockfileLineUrl),
    usage: rangeOf(sca[9], str, interner),
  };
}

function decodeQuery(raw: unknown): FindingsQuery | undefined {
  if (!isObject(raw) || typeof raw.deploymentSlug !== 'string' || !isObject(raw.filters)) return undefined;
  const issueType = raw.issueType;
  if (issueType !== 'sast' && issueType !== 'sca' && issueType !== 'secrets') return undefined;
  return { deploymentSlug: raw.deploymentSlug, issueType: issueType, filters: raw.filters };
}
