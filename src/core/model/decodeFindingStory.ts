/**
 * The single-finding call's answer (API v2; docs/platform-api.md, "One finding's story and its
 * fix"). It is protobuf JSON, so camelCase, with 64-bit numbers and line numbers as strings,
 * enumerations by their full names and members at their default left out; snake_case keys and
 * plain numbers are read too. A member that is missing is absent; one that cannot be read is
 * left out and counted, and the rest of the story is kept.
 */
import { PlatformError } from './errors';
import { asObject, readBoolean, readIdString, readSafeInteger, readString, readTimestamp, type JsonObject } from './decodeRead';
import { ACTIVITY_KIND_OF, type ActivityEntry, type CodeOwner, type Elsewhere, type FindingStory, type TraceRole, type TraceStep } from './finding-story';

/** Counts what could not be read. */
interface Tally {
  skipped: number;
}

export function decodeFindingStory(body: unknown): FindingStory {
  const top = asObject(body);
  if (!top)
    throw new PlatformError('invalidResponse', "The platform's answer for the finding's story is not an object; report it with the log (AppSec: Show Logs).");
  // The issue itself, or (tolerated) wrapped in an `issue` member.
  const o = asObject(top.issue) ?? top;
  const tally: Tally = { skipped: 0 };
  const fixUrl = scalar(o, 'clickToFixPrUrl', readString, tally);
  const fixId = scalar(o, 'clickToFixPrId', readIdString, tally);
  return {
    ...optional('id', scalar(o, 'id', readSafeInteger, tally)),
    ...optional('trace', readTrace(field(o, 'dataflowTrace'), tally)),
    ...optional('elsewhere', list(o, 'relatedIssues', readElsewhere, tally)),
    ...optional('activity', list(o, 'activityHistory', readActivity, tally)),
    ...optional('isBlocking', scalar(o, 'isBlocking', readBoolean, tally)),
    ...optional('codeOwners', list(o, field(o, 'codeowners') === undefined ? 'codeOwners' : 'codeowners', readOwner, tally)),
    ...optional('triagePermission', scalar(o, 'triagePermission', enumWord('TRIAGE_PERMISSION_'), tally)),
    ...optional('exceptionState', scalar(o, 'exceptionState', enumWord('FINDING_EXCEPTION_REQUEST_STATE_'), tally)),
    ...(fixUrl !== undefined || fixId !== undefined ? { fixPullRequest: { ...optional('url', fixUrl), ...optional('id', fixId) } } : {}),
    ...optional('commitUrl', scalar(o, 'commitUrl', readString, tally)),
    ...optional('firstDetectedAt', scalar(o, 'firstDetectedAt', readTimestamp, tally)),
    ...optional('ruleDisplayName', scalar(o, 'ruleDisplayName', readString, tally)),
    ...optional('codeSnippets', list(o, 'codeSnippets', readSnippet, tally)),
    skipped: tally.skipped,
  };
}

/** `{ [key]: value }`, or nothing when the value is absent, so absent members stay absent. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The member in camelCase or in snake_case; `null` is no value. */
function field(o: JsonObject, camel: string): unknown {
  const value = o[camel] ?? o[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
  return value === null ? undefined : value;
}

/** A scalar member; one sent but unreadable is counted. */
function scalar<T>(o: JsonObject, camel: string, read: (raw: unknown) => T | undefined, tally: Tally): T | undefined {
  const raw = field(o, camel);
  if (raw === undefined) return undefined;
  const value = read(raw);
  // An empty string is how protobuf JSON says "none": absent, not malformed.
  if (value === undefined && raw !== '') tally.skipped++;
  return value;
}

/** A list member: each entry read on its own, the unreadable ones counted. */
function list<T>(o: JsonObject, camel: string, read: (raw: unknown) => T | undefined, tally: Tally): T[] | undefined {
  return entries(field(o, camel), read, tally);
}

function entries<T>(raw: unknown, read: (raw: unknown) => T | undefined, tally: Tally): T[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    tally.skipped++;
    return undefined;
  }
  const out: T[] = [];
  for (const item of raw as unknown[]) {
    const value = read(item);
    if (value === undefined) tally.skipped++;
    else out.push(value);
  }
  return out;
}

/** `PREFIX_SOME_VALUE` read as `some_value`; a value without the prefix is kept, lower-cased. */
function enumWord(prefix: string): (raw: unknown) => string | undefined {
  return (raw) => {
    const text = readString(raw);
    if (text === undefined) return undefined;
    return (text.startsWith(prefix) ? text.slice(prefix.length) : text).toLowerCase();
  };
}

/** A positive whole number from a number or a string of digits (protobuf sends lines as strings). */
function positive(raw: unknown): number | undefined {
  const n = readSafeInteger(raw);
  return n !== undefined && n > 0 ? n : undefined;
}

function nonNegative(raw: unknown): number | undefined {
  const n = readSafeInteger(raw);
  return n !== undefined && n >= 0 ? n : undefined;
}

