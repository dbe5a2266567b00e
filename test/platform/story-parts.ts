/**
 * The parts of one finding's story (the v2 single-finding call) that the local platform makes up
 * from what it stores: a dataflow trace of 2–4 places inside the project's files for most code
 * findings (none for every fifth, nor for supply chain), the same finding on other refs, the
 * code's owners and its history. Made at request time, from the finding's id as seed, so the
 * same finding always tells the same story and a generated deployment of 100 000 findings costs
 * nothing more. Protobuf JSON: camelCase, 64-bit numbers and lines as strings, `false` and empty
 * lists left out.
 */
import { Rng } from './prng';
import { parseTimestamp } from './timestamps';
import type { PlatformData } from './types';
import type { WireSastFinding, WireScaFinding } from './wire';

export type StoredFinding = WireSastFinding | WireScaFinding;

export interface WirePosition {
  line: string;
  col: string;
  offset?: string;
}
export interface WireStoryLoc {
  path: string;
  start: WirePosition;
  end: WirePosition;
  locationUrl?: string;
  content?: string;
}
export interface WireTrace {
  taintSource?: WireStoryLoc[];
  intermediateVars?: WireStoryLoc[];
  taintSink?: WireStoryLoc[];
}
export interface WireRelatedIssue {
  id: string;
  ref?: string;
  pullRequestId?: string;
  aggregateState: string;
  createdAt?: string;
}
export interface WireHistoryEntry {
  date: string;
  title: string;
  historyType: string;
  triageReason?: string;
  note?: string;
  actor?: string;
}
export interface WireCodeOwner {
  id: string;
  name: string;
  isTeam?: true;
}

/** The trace's places as `[path, line, column, endLine, endColumn]`, source first. */
type Place = [string, number, number, number, number];

/** An ISO timestamp of a stored one (either shape), or undefined. */
export function iso(stored: string | undefined): string | undefined {
  const ms = parseTimestamp(stored);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function locationOf(f: StoredFinding): { path: string; line: number; column: number; endLine: number; endColumn: number } | undefined {
  const l = f.location;
  const path = l?.filePath ?? l?.file_path;
  if (!l || !path || l.line === undefined) return undefined;
  const column = l.column ?? 1;
  const endLine = l.endLine ?? l.end_line ?? l.line;
  return { path, line: l.line, column, endLine, endColumn: l.endColumn ?? l.end_column ?? column + 1 };
}

/** The link to a line of `path` at the finding's commit, made from its own `line_of_code_url`. */
export function lineUrl(f: StoredFinding, path: string, line: number): string | undefined {
  const own = locationOf(f);
  const url = f.line_of_code_url;
  const tail = own ? `${own.path}#L${own.line}` : undefined;
  return url && tail && url.endsWith(tail) ? `${url.slice(0, url.length - tail.length)}${path}#L${line}` : undefined;
}

const SYNTHETIC: Record<string, readonly [string, string, string]> = {
  py: ['user_input = request.args.get("q")', 'value = user_input.strip()', 'run(value)'],
  go: ['input := r.URL.Query().Get("q")', 'value := strings.TrimSpace(input)', 'run(value)'],
  java: ['String input = request.getParameter("q");', 'String value = input.trim();', 'run(value);'],
  js: ['const input = req.query.q;', 'const value = String(input).trim();', 'run(value);'],
};

function syntheticLine(path: string, role: 0 | 1 | 2): string {
  const ext = path.slice(path.lastIndexOf('.') + 1);
  return (SYNTHETIC[ext === 'ts' || ext === 'tsx' ? 'js' : ext] ?? SYNTHETIC.js)[role];
}

/**
 * A trace ending at the finding's own range: the source and the variables above it in the same
 * file (the source, now and then, in another file of the project). With the file's code known,
 * each place is a real non-blank line, quoted, with its offsets.
 */
export function traceOf(data: PlatformData, f: StoredFinding, withCode: boolean): WireTrace | undefined {
  const sink = locationOf(f);
  if ('vulnerability_identifier' in f || f.id === undefined || f.id % 5 === 0 || !sink) return undefined;
  const rng = new Rng(f.id);
  const files = data.sourceFiles?.get(f.repository?.name ?? '');
  const text = files?.[sink.path];
  const lines = text?.split('\n');
  const count = rng.int(2, 4);
  const sinkPlace: Place = [sink.path, sink.line, sink.column, sink.endLine, sink.endColumn];
  const places: Place[] = lines ? placesInCode(lines, sinkPlace, count) : [sinkPlace];
  let at = sink.line;
  while (!lines && places.length < count && at > 1) {
    at = Math.max(1, at - rng.int(1, 4));
    const code = syntheticLine(sink.path, places.length === count - 1 ? 0 : 1);
    places.unshift([sink.path, at, 5, at, 5 + code.length]);
  }
  const others = files
    ? []
    : [...new Set(data.sast.filter((o) => o.repository?.name === f.repository?.name).map((o) => locationOf(o)?.path))].filter(
        (p): p is string => p !== undefined && p !== sink.path,
      );
  if (places.length > 1 && others.length > 0 && rng.chance(0.3)) {
    const path = rng.pick(others);
    const line = rng.int(1, 120);
    places[0] = [path, line, 5, line, 5 + syntheticLine(path, 0).length];
  }
  const loc = (place: Place, role: 0 | 1 | 2): WireStoryLoc => {
    const [path, line, col, endLine, endCol] = place;
    const code = files?.[path]?.split('\n');
    const startOffset = code ? offsetOf(code, line, col) : undefined;
    const content = code ? code.slice(line - 1, endLine).join('\n') : role === 2 ? undefined : syntheticLine(path, role);
    return {
      path,
      start: { line: String(line), col: String(col), ...(startOffset === undefined ? {} : { offset: String(startOffset) }) },
      end: { line: String(endLine), col: String(endCol), ...(code ? { offset: String(offsetOf(code, endLine, endCol)) } : {}) },
      ...optionalText('locationUrl', lineUrl(f, path, line)),
      ...(withCode ? optionalText('content', content) : {}),
    };
  };
  const middle = places.slice(1, -1);
  return {
    taintSource: [loc(places[0], 0)],
    ...(middle.length > 0 ? { intermediateVars: middle.map((p) => loc(p, 1)) } : {}),
    taintSink: [loc(places[places.length - 1], 2)],
  };
}

/**
 * Places inside the sink's own function, with the code known: its header (the least indented
 * line above, which names the request) as the source, and lines of its body between as steps.
 */
function placesInCode(lines: readonly string[], sink: Place, count: number): Place[] {
  const indent = (text: string): number => text.length - text.trimStart().length;
  const place = (line: number): Place => {
    const text = lines[line - 1] ?? '';
    return [sink[0], line, indent(text) + 1, line, text.trimEnd().length + 1];
  };
  const depth = indent(lines[sink[1] - 1] ?? '');
  const body: number[] = [];
  let line = sink[1] - 1;
  for (; line >= 1; line--) {
    const text = lines[line - 1] ?? '';
    if (text.trim() === '') continue;
    if (indent(text) < depth) break;
    body.push(line);
  }
  const source = line >= 1 ? line : body.pop();
  if (source === undefined) return [sink];
  return [
    place(source),
    ...body
      .slice(0, Math.max(0, count - 2))
      .reverse()
      .map(place),
    sink,
  ];
}

function offsetOf(lines: readonly string[], line: number, col: number): number {
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += (lines[i]?.length ?? 0) + 1;
  return offset + col - 1;
}

function optionalText<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}

