/**
 * The supply-chain inventory's endpoints (docs/platform-api.md, "Dependencies"): the repositories
 * with dependencies, one repository's lockfiles, and the dependencies. Each is a POST that only
 * reads, paged by a cursor in its JSON body; `PlatformClient` exposes them.
 */
import type {
  Dependency,
  DependencyFilter,
  DependencyRepository,
  InventoryPage,
  LicensePolicySetting,
  LockfileSummary,
  PackageFilter,
} from '../model/dependency';
import { decodeDependenciesPage, decodeLockfilesPage, decodeRepositoriesPage, type DecodedInventoryPage } from '../model/decodeDependency';
import { PlatformError } from '../model/errors';
import { StringInterner } from '../model/interner';
import { bodyCursorPages } from './body-cursor-paging';
import { encodePathSegment } from './encoding';
import { deploymentPath, type CallOptions } from './endpoints';
import type { PlatformHttp } from './http';
import { checkPageSize } from './paging';
import { said, type Said } from '../l10n';

export interface DependencyCallOptions extends CallOptions {
  /** Items per page, 1..10 000. */
  readonly pageSize?: number;
  /** One per read of the inventory, shared by its pages, so repeated strings are stored once. */
  readonly interner?: StringInterner;
}

/** The documented default of the dependencies list. */
export const DEFAULT_DEPENDENCIES_PAGE_SIZE = 1000;
/**
 * Repositories and lockfiles per page: each summary is a few short fields, so a page of 1 000 is
 * a small answer, and the list of nearly any organization, or of any repository's lockfiles,
 * comes in one round trip.
 */
export const DEFAULT_REPOSITORIES_PAGE_SIZE = 1000;
export const DEFAULT_LOCKFILES_PAGE_SIZE = 1000;
const MAX_PAGE_SIZE = 10_000;

export function repositoryPages(
  http: PlatformHttp,
  deploymentId: string,
  filter: DependencyFilter,
  options: DependencyCallOptions,
): AsyncGenerator<InventoryPage<DependencyRepository>, void, undefined> {
  const path = `${deploymentPath(deploymentId)}/dependencies/repositories`;
  return inventoryPages(
    http,
    path,
    filter,
    options,
    DEFAULT_REPOSITORIES_PAGE_SIZE,
    said('the Supply Chain repositories with dependencies'),
    decodeRepositoriesPage,
  );
}

export function lockfilePages(
  http: PlatformHttp,
  deploymentId: string,
  repositoryId: string,
  filter: DependencyFilter,
  options: DependencyCallOptions,
): AsyncGenerator<InventoryPage<LockfileSummary>, void, undefined> {
  const path = `${deploymentPath(deploymentId)}/dependencies/repositories/${encodePathSegment(repositoryId, 'repository id')}/lockfiles`;
  return inventoryPages(
    http,
    path,
    filter,
    options,
    DEFAULT_LOCKFILES_PAGE_SIZE,
    said('the Supply Chain lockfiles of repository {0}', repositoryId),
    decodeLockfilesPage,
  );
}

export function dependencyPages(
  http: PlatformHttp,
  deploymentId: string,
  filter: DependencyFilter,
  options: DependencyCallOptions,
): AsyncGenerator<InventoryPage<Dependency>, void, undefined> {
  const path = `${deploymentPath(deploymentId)}/dependencies`;
  return inventoryPages(http, path, filter, options, DEFAULT_DEPENDENCIES_PAGE_SIZE, said('the Supply Chain dependencies'), decodeDependenciesPage);
}

/**
 * One list: the page size and the filter are checked before any request (the service answers
 * 400 otherwise), each page is a POST marked as a read (so 429 and 5xx are retried like a GET's),
 * and a 403/404 reads as the product's refusal. Each `what` names the product, as a deployment
 * without Supply Chain is refused with 404, 403 or 400.
 */
