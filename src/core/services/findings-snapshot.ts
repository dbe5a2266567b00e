/**
 * What the store shows, written compactly and read back (for a start that shows findings before
 * any request). Repeated strings are stored once in a table; each finding is a tuple. Reading is
 * as distrustful as reading the platform: every finding goes back through the platform decoder,
 * and a snapshot of another version, or a broken one, is dropped whole (undefined), never thrown.
 */
import { decodeFinding } from '../model/decodeFinding';
import { isObject } from '../model/decodeRead';
import { StringInterner } from '../model/interner';
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
  const steps = encodeSteps(results);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * The snapshot as JSON text, encoded in slices with a turn of the event loop between them: 50 000
 * findings would otherwise hold the extension host for a quarter of a second after a refresh.
 */
export async function encodeSnapshotInSlices(results: readonly FindingsResult[]): Promise<string> {
  const steps = encodeSteps(results);
  let step = steps.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    step = steps.next();
  }
  return step.value;
}

/** Encodes slice by slice, pausing (yielding) between them; returns the whole text. */
function* encodeSteps(results: readonly FindingsResult[]): Generator<void, string, void> {
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
  const encoded: string[] = [];
  let sinceYield = 0;
  for (const result of results) {
    const slices: string[] = [];
    for (let start = 0; start < result.findings.length; start += ENCODE_SLICE) {
      if (sinceYield >= ENCODE_SLICE) {
        yield;
        sinceYield = 0;
      }
      const slice = result.findings.slice(start, start + ENCODE_SLICE);
      sinceYield += slice.length;
      // Each slice as JSON array text without its brackets: the slices joined make one array.
      slices.push(JSON.stringify(slice.map(tupleOf)).slice(1, -1));
    }
    encoded.push(`{"query":${JSON.stringify(result.query)},"loadedAt":${JSON.stringify(result.loadedAt.getTime())},"skipped":${JSON.stringify(result.skipped)},"findings":[${slices.join(',')}]}`);
  }
  return `{"format":${JSON.stringify(SNAPSHOT_FORMAT)},"version":${SNAPSHOT_VERSION},"strings":${JSON.stringify(table.strings)},"results":[${encoded.join(',')}]}`;
}

/** The results of a snapshot, or undefined when it is not one of this version or is broken. */
export function decodeSnapshot(text: string): FindingsResult[] | undefined {
  try {
    const body: unknown = JSON.parse(text);
    if (!isObject(body) || body.format !== SNAPSHOT_FORMAT || body.version !== SNAPSHOT_VERSION) return undefined;
    const { strings, results } = body;
    if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string') || !Array.isArray(results)) return undefined;
    const str = (i: unknown): string | undefined => (typeof i === 'number' && i >= 0 ? (strings)[i] : undefined);
    const decoded: FindingsResult[] = [];
    for (const raw of results as unknown[]) {
      const result = decodeResult(raw, str);
      if (!result) return undefined;
      decoded.push(result);
    }
    return decoded;
  } catch {
    return undefined;
  }
}

function decodeResult(raw: unknown, str: (i: unknown) => string | undefined): FindingsResult | undefined {
  if (!isObject(raw) || !Array.isArray(raw.findings) || typeof raw.loadedAt !== 'number') return undefined;
  const query = decodeQuery(raw.query);
  if (!query) return undefined;
  const interner = new StringInterner();
  const findings: Finding[] = [];
  for (const tuple of raw.findings as unknown[]) {
    const decoded = Array.isArray(tuple) ? decodeTuple(tuple, query.issueType, str, interner) : undefined;
    if (!decoded) return undefined;
    const finding = decoded;
    // The key is a hash of an id the snapshot does not keep: taken as written, when it can be one.
    const matchKey = (tuple as unknown[])[14];
    findings.push(typeof matchKey === 'number' && Number.isSafeInteger(matchKey) && matchKey > 0 ? { ...finding, matchKey } : finding);
  }
  return { query, findings, skipped: typeof raw.skipped === 'number' ? raw.skipped : 0, loadedAt: new Date(raw.loadedAt) };
}

/** A tuple through the platform decoder, with the facts of its kind (AI, secret) put back. */
function decodeTuple(tuple: unknown[], issueType: IssueType, str: (i: unknown) => string | undefined, interner: StringInterner): Finding | undefined {
  const ai = Array.isArray(tuple[17]) ? (tuple[17] as unknown[]) : undefined;
  const secret = Array.isArray(tuple[18]) ? (tuple[18] as unknown[]) : undefined;
  const wire = toWire(tuple, str);
  const finding = decodeFinding(ai ? { ...wire, ai_impact: str(ai[0]) } : wire, issueType === 'sca' ? 'sca' : ai ? 'ai_sast' : 'sast', interner);
  if (!finding || issueType !== 'secrets') return finding;
  const service = str(secret?.[0]);
  const validation = str(secret?.[1]);
  if (service === undefined || validation === undefined) return undefined;
  return { ...finding, issueType, secret: { service: interner.intern(service), validation: interner.intern(validation) } };
}

function decodeQuery(raw: unknown): FindingsQuery | undefined {
  if (!isObject(raw) || typeof raw.deploymentSlug !== 'string' || !isObject(raw.filters)) return undefined;
  const issueType = raw.issueType;
  if (issueType !== 'sast' && issueType !== 'sca' && issueType !== 'secrets') return undefined;
  return { deploymentSlug: raw.deploymentSlug, issueType: issueType, filters: raw.filters };
}

/** A tuple back in the platform's own shape, so the platform decoder checks and interns it. */
function toWire(t: readonly unknown[], str: (i: unknown) => string | undefined): Record<string, unknown> {
  const range = (r: unknown): Record<string, unknown> | undefined => {
    if (!Array.isArray(r)) return undefined;
    const [path, line, column, endLine, endColumn] = r as unknown[];
    return { file_path: str(path), line, column: column || undefined, end_line: endLine || undefined, end_column: endColumn || undefined };
  };
  const policy = Array.isArray(t[12]) ? (t[12] as unknown[]) : undefined;
  const sca = Array.isArray(t[13]) ? (t[13] as unknown[]) : undefined;
  const since = t[9];
  const ticket = Array.isArray(t[16]) ? (t[16] as unknown[]) : undefined;
  return {
    id: t[0], rule_name: str(t[1]), rule_message: str(t[2]), severity: str(t[3]), confidence: str(t[4]), status: str(t[5]),
    ref: str(t[6]), repository: { name: str(t[7]) }, line_of_code_url: str(t[8]),
    relevant_since: typeof since === 'number' && since > 0 ? new Date(since).toISOString() : undefined,
    triage_reason: str(t[10]), location: range(t[11]), triage_comment: str(t[15]),
    external_ticket: ticket ? { external_slug: str(ticket[0]), url: str(ticket[1]) } : undefined,
    sourcing_policy: policy ? { id: policy[0], name: str(policy[1]), slug: str(policy[2]) } : undefined,
    ...(sca ? {
      vulnerability_identifier: str(sca[0]), reachability: str(sca[5]), is_malicious: sca[6] === 1,
      found_dependency: { package: str(sca[1]), version: str(sca[2]), ecosystem: str(sca[3]), transitivity: str(sca[4]), lockfile_line_url: str(sca[8]) },
      fix_recommendations: Array.isArray(sca[7]) ? (sca[7] as unknown[]).map((v) => ({ version: str(v) })) : undefined,
      usage: range(sca[9]) ? { location: { ...range(sca[9]) } } : undefined,
    } : {}),
  };
}
