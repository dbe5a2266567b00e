/**
 * "Where else is this package used?": the rows the command, the quick pick and the agent tool
 * show, built from the platform's answers. Pure.
 */
import type { Dependency } from '../model/dependency';
import type { Transitivity } from '../model/types';
import type { Unavailable } from './kind-availability';

/** A package by name, with an exact version or bounds such as `>=2.0.0` and `<2.17.1`. */
export interface PackageQuery {
  readonly package: string;
  readonly ecosystem?: string;
  readonly version?: string;
  readonly lower?: string;
  readonly upper?: string;
}

/** One use of the package: the automation contract's row (`appsecFindings.whereUsed`). */
export interface UsageRow {
  readonly repository: string;
  readonly lockfilePath: string;
  readonly version: string;
  readonly transitivity: 'direct' | 'transitive' | 'unknown';
  readonly inRange: boolean;
  /** Not in the contract's row: for opening the place. */
  readonly repositoryId: string;
  readonly line?: number;
  readonly ecosystem: string;
}

export interface PackageUsage {
  readonly rows: readonly UsageRow[];
  readonly skipped: number;
  readonly unavailable?: Unavailable;
}

/** Identifies a package version within a repository's lockfile. */
export function dependencyKey(d: Dependency): string {
  return [d.repositoryId, d.definedAt?.path ?? '', d.ecosystem, d.name, d.version].join('\u0000');
}

function transitivityOf(t: Transitivity): UsageRow['transitivity'] {
  return t === 'direct' ? 'direct' : t === 'transitive' ? 'transitive' : 'unknown';
}

/**
 * One row per repository, lockfile and version, in range first, then by repository and lockfile.
 * `inRange` undefined: no bounds were asked, so every use is in range.
 */
export function usageRows(
  all: readonly Dependency[],
  inRange: readonly Dependency[] | undefined,
  names: ReadonlyMap<string, string>,
  skipped: number,
): PackageUsage {
  const inside = inRange ? new Set(inRange.map(dependencyKey)) : undefined;
  const rows = new Map<string, UsageRow>();
  // A version the bounded answer has that the whole answer lacks (a later page) still counts.
  for (const d of [...all, ...(inRange ?? [])]) {
    const key = dependencyKey(d);
    if (rows.has(key)) continue;
    rows.set(key, {
      repository: names.get(d.repositoryId) ?? `repository ${d.repositoryId}`,
      lockfilePath: d.definedAt?.path ?? '',
      version: d.version,
      transitivity: transitivityOf(d.transitivity),
      inRange: inside ? inside.has(key) : true,
      repositoryId: d.repositoryId,
      ...(d.definedAt?.line !== undefined ? { line: d.definedAt.line } : {}),
      ecosystem: d.ecosystem,
    });
  }
  const sorted = [...rows.values()].sort(
    (a, b) =>
      Number(b.inRange) - Number(a.inRange) ||
      a.repository.localeCompare(b.repository) ||
      a.lockfilePath.localeCompare(b.lockfilePath) ||
      a.version.localeCompare(b.version),
  );
  return { rows: sorted, skipped };
}

/** The row as the automation contract gives it: only the contract's fields. */
export function contractRow(row: UsageRow): Pick<UsageRow, 'repository' | 'lockfilePath' | 'version' | 'transitivity' | 'inRange'> {
  return { repository: row.repository, lockfilePath: row.lockfilePath, version: row.version, transitivity: row.transitivity, inRange: row.inRange };
}

/** Repositories other than `repositoryId` that use the package (any version). */
export function otherRepositories(usage: PackageUsage, repositoryId: string): number {
  return new Set(usage.rows.filter((r) => r.repositoryId !== repositoryId).map((r) => r.repositoryId)).size;
}

/** Checks a query before any request: a clear message for each wrong part. */
/**
 * What no ecosystem allows in a package's name (npm, PyPI, Maven's `group:artifact`, Go module
 * paths, gems, crates): whitespace, a comparison operator or a comma. A name holding one is a
 * range typed into the name, which would find no repository and answer a false "used in 0
 * repositories".
 */
const NOT_IN_A_NAME = /[\s<>=,]/;

/**
 * A name and a range typed in one box (`express <4.19.2`, `lodash>=4`): split where the name
 * must end. The range is empty when none was typed.
 */
export function splitTypedPackage(text: string): { readonly name: string; readonly range: string } {
  const trimmed = text.trim();
  const end = trimmed.search(NOT_IN_A_NAME);
  return end < 0 ? { name: trimmed, range: '' } : { name: trimmed.slice(0, end), range: trimmed.slice(end).trim() };
}

export function checkPackageQuery(query: PackageQuery): string | undefined {
  if (query.package.trim() === '') return 'Give a package name.';
  if (NOT_IN_A_NAME.test(query.package.trim())) {
    return `"${query.package}" is not a package name: a name has no spaces, <, >, = or commas. Give the versions apart (version, lower, upper), as in { package: "express", upper: "<4.19.2" }.`;
  }
  if (query.version !== undefined && (query.lower !== undefined || query.upper !== undefined)) return 'Give either an exact version or bounds, not both.';
  if (query.lower !== undefined && !/^(>=|>)\s*[^\s=<>]\S*$/.test(query.lower))
    return `The lower bound "${query.lower}" must start with >= or >, as in >=2.0.0.`;
  if (query.upper !== undefined && !/^(<=|<)\s*[^\s=<>]\S*$/.test(query.upper))
    return `The upper bound "${query.upper}" must start with <= or <, as in <2.17.1.`;
  return undefined;
}

/**
 * Reads a typed range such as `<2.17.1`, `>=2.0.0 <3`, `2.14.1` (exact) into the query's fields;
 * undefined when it is none of those.
 */
export function parseVersionRange(text: string): Pick<PackageQuery, 'version' | 'lower' | 'upper'> | undefined {
  // An operator and its version may be typed apart (`>= 2.0.0`): joined before splitting.
  const parts = text
    .trim()
    .replace(/(>=|<=|==|>|<|=)\s+/g, '$1')
    .split(/[\s,]+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return {};
  let lower: string | undefined;
  let upper: string | undefined;
  for (const part of parts) {
    if (/^(>=|>)[^=<>]\S*$/.test(part) && lower === undefined) lower = part;
    else if (/^(<=|<)[^=<>]\S*$/.test(part) && upper === undefined) upper = part;
    else if (parts.length === 1 && /^(==|=)?[\w.+-]+$/.test(part)) return { version: part.replace(/^==?/, '') };
    else return undefined;
  }
  return { ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) };
}
