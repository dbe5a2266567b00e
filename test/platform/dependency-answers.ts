/**
 * The inventory's three lists (docs/platform-api.md, "Dependencies"): POSTs whose JSON body holds
 * `pageSize` (or `page_size`), `cursor` and `dependencyFilter` (either spelling throughout). Each
 * list pages by a keyset cursor of its own type, as the service's reference shows: the
 * repositories list answers a number, the lockfiles list an opaque string, the dependencies list
 * an int64 as a string. The service's shape is camelCase with lines as strings and proto3's
 * habit of leaving out `false`, zero and empty values (so the last page has neither `hasMore`
 * nor `cursor`); the spec's shape is snake_case with numbers, and always says `has_more`.
 */
import { inventoryOf, lineUrl, type DependencyInventory, type StoredDependency } from './dependencies';
import { parseDependencyFilter, selectDependencies } from './dependency-filter';
import { QueryError } from './query-params';
import { error, json, type PlatformResponse } from './respond';
import type { AnswerShape } from './service-shape';
import type { PlatformData } from './types';

export type InventoryList = 'repositories' | 'lockfiles' | 'dependencies';

export interface InventoryAnswers {
  shape: AnswerShape;
  /** At most this many items per page, whatever is asked. */
  maxPageSize: number | undefined;
}

const DEFAULT_PAGE_SIZE = 1000;
const MAX_PAGE_SIZE = 10_000;

/** Answers one list; `repositoryId` is the lockfiles list's path segment. */
export function answerInventory(
  list: InventoryList,
  data: PlatformData,
  rawBody: string | undefined,
  answers: InventoryAnswers,
  repositoryId?: string,
): PlatformResponse {
  try {
    const body = readBody(rawBody);
    const asked = body.pageSize ?? body.page_size ?? DEFAULT_PAGE_SIZE;
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1 || asked > MAX_PAGE_SIZE)
      throw new QueryError(`pageSize must be 1..${MAX_PAGE_SIZE}`);
    const pageSize = answers.maxPageSize === undefined ? asked : Math.min(asked, answers.maxPageSize);
    const inventory = inventoryOf(data);
    const filter = parseDependencyFilter(body.dependencyFilter ?? body.dependency_filter);
    const selected = selectDependencies(inventory, filter);
    if (list === 'dependencies') return dependenciesPage(selected, body.cursor, pageSize, answers.shape);
    if (list === 'lockfiles')
      return lockfilesPage(
        selected.filter((d) => String(d.repositoryId) === repositoryId),
        body.cursor,
        pageSize,
        answers.shape,
      );
    return repositoriesPage(data, inventory, selected, body.cursor, pageSize, answers.shape);
  } catch (e) {
    if (e instanceof QueryError) return error(400, e.message);
    throw e;
  }
}

