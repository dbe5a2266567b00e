/**
 * `dependencyFilter` of the inventory's lists (docs/platform-api.md, "Dependencies"), in either
 * spelling: every field optional, lists matching any of their values, fields combined with AND.
 * An enumeration value the service does not know is refused with 400, as its JSON parser would.
 */
import type { DependencyInventory, StoredDependency, StoredTransitivity } from './dependencies';
import type { LicenseSetting } from './dependency-vocab';
import { QueryError } from './query-params';

export interface PackageQuery {
  name: string;
  exact: boolean;
  version?: string;
  lower?: Bound;
  upper?: Bound;
}

interface Bound {
  inclusive: boolean;
  version: number[];
}

export interface ParsedFilter {
  ecosystems?: Set<string>;
  licenses?: Set<string>;
  policy?: Set<LicenseSetting>;
  lockfilePath?: string;
  repositoryIds?: Set<number>;
  transitivity?: Set<StoredTransitivity>;
  packages?: PackageQuery[];
  includeArchived: boolean;
}

const ECOSYSTEMS = new Set([
  'npm',
  'pypi',
  'gomod',
  'cargo',
  'maven',
  'gem',
  'composer',
  'nuget',
  'pub',
  'swiftpm',
  'hex',
  'cocoapods',
  'mix',
  'opam',
  'no_package_manager',
]);
const POLICY: Record<string, LicenseSetting> = {
  LICENSE_POLICY_SETTING_ALLOW: 'allow',
  LICENSE_POLICY_SETTING_COMMENT: 'comment',
  LICENSE_POLICY_SETTING_BLOCK: 'block',
};
const TRANSITIVITY: Record<string, StoredTransitivity> = { DIRECT: 'direct', TRANSITIVE: 'transitive', UNKNOWN_TRANSITIVITY: 'unknown' };

function field(o: Record<string, unknown>, camel: string, snake: string): unknown {
  return o[camel] ?? o[snake];
}

function strings(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string | number => typeof v === 'string' || typeof v === 'number'))
    throw new QueryError(`${name} must be a list`);
  return value.length === 0 ? undefined : value.map(String);
}

function enumSet<T>(values: string[] | undefined, known: Record<string, T>, name: string): Set<T> | undefined {
  if (!values) return undefined;
  return new Set(
    values.map((v) => {
      const mapped = Object.prototype.hasOwnProperty.call(known, v) ? known[v] : undefined;
      if (mapped === undefined) throw new QueryError(`invalid value for ${name}: ${v}`);
      return mapped;
    }),
  );
}