const TRACE_PARTS: readonly (readonly [string, TraceRole])[] = [
  ['taintSource', 'source'],
  ['intermediateVars', 'step'],
  ['taintSink', 'sink'],
];

function readTrace(raw: unknown, tally: Tally): TraceStep[] | undefined {
  if (raw === undefined) return undefined;
  const trace = asObject(raw);
  if (!trace) {
    tally.skipped++;
    return undefined;
  }
  return TRACE_PARTS.flatMap(([camel, role]) => list(trace, camel, (item) => readStep(item, role), tally) ?? []);
}

/**
 * One place: `{ path, start: { line, col, offset }, end, locationUrl, content }`, or the same
 * wrapped as `{ location, content }`. A place without a path or a start line, or whose end is
 * before its start, cannot be shown and is left out.
 */
function readStep(raw: unknown, role: TraceRole): TraceStep | undefined {
  const outer = asObject(raw);
  const loc = asObject(outer?.location) ?? outer;
  if (!outer || !loc) return undefined;
  const filePath = readString(field(loc, 'path')) ?? readString(field(loc, 'filePath'));
  const start = asObject(field(loc, 'start'));
  const end = asObject(field(loc, 'end'));
  const line = positive(start && field(start, 'line'));
  if (!filePath || !start || line === undefined) return undefined;
  const column = positive(field(start, 'col'));
  const endLine = end ? positive(field(end, 'line')) : undefined;
  const endColumn = end ? positive(field(end, 'col')) : undefined;
  if (endLine !== undefined && (endLine < line || (endLine === line && column !== undefined && endColumn !== undefined && endColumn < column)))
    return undefined;
  const startOffset = nonNegative(field(start, 'offset'));
  const endOffset = end ? nonNegative(field(end, 'offset')) : undefined;
  const content = typeof outer.content === 'string' ? outer.content : typeof loc.content === 'string' ? loc.content : undefined;
  return {
    role,
    range: {
      filePath,
      line,
      ...optional('column', column),
      ...optional('endLine', endLine),
      ...optional('endColumn', endLine === undefined ? undefined : endColumn),
    },
    ...optional('startOffset', startOffset),
    ...optional('endOffset', endOffset),
    ...optional('content', content),
    ...optional('locationUrl', readString(field(loc, 'locationUrl')) ?? readString(field(outer, 'locationUrl'))),
  };
}

function readElsewhere(raw: unknown): Elsewhere | undefined {
  const o = asObject(raw);
  const id = o && readSafeInteger(field(o, 'id'));
  if (!o || id === undefined) return undefined;
  return {
    id,
    ...optional('ref', readString(field(o, 'ref'))),
    ...optional('pullRequestId', readIdString(field(o, 'pullRequestId'))),
    ...optional('state', enumWord('AGGREGATE_ISSUE_STATE_')(field(o, 'aggregateState'))),
    ...optional('createdAt', readTimestamp(field(o, 'createdAt'))),
  };
}

function readActivity(raw: unknown): ActivityEntry | undefined {
  const o = asObject(raw);
  if (!o) return undefined;
  const type = readString(field(o, 'historyType'));
  const name = type?.toUpperCase().replace(/^HISTORY_TYPE_/, '');
  const kind = name !== undefined && Object.hasOwn(ACTIVITY_KIND_OF, name) ? ACTIVITY_KIND_OF[name as keyof typeof ACTIVITY_KIND_OF] : 'other';
  return {
    kind,
    ...optional('rawType', kind === 'other' ? type : undefined),
    ...optional('date', readTimestamp(field(o, 'date'))),
    ...optional('title', readString(field(o, 'title'))),
    ...optional('triageReason', enumWord('TRIAGE_REASON_')(field(o, 'triageReason'))),
    ...optional('note', readString(field(o, 'note'))),
    ...optional('actor', readActor(field(o, 'actor'))),
  };
}

/** A name, or a person or team object that names itself. */
function readActor(raw: unknown): string | undefined {
  const o = asObject(raw);
  return o ? (readString(o.name) ?? readString(field(o, 'displayName')) ?? readString(o.login) ?? readString(o.email)) : readString(raw);
}

function readOwner(raw: unknown): CodeOwner | undefined {
  const o = asObject(raw);
  const name = o && readString(field(o, 'name'));
  if (!o || !name) return undefined;
  return { ...optional('id', readIdString(field(o, 'id'))), name, isTeam: readBoolean(field(o, 'isTeam')) ?? false };
}

/** A snippet without `content` is an empty one: protobuf JSON leaves out empty strings. */
function readSnippet(raw: unknown): { path: string; content: string } | undefined {
  const o = asObject(raw);
  const path = o && readString(field(o, 'path'));
  const content = o ? (field(o, 'content') ?? '') : undefined;
  return path && typeof content === 'string' ? { path, content } : undefined;
}
