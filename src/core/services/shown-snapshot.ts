/**
 * What Problems showed, written compactly and read back, so a start draws every diagnostic
 * before reading (decoding, planning) the findings behind them: that reading costs about as much
 * again as drawing them (docs/performance.md, "Cached start"). Pure: the editor side turns these records into
 * diagnostics and back (`diagnostics/shown-diagnostics.ts`).
 *
 * The text is lines of JSON: a head with the table of the strings used and the number of
 * segments, then the segments, each the files of a few thousand diagnostics with their
 * diagnostics as flat numbers ({@link STRIDE} per diagnostic, string fields as indexes into the
 * table, -1 for none). A segment is parsed and built in a turn of its own. Links that end in a number (a finding's page) are kept as a shared prefix plus that
 * number. Reading checks every index and number and gives undefined for anything of another
 * version or broken, never throws: the start then reads the findings as before.
 */
import { splitTrailingId } from '../model/links';
import { runInSlices, type Slices } from '../slices';
import { StringTable } from './findings-snapshot';

export const SHOWN_FORMAT = 'appsec-findings/shown';
/** 2: a head line with the string table, then a line per segment of diagnostics (1 was one document). */
export const SHOWN_VERSION = 2;

/** A range as four 0-based numbers: start line, start character, end line, end character. */
export type ShownRange = readonly [number, number, number, number];

/** One diagnostic as Problems showed it. */
export interface ShownDiagnostic {
  readonly range: ShownRange;
  /** VS Code's DiagnosticSeverity: 0 error … 3 hint. */
  readonly severity: number;
  readonly message: string;
  readonly code: string;
  /** The code's link (the finding's page), when it has one. */
  readonly target?: string;
  readonly related?: { readonly uri: string; readonly range: ShownRange; readonly message: string };
}

/** The files shown (their URIs as strings) with their diagnostics, each described as a record when encoded. */
export type ShownFiles<T> = readonly (readonly [string, readonly T[]])[];

/**
 * Numbers per diagnostic: range (4), severity, message, code, link prefix, link number, related
 * URI, related range (4), related message.
 */
const STRIDE = 15;
/** Diagnostics per segment, encoded or parsed and built per slice: a few milliseconds each. */
const SLICE = 4000;

/** The snapshot as text, encoded in slices with a turn of the event loop between them. */
export function encodeShownInSlices<T>(files: ShownFiles<T>, describe: (item: T) => ShownDiagnostic): Promise<string> {
  return runInSlices(encodeSteps(files, describe));
}

function* encodeSteps<T>(files: ShownFiles<T>, describe: (item: T) => ShownDiagnostic): Slices<string> {
  const table = new StringTable();
  const segments: string[] = [];
  let segment: [number, number[]][] = [];
  let inSegment = 0;
  for (const [uri, diagnostics] of files) {
    const numbers: number[] = [];
    for (const item of diagnostics) {
      const d = describe(item);
      const link = d.target === undefined ? undefined : splitTrailingId(d.target);
      const prefix = d.target === undefined ? -1 : table.put(link ? link.prefix : d.target);
      const related = d.related;
      numbers.push(
        ...d.range,
        d.severity,
        table.put(d.message),
        table.put(d.code),
        prefix,
        link ? link.id : -1,
        related ? table.put(related.uri) : -1,
        ...(related?.range ?? [-1, -1, -1, -1]),
        related ? table.put(related.message) : -1,
      );
    }
    segment.push([table.put(uri), numbers]);
    inSegment += diagnostics.length;
    if (inSegment >= SLICE) {
      segments.push(JSON.stringify(segment));
      segment = [];
      inSegment = 0;
      yield;
    }
  }
  if (segment.length > 0) segments.push(JSON.stringify(segment));
  const head = JSON.stringify({ format: SHOWN_FORMAT, version: SHOWN_VERSION, segments: segments.length, strings: table.strings });
  return [head, ...segments].join('\n');
}

