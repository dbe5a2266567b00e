/**
 * The supply-chain inventory's three answers (docs/platform-api.md, "Dependencies"), read in
 * either spelling: the service's camelCase (`repositorySummaries`, `numDependencies`, `definedAt`,
 * `startLine` as a string) or snake_case (`repository_summaries`, `num_dependencies`, …). An entry
 * that cannot be read is skipped and counted, never thrown; an answer that is not an object is an
 * error, as passing it off as "no dependencies" would hide them all.
 */
import type { Dependency, DependencyPlace, DependencyRepository, LockfileSummary } from './dependency';
import { isObject, readBoolean, readSafeInteger, readString, type JsonObject } from './decodeRead';
import { PlatformError } from './errors';
import type { StringInterner } from './interner';
import type { Transitivity } from './types';

/** The answer's cursor: compared as text, sent back as the JSON type it came in. */
export interface DecodedCursor {
  readonly text: string;
  readonly numeric: boolean;
}

/** One page of a body-cursor list, with what the pager needs. */
export interface DecodedInventoryPage<T> {
  readonly items: T[];
  readonly skipped: number;
  readonly rawCount: number;
  readonly cursor: DecodedCursor | undefined;
  /** Undefined when the answer left it out. */
  readonly hasMore: boolean | undefined;
}

type Intern = (value: string) => string;
const same: Intern = (value) => value;
const NO_LICENSES: readonly string[] = Object.freeze([]);

/** `POST …/dependencies/repositories`. */
export function decodeRepositoriesPage(body: unknown, interner?: StringInterner): DecodedInventoryPage<DependencyRepository> {
  const intern = internOf(interner);
  return decodePage(body, 'repositories with dependencies', 'repositorySummaries', 'repository_summaries', (raw) => decodeRepository(raw, intern));
}

/** `POST …/dependencies/repositories/{id}/lockfiles`. */
export function decodeLockfilesPage(body: unknown, interner?: StringInterner): DecodedInventoryPage<LockfileSummary> {
  const intern = internOf(interner);
  return decodePage(body, 'lockfiles', 'lockfileSummaries', 'lockfile_summaries', (raw) => decodeLockfile(raw, intern));
}

/** `POST …/dependencies`. */
export function decodeDependenciesPage(body: unknown, interner?: StringInterner): DecodedInventoryPage<Dependency> {
  const intern = internOf(interner);
  return decodePage(body, 'dependencies', 'dependencies', 'dependencies', (raw) => readDependency(raw, intern, interner));
}

function decodePage<T>(body: unknown, what: string, camel: string, snake: string, decode: (raw: unknown) => T | undefined): DecodedInventoryPage<T> {
  if (!isObject(body)) {
    const kind = Array.isArray(body) ? 'a list' : body === null ? 'null' : `a ${typeof body}`;
    throw new PlatformError(
      'invalidResponse',
      `The platform's answer for the ${what} is ${kind}, not an object with a "${camel}" list. If the platform changed its answer, report it with the log (AppSec: Show Logs).`,
    );
  }
  // Protobuf-style JSON leaves an empty list out: absent is an empty page.
  const list = body[camel] ?? body[snake] ?? [];
  if (!Array.isArray(list)) {
    throw new PlatformError('invalidResponse', `The platform's answer for the ${what} has "${camel}" that is not a list.`);
  }
  const items: T[] = [];
  for (const raw of list as unknown[]) {
    const item = decode(raw);
    if (item !== undefined) items.push(item);
  }
  return {
    items,
    skipped: list.length - items.length,
    rawCount: list.length,
    cursor: readCursor(body.cursor),
    hasMore: readBoolean(body.hasMore ?? body.has_more),
  };
}

/** A number or a string; absent or empty is none ("0" is a cursor like any other). */
function readCursor(value: unknown): DecodedCursor | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { text: String(value), numeric: true } : undefined;
  return typeof value === 'string' && value !== '' ? { text: value, numeric: false } : undefined;
}

function decodeRepository(raw: unknown, intern: Intern): DependencyRepository | undefined {
  if (!isObject(raw)) return undefined;
  const id = readId(raw.id ?? raw.repositoryId ?? raw.repository_id);
  if (id === undefined) return undefined;
  const name = readString(raw.name);
  return {
    id: intern(id),
    name: name === undefined ? id : intern(name),
    dependencies: readCount(raw.numDependencies ?? raw.num_dependencies),
    hasDependencyPaths: readBoolean(raw.hasDependencyPathScan ?? raw.has_dependency_path_scan) ?? false,
  };
}

function decodeLockfile(raw: unknown, intern: Intern): LockfileSummary | undefined {
  if (!isObject(raw)) return undefined;
  const path = readString(raw.lockfilePath ?? raw.lockfile_path ?? raw.path);
  if (path === undefined) return undefined;
  return { path: intern(path), dependencies: readCount(raw.numDependencies ?? raw.num_dependencies) };
}

/**
 * One dependency, or undefined without a repository or a package name. Runs for every entry of
 * the inventory (100 000 and more): each field is read once, repeated strings are interned and a
 * list of licenses is shared by every dependency that has the same, and an absent optional field
 * leaves no key behind.
 */
export function decodeDependency(raw: unknown, interner?: StringInterner): Dependency | undefined {
  return readDependency(raw, internOf(interner), interner);
}