function readBody(rawBody: string | undefined): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody ?? '{}');
  } catch {
    throw new QueryError('the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new QueryError('the body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** A numeric cursor, as a JSON number or a digit string (proto3 JSON takes both); 0 or absent is the start. */
function numericCursor(value: unknown): number {
  if (value === undefined || value === null || value === '' || value === 0) return 0;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0) throw new QueryError('invalid cursor');
  return n;
}

function pageOf<T>(items: readonly T[], after: (item: T) => boolean, pageSize: number): { page: T[]; hasMore: boolean } {
  const start = items.findIndex(after);
  if (start < 0) return { page: [], hasMore: false };
  return { page: items.slice(start, start + pageSize), hasMore: start + pageSize < items.length };
}

/** The envelope's paging fields: the spec's shape always, the service's only when not a default. */
function paging(shape: AnswerShape, cursor: number | string | undefined, hasMore: boolean): Record<string, unknown> {
  if (shape === 'spec') return { ...(cursor === undefined ? {} : { cursor }), has_more: hasMore };
  return hasMore ? { cursor, hasMore: true } : {};
}

function repositoriesPage(
  data: PlatformData,
  inventory: DependencyInventory,
  selected: readonly StoredDependency[],
  cursor: unknown,
  pageSize: number,
  shape: AnswerShape,
): PlatformResponse {
  const counts = new Map<number, number>();
  for (const d of selected) counts.set(d.repositoryId, (counts.get(d.repositoryId) ?? 0) + 1);
  const projects = data.projects.filter((p) => counts.has(p.repository_id)).sort((a, b) => a.repository_id - b.repository_id);
  const afterId = numericCursor(cursor);
  const { page, hasMore } = pageOf(projects, (p) => p.repository_id > afterId, pageSize);
  const last = page[page.length - 1]?.repository_id;
  const items = page.map((p) => {
    const paths = inventory.withPaths.has(p.repository_id);
    const count = counts.get(p.repository_id) ?? 0;
    return shape === 'spec'
      ? { id: String(p.repository_id), name: p.name, num_dependencies: count, has_dependency_path_scan: paths }
      : { id: p.repository_id, name: p.name, numDependencies: count, ...(paths ? { hasDependencyPathScan: true } : {}) };
  });
  return json(200, { [shape === 'spec' ? 'repository_summaries' : 'repositorySummaries']: items, ...paging(shape, last, hasMore) });
}

function lockfilesPage(selected: readonly StoredDependency[], cursor: unknown, pageSize: number, shape: AnswerShape): PlatformResponse {
  const counts = new Map<string, number>();
  for (const d of selected) counts.set(d.lockfile, (counts.get(d.lockfile) ?? 0) + 1);
  const paths = [...counts.keys()].sort();
  const after = lockfileCursor(cursor);
  const { page, hasMore } = pageOf(paths, (p) => after === undefined || p > after, pageSize);
  const last = page[page.length - 1];
  const items = page.map((path) =>
    shape === 'spec' ? { lockfile_path: path, num_dependencies: counts.get(path) } : { lockfilePath: path, numDependencies: counts.get(path) },
  );
  const next = last === undefined ? undefined : Buffer.from(`after:${last}`, 'utf8').toString('base64url');
  return json(200, { [shape === 'spec' ? 'lockfile_summaries' : 'lockfileSummaries']: items, ...paging(shape, next, hasMore) });
}

/** The lockfiles list's cursor: opaque text (base64url of the last path sent). */
function lockfileCursor(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').toString('utf8') : '';
  if (!text.startsWith('after:')) throw new QueryError('invalid cursor');
  return text.slice('after:'.length);
}

function dependenciesPage(selected: readonly StoredDependency[], cursor: unknown, pageSize: number, shape: AnswerShape): PlatformResponse {
  const afterId = numericCursor(cursor);
  const { page, hasMore } = pageOf(selected, (d) => d.id > afterId, pageSize);
  const last = page[page.length - 1]?.id;
  return json(200, { dependencies: page.map((d) => dependencyJson(d, shape)), ...paging(shape, last === undefined ? undefined : String(last), hasMore) });
}

const WIRE_TRANSITIVITY = { direct: 'DIRECT', transitive: 'TRANSITIVE', unknown: 'UNKNOWN_TRANSITIVITY' } as const;

/**
 * One FoundDependency. The service's: camelCase, `DIRECT`/`TRANSITIVE`/`UNKNOWN_TRANSITIVITY`,
 * lines and columns as strings. The spec's: snake_case, lower-case transitivity, numbers.
 */
export function dependencyJson(d: StoredDependency, shape: AnswerShape): Record<string, unknown> {
  const width = d.name.length + d.version.length + 4;
  if (shape === 'spec') {
    return {
      repository_id: String(d.repositoryId),
      ecosystem: d.ecosystem,
      package: { name: d.name, version_specifier: d.version },
      transitivity: d.transitivity,
      licenses: d.licenses,
      resolved_url: d.resolvedUrl,
      defined_at: {
        path: d.lockfile,
        start_line: d.line,
        end_line: d.endLine,
        start_col: 1,
        end_col: width,
        url: lineUrl(d, d.lockfile, d.line),
        committed_at: d.committedAt,
      },
      manifest_definition:
        d.manifestLine === undefined
          ? { path: d.manifest, url: '', committed_at: d.committedAt }
          : {
              path: d.manifest,
              start_line: d.manifestLine,
              end_line: d.manifestLine,
              url: lineUrl(d, d.manifest, d.manifestLine),
              committed_at: d.committedAt,
            },
    };
  }
  const out: Record<string, unknown> = {
    repositoryId: String(d.repositoryId),
    ecosystem: d.ecosystem,
    package: { name: d.name, versionSpecifier: d.version },
    transitivity: WIRE_TRANSITIVITY[d.transitivity],
    definedAt: {
      path: d.lockfile,
      startLine: String(d.line),
      endLine: String(d.endLine),
      startCol: '1',
      endCol: String(width),
      url: lineUrl(d, d.lockfile, d.line),
      committedAt: d.committedAt,
    },
    manifestDefinition:
      d.manifestLine === undefined
        ? { path: d.manifest, committedAt: d.committedAt }
        : {
            path: d.manifest,
            startLine: String(d.manifestLine),
            endLine: String(d.manifestLine),
            url: lineUrl(d, d.manifest, d.manifestLine),
            committedAt: d.committedAt,
          },
  };
  if (d.licenses.length > 0) out.licenses = d.licenses;
  if (d.resolvedUrl !== '') out.resolvedUrl = d.resolvedUrl;
  return out;
}