/** What a reader builds from the records, one file at a time (the editor side builds diagnostics). */
export interface ShownReader<F, D> {
  diagnostic(record: ShownDiagnostic): D;
  file(uri: string, diagnostics: D[]): F;
}

/**
 * Reads a snapshot into the reader's files, in slices; undefined when it is of another version
 * or broken in any way (nothing half-read is returned).
 */
export function decodeShownInSlices<F, D>(text: string, reader: ShownReader<F, D>): Promise<F[] | undefined> {
  return runInSlices(decodeSteps(text, reader));
}

function* decodeSteps<F, D>(text: string, reader: ShownReader<F, D>): Slices<F[] | undefined> {
  const lines = text.split('\n');
  const head = parsed(lines[0]);
  if (!isRecord(head) || head.format !== SHOWN_FORMAT || head.version !== SHOWN_VERSION || head.segments !== lines.length - 1) return undefined;
  const { strings } = head;
  if (!Array.isArray(strings) || !strings.every((s) => typeof s === 'string')) return undefined;
  const str = (i: number): string | undefined => (i >= 0 && i < strings.length ? strings[i] : undefined);
  const out: F[] = [];
  for (const line of lines.slice(1)) {
    // A segment per turn: its parse and its diagnostics built (one parse of the whole was a stall).
    yield;
    const files = parsed(line);
    if (!Array.isArray(files)) return undefined;
    for (const file of files) {
      if (!Array.isArray(file) || file.length !== 2) return undefined;
      const [uriAt, numbers] = file as [unknown, unknown];
      const uri = typeof uriAt === 'number' ? str(uriAt) : undefined;
      if (uri === undefined || !Array.isArray(numbers) || numbers.length % STRIDE !== 0) return undefined;
      const diagnostics: D[] = [];
      for (let at = 0; at < numbers.length; at += STRIDE) {
        const record = recordAt(numbers as unknown[], at, str);
        if (!record) return undefined;
        diagnostics.push(reader.diagnostic(record));
      }
      out.push(reader.file(uri, diagnostics));
    }
  }
  return out;
}

function parsed(line: string | undefined): unknown {
  try {
    return line === undefined ? undefined : (JSON.parse(line) as unknown);
  } catch {
    return undefined;
  }
}

/** One diagnostic's numbers, checked; undefined when any is out of place. */
function recordAt(n: readonly unknown[], at: number, str: (i: number) => string | undefined): ShownDiagnostic | undefined {
  for (let i = at; i < at + STRIDE; i++) if (!Number.isSafeInteger(n[i]) || (n[i] as number) < -1) return undefined;
  const v = n as readonly number[];
  const range = rangeAt(v, at);
  const message = str(v[at + 5]);
  const code = str(v[at + 6]);
  if (!range || v[at + 4] < 0 || v[at + 4] > 3 || message === undefined || code === undefined) return undefined;
  let target: string | undefined;
  if (v[at + 7] !== -1) {
    const prefix = str(v[at + 7]);
    if (prefix === undefined) return undefined;
    target = v[at + 8] === -1 ? prefix : prefix + String(v[at + 8]);
  }
  let related: ShownDiagnostic['related'];
  if (v[at + 9] !== -1) {
    const relatedUri = str(v[at + 9]);
    const relatedRange = rangeAt(v, at + 10);
    const relatedMessage = str(v[at + 14]);
    if (relatedUri === undefined || !relatedRange || relatedMessage === undefined) return undefined;
    related = { uri: relatedUri, range: relatedRange, message: relatedMessage };
  }
  return { range, severity: v[at + 4], message, code, ...(target !== undefined ? { target } : {}), ...(related ? { related } : {}) };
}

function rangeAt(v: readonly number[], at: number): ShownRange | undefined {
  const range: ShownRange = [v[at], v[at + 1], v[at + 2], v[at + 3]];
  const [sl, sc, el, ec] = range;
  if (sl < 0 || sc < 0 || el < sl || ec < 0 || (el === sl && ec < sc)) return undefined;
  return range;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