function readDependency(raw: unknown, intern: Intern, interner: StringInterner | undefined): Dependency | undefined {
  if (!isObject(raw)) return undefined;
  const repositoryId = readId(raw.repositoryId ?? raw.repository_id);
  const pkg = isObject(raw.package) ? raw.package : undefined;
  // `package.name`/`package.versionSpecifier`; top-level `name`/`version` are the older spelling.
  const name = readString(pkg?.name) ?? readString(raw.name);
  if (repositoryId === undefined || name === undefined) return undefined;
  const version = readString(pkg?.versionSpecifier) ?? readString(pkg?.version_specifier) ?? readString(pkg?.version) ?? readString(raw.version) ?? '';
  const ecosystem = readString(raw.ecosystem);
  const out: { -readonly [K in keyof Dependency]: Dependency[K] } = {
    repositoryId: intern(repositoryId),
    // No ecosystem named is a dependency outside any package manager.
    ecosystem: ecosystem === undefined ? 'no_package_manager' : intern(ecosystem.toLowerCase()),
    name: intern(name),
    version: intern(version),
    transitivity: readTransitivity(raw.transitivity, intern),
    licenses: readLicenses(raw.licenses ?? raw.license, intern, interner),
  };
  const resolvedUrl = readString(raw.resolvedUrl ?? raw.resolved_url);
  if (resolvedUrl !== undefined) out.resolvedUrl = intern(resolvedUrl);
  const definedAt = readPlace(raw.definedAt ?? raw.defined_at, intern, false);
  if (definedAt) out.definedAt = definedAt;
  const manifest = readPlace(raw.manifestDefinition ?? raw.manifest_definition, intern, true);
  if (manifest) out.manifest = interner ? sharedPlace(manifest, interner) : manifest;
  return out;
}

/**
 * A subproject's manifest is named by every one of its dependencies, mostly without a line (a
 * transitive one is declared nowhere in it): one frozen place per distinct path, lines and link.
 */
function sharedPlace(place: DependencyPlace, interner: StringInterner): DependencyPlace {
  const url = place.url ?? '';
  return interner.shared(`place:${place.line ?? 0}:${place.endLine ?? 0}:${url.length}:${url}:${place.path}`, () => place);
}

const TRANSITIVITY: Readonly<Record<string, Transitivity>> = {
  DIRECT: 'direct',
  TRANSITIVE: 'transitive',
  UNKNOWN_TRANSITIVITY: 'unknown',
  TRANSITIVITY_UNSPECIFIED: 'unknown',
  direct: 'direct',
  transitive: 'transitive',
  unknown: 'unknown',
  unknown_transitivity: 'unknown',
};

/** `DIRECT`/`direct` → `direct`, …; absent is unknown; another value is kept, lower-cased. */
function readTransitivity(value: unknown, intern: Intern): Transitivity {
  const text = readString(value);
  if (text === undefined) return 'unknown';
  return TRANSITIVITY[text] ?? intern(text.toLowerCase());
}

/** `licenses` as a list, or one `license` string; one frozen list per distinct set of licenses. */
function readLicenses(value: unknown, intern: Intern, interner: StringInterner | undefined): readonly string[] {
  const texts = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  let key = 'licenses';
  let count = 0;
  for (const item of texts as unknown[]) {
    if (typeof item === 'string' && item !== '') {
      key += `:${item.length}:${item}`;
      count++;
    }
  }
  if (count === 0) return NO_LICENSES;
  const make = (): string[] => (texts as unknown[]).filter((item): item is string => typeof item === 'string' && item !== '').map(intern);
  return interner ? interner.shared(key, make) : make();
}

/** A CodeLocation: `path`, `startLine`/`endLine` as strings or numbers, `url` ("" for none). */
function readPlace(value: unknown, intern: Intern, internUrl: boolean): DependencyPlace | undefined {
  if (!isObject(value)) return undefined;
  const path = readString(value.path);
  if (path === undefined) return undefined;
  const place: { -readonly [K in keyof DependencyPlace]: DependencyPlace[K] } = { path: intern(path) };
  const line = readLine(value, 'startLine', 'start_line');
  if (line !== undefined) place.line = line;
  const endLine = readLine(value, 'endLine', 'end_line');
  if (endLine !== undefined && (line === undefined || endLine >= line)) place.endLine = endLine;
  const url = readString(value.url);
  if (url !== undefined) place.url = internUrl ? intern(url) : url;
  return place;
}

/** A 1-based line, sent as `"12"` or `12`; anything else (0, "", "x") is none. */
function readLine(place: JsonObject, camel: string, snake: string): number | undefined {
  const line = readSafeInteger(place[camel] ?? place[snake]);
  return line !== undefined && line > 0 ? line : undefined;
}

/** How many dependencies: an integer (or a digit string), 0 when absent, as proto3 leaves a zero out. */
function readCount(value: unknown): number {
  const count = readSafeInteger(value);
  return count !== undefined && count >= 0 ? count : 0;
}

/** A repository id kept as text: a number (never rounded) or a non-empty string. */
function readId(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  return readString(value);
}

function internOf(interner: StringInterner | undefined): Intern {
  return interner ? (value) => interner.intern(value) : same;
}