const AGGREGATE: Record<string, string> = {
  open: 'OPEN',
  fixed: 'FIXED',
  ignored: 'IGNORED_APP',
  reviewing: 'REVIEWING',
  fixing: 'FIXING',
  provisionally_ignored: 'PROVISIONALLY_IGNORED_APP',
};

/** The same finding (same `match_based_id`, same repository) on the project's other refs. */
export function elsewhereOf(data: PlatformData, f: StoredFinding): WireRelatedIssue[] {
  const list: StoredFinding[] = 'vulnerability_identifier' in f ? data.sca : [...data.sast, ...data.ai_sast];
  const primary = data.projects.find((p) => p.name === f.repository?.name)?.primary_branch;
  return list
    .filter((o) => o !== f && o.match_based_id === f.match_based_id && o.repository?.name === f.repository?.name && o.id !== undefined)
    .map((o) => ({
      id: String(o.id),
      ...optionalText('ref', o.ref),
      ...optionalText('pullRequestId', pullRequestOf(o.ref, primary)),
      aggregateState: `AGGREGATE_ISSUE_STATE_${AGGREGATE[o.status ?? ''] ?? 'UNKNOWN'}`,
      ...optionalText('createdAt', iso(o.created_at)),
    }));
}

/** A pull request's number from its ref, or one made up for a branch other than the primary. */
function pullRequestOf(ref: string | undefined, primary: string | undefined): string | undefined {
  const pull = /^refs\/pull\/(\d+)\//.exec(ref ?? '')?.[1];
  if (pull) return pull;
  if (!ref || ref === primary) return undefined;
  let h = 7;
  for (const ch of ref) h = (h * 31 + ch.charCodeAt(0)) % 100_000;
  return String(100 + (h % 900));
}

/** The team that owns the finding's folder, and now and then a person too; every eleventh finding has none. */
export function ownersOf(deploymentSlug: string, f: StoredFinding): WireCodeOwner[] {
  const path = locationOf(f)?.path;
  if (!path || f.id === undefined || f.id % 11 === 0) return [];
  const folder = path.split('/').slice(0, -1).pop() ?? 'root';
  const team: WireCodeOwner = { id: String(500 + folder.length), name: `${deploymentSlug}/${folder}-maintainers`, isTeam: true };
  return f.id % 3 === 0 ? [team, { id: String(9000 + (f.id % 97)), name: 'Dana Whitfield' }] : [team];
}