function inventoryPages<T>(
  http: PlatformHttp,
  path: string,
  filter: DependencyFilter,
  options: DependencyCallOptions,
  defaultPageSize: number,
  what: Said,
  decode: (body: unknown, interner: StringInterner) => DecodedInventoryPage<T>,
): AsyncGenerator<InventoryPage<T>, void, undefined> {
  const pageSize = checkPageSize(options.pageSize ?? defaultPageSize, 1, MAX_PAGE_SIZE, 'pageSize');
  const dependencyFilter = encodeDependencyFilter(filter);
  const interner = options.interner ?? new StringInterner();
  return bodyCursorPages(
    async (body, signal) => {
      const answer = await http.requestJson({ method: 'POST', path, body, what, access: 'product', idempotent: true, signal });
      const page = decode(answer, interner);
      return { value: { items: page.items, skipped: page.skipped }, cursor: page.cursor, hasMore: page.hasMore, rawCount: page.rawCount };
    },
    { pageSize, query: { dependencyFilter }, what, signal: options.signal },
  );
}

const POLICY_SETTINGS: Readonly<Record<LicensePolicySetting, string>> = {
  allow: 'LICENSE_POLICY_SETTING_ALLOW',
  comment: 'LICENSE_POLICY_SETTING_COMMENT',
  block: 'LICENSE_POLICY_SETTING_BLOCK',
};
const TRANSITIVITIES: Readonly<Record<string, string>> = { direct: 'DIRECT', transitive: 'TRANSITIVE', unknown: 'UNKNOWN_TRANSITIVITY' };

/**
 * The body's `dependencyFilter`: only the fields given, empty lists and empty text left out.
 * A value the service could not take (an unknown transitivity or policy setting, a package
 * without a name, a bound without its operator) is refused here, before any request.
 */
export function encodeDependencyFilter(filter: DependencyFilter): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const list = (key: string, values: readonly string[] | undefined): void => {
    const kept = (values ?? []).map((v) => v.trim()).filter((v) => v !== '');
    if (kept.length > 0) out[key] = kept;
  };
  list(
    'ecosystem',
    filter.ecosystems?.map((e) => e.toLowerCase()),
  );
  list('license', filter.licenses);
  list(
    'licensePolicySettings',
    filter.licensePolicy?.map((s) =>
      enumValue(POLICY_SETTINGS, s, said('The license policy setting "{0}" is not one the platform filters by ({1}).', s, 'allow, comment, block')),
    ),
  );
  if (filter.lockfilePath !== undefined && filter.lockfilePath.trim() !== '') out.lockfilePath = filter.lockfilePath.trim();
  list('repositoryId', filter.repositoryIds);
  list(
    'transitivity',
    filter.transitivity?.map((t) =>
      enumValue(TRANSITIVITIES, t, said('The transitivity "{0}" is not one the platform filters by ({1}).', t, 'direct, transitive, unknown')),
    ),
  );
  const packages = (filter.packages ?? []).map(encodePackageFilter);
  if (packages.length > 0) out.packageFilters = packages;
  if (filter.includeArchived === true) out.includeArchived = true;
  return out;
}

function encodePackageFilter(p: PackageFilter): Record<string, unknown> {
  const name = p.name.trim();
  if (name === '') throw new PlatformError('badRequest', said('A package filter needs a package name.'));
  const lower = p.lower?.trim();
  const upper = p.upper?.trim();
  if (lower && !/^>=?\s*\S+$/.test(lower))
    throw new PlatformError('badRequest', said('The lower bound "{0}" of {1} must start with {2} or {3}, as in {4}.', lower, name, '>=', '>', '>=1.0.0'));
  if (upper && !/^<=?\s*\S+$/.test(upper))
    throw new PlatformError('badRequest', said('The upper bound "{0}" of {1} must start with {2} or {3}, as in {4}.', upper, name, '<=', '<', '<2.0.0'));
  const version = p.version?.trim();
  return {
    name,
    ...(p.exact === true ? { exactNameMatch: true } : {}),
    ...(version ? { exactVersion: version } : {}),
    ...(lower ? { versionLowerBound: lower } : {}),
    ...(upper ? { versionUpperBound: upper } : {}),
  };
}

/** `unknown` says why `value` is refused (said before it is known to be needed: a filter has few values). */
function enumValue(values: Readonly<Record<string, string>>, value: string, unknown: Said): string {
  const encoded = Object.prototype.hasOwnProperty.call(values, value) ? values[value] : undefined;
  if (encoded === undefined) throw new PlatformError('badRequest', unknown);
  return encoded;
}