export function parseDependencyFilter(value: unknown): ParsedFilter {
  if (value === undefined || value === null) return { includeArchived: false };
  if (typeof value !== 'object' || Array.isArray(value)) throw new QueryError('dependencyFilter must be an object');
  const o = value as Record<string, unknown>;
  const ecosystems = strings(o.ecosystem, 'ecosystem');
  for (const e of ecosystems ?? []) if (!ECOSYSTEMS.has(e)) throw new QueryError(`invalid value for ecosystem: ${e}`);
  const licenses = strings(o.license, 'license');
  const repositoryIds = strings(field(o, 'repositoryId', 'repository_id'), 'repositoryId');
  const lockfilePath = field(o, 'lockfilePath', 'lockfile_path');
  if (lockfilePath !== undefined && typeof lockfilePath !== 'string') throw new QueryError('lockfilePath must be a string');
  const packages = field(o, 'packageFilters', 'package_filters');
  if (packages !== undefined && !Array.isArray(packages)) throw new QueryError('packageFilters must be a list');
  return {
    ...(ecosystems ? { ecosystems: new Set(ecosystems) } : {}),
    ...(licenses ? { licenses: new Set(licenses) } : {}),
    ...(repositoryIds ? { repositoryIds: new Set(repositoryIds.map(Number)) } : {}),
    ...(lockfilePath ? { lockfilePath } : {}),
    ...optional(
      'policy',
      enumSet(strings(field(o, 'licensePolicySettings', 'license_policy_settings'), 'licensePolicySettings'), POLICY, 'licensePolicySettings'),
    ),
    ...optional('transitivity', enumSet(strings(o.transitivity, 'transitivity'), TRANSITIVITY, 'transitivity')),
    ...(Array.isArray(packages) && packages.length > 0 ? { packages: packages.map(parsePackage) } : {}),
    includeArchived: field(o, 'includeArchived', 'include_archived') === true,
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function parsePackage(value: unknown): PackageQuery {
  if (typeof value !== 'object' || value === null) throw new QueryError('a package filter must be an object');
  const o = value as Record<string, unknown>;
  const text = (camel: string, snake: string): string | undefined => {
    const v = field(o, camel, snake);
    if (v !== undefined && typeof v !== 'string') throw new QueryError(`${camel} must be a string`);
    return v === '' ? undefined : v;
  };
  const name = text('name', 'name');
  if (!name) throw new QueryError('a package filter needs a name');
  const version = text('exactVersion', 'exact_version');
  const lower = text('versionLowerBound', 'version_lower_bound');
  const upper = text('versionUpperBound', 'version_upper_bound');
  return {
    name,
    exact: field(o, 'exactNameMatch', 'exact_name_match') === true,
    ...(version ? { version } : {}),
    ...(lower ? { lower: parseBound(lower, '>') } : {}),
    ...(upper ? { upper: parseBound(upper, '<') } : {}),
  };
}

/** `>=1.0.0`, `>1.0.0` (lower) or `<2.17.1`, `<=2.0` (upper); a bare version is inclusive. */
function parseBound(text: string, operator: '>' | '<'): Bound {
  const m = /^([<>]=?)?\s*(\S+)$/.exec(text.trim());
  if (!m || (m[1] !== undefined && m[1][0] !== operator)) throw new QueryError(`invalid version bound: ${text}`);
  return { inclusive: m[1] === undefined || m[1].endsWith('='), version: versionParts(m[2] ?? '') };
}

/** A version compared by its dot-separated numbers: `v1.9.0` → [1, 9, 0]; `33.1.0-jre` → [33, 1, 0]. */
export function versionParts(version: string): number[] {
  return version
    .replace(/^v/i, '')
    .split('.')
    .map((part) => {
      const digits = /^\d+/.exec(part);
      return digits ? Number(digits[0]) : 0;
    });
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function packageMatches(d: StoredDependency, q: PackageQuery): boolean {
  if (q.exact ? d.name !== q.name : !d.name.toLowerCase().includes(q.name.toLowerCase())) return false;
  if (q.version !== undefined && d.version !== q.version) return false;
  const v = versionParts(d.version);
  if (q.lower) {
    const c = compareVersions(v, q.lower.version);
    if (c < 0 || (c === 0 && !q.lower.inclusive)) return false;
  }
  if (q.upper) {
    const c = compareVersions(v, q.upper.version);
    if (c > 0 || (c === 0 && !q.upper.inclusive)) return false;
  }
  return true;
}

/** The dependencies the filter keeps, in the list's order. */
export function selectDependencies(inventory: DependencyInventory, f: ParsedFilter): StoredDependency[] {
  return inventory.dependencies.filter(
    (d) =>
      (f.includeArchived || !inventory.archived.has(d.repositoryId)) &&
      (!f.ecosystems || f.ecosystems.has(d.ecosystem)) &&
      (!f.licenses || d.licenses.some((l) => f.licenses?.has(l))) &&
      (!f.policy || f.policy.has(settingOf(inventory, d.licenses))) &&
      (f.lockfilePath === undefined || d.lockfile === f.lockfilePath) &&
      (!f.repositoryIds || f.repositoryIds.has(d.repositoryId)) &&
      (!f.transitivity || f.transitivity.has(d.transitivity)) &&
      (!f.packages || f.packages.some((q) => packageMatches(d, q))),
  );
}

/** The deployment's policy for a dependency's licenses: the strongest of them; none is allowed. */
export function settingOf(inventory: DependencyInventory, licenses: readonly string[]): LicenseSetting {
  const { block, comment } = inventory.licensePolicy;
  if (licenses.some((l) => block.includes(l))) return 'block';
  if (licenses.some((l) => comment.includes(l))) return 'comment';
  return 'allow';
}
