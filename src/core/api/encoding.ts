import type { FindingFilters, ListIssueType } from '../model/types';
import { SBOM_COMPONENT_TYPE_PREFIX, type SbomExportRequest } from '../model/sbom';
import { PlatformError } from '../model/errors';
import type { WireSbomExportRequest } from './wire';
import { said } from '../l10n';

/**
 * One path segment (a deployment id or slug, a policy id, a task token). `.` and `..` are
 * refused because a server or proxy would resolve them and address another resource.
 */
export function encodePathSegment(value: string, name: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new PlatformError('badRequest', said('"{0}" cannot be used in a request address ({1}).', value, name));
  }
  return encodeURIComponent(value);
}

/**
 * A project name is the repository as a path (`group/sub/repo`). The service wants its slashes
 * as they are: a `%2F`-encoded name only earns a redirect. Each segment is encoded on its own.
 */
export function encodeProjectName(projectName: string): string {
  return projectName
    .split('/')
    .map((segment) => encodePathSegment(segment, 'project name'))
    .join('/');
}

/** Builds a query string with repeated keys for arrays, the way the service reads them. */
class QueryBuilder {
  private readonly parts: string[] = [];

  add(key: string, value: string | number | boolean | undefined): this {
    if (value !== undefined) {
      this.parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
    return this;
  }

  addAll(key: string, values: readonly (string | number)[] | undefined): this {
    for (const value of values ?? []) {
      this.add(key, value);
    }
    return this;
  }

  toString(): string {
    return this.parts.join('&');
  }
}

/**
 * The query of spec 4.2. Code-only filters (sent for AI code findings too) are left out of a
 * supply-chain query and supply-chain-only ones out of a code query, so a filter set kept across
 * a switch of issue type does not silently empty the result. Secrets: {@link encodeSecretsQuery}.
 */
export function encodeFindingsQuery(issueType: ListIssueType, filters: FindingFilters, page: number, pageSize: number): string {
  if (filters.since !== undefined && !Number.isFinite(filters.since)) {
    throw new PlatformError('badRequest', said('The "{0}" filter must be a number of epoch seconds.', 'since'));
  }
  for (const id of filters.repositoryIds ?? []) {
    if (!Number.isSafeInteger(id) || id < 0) {
      throw new PlatformError('badRequest', said('The repository id {0} is not a valid id.', id));
    }
  }
  const query = new QueryBuilder()
    .add('issue_type', issueType)
    .add('page', page)
    .add('page_size', pageSize)
    .add('since', filters.since)
    .add('dedup', filters.dedup)
    .addAll('repos', filters.repos)
    .addAll('repository_ids', filters.repositoryIds)
    .add('status', filters.status)
    .addAll('triage_reasons', filters.triageReasons)
    .addAll('severities', filters.severities)
    .add('ref', filters.ref || undefined)
    .addAll('component_tags', filters.componentTags)
    .addAll('click_to_fix_pr_state', filters.clickToFixPrState);
  if (issueType !== 'sca') {
    query
      .addAll('policies', filters.policies)
      .addAll('rules', filters.rules)
      .addAll('categories', filters.categories)
      .add('confidence', filters.confidence)
      .add('autotriage_verdict', filters.autotriageVerdict);
  } else {
    query.addAll('exposures', filters.exposures).addAll('transitivities', filters.transitivities).add('is_malicious', filters.isMalicious);
  }
  return query.toString();
}

/** The secrets list's query: cursor paging, its own spellings of status, severity and validation. */
export function encodeSecretsQuery(filters: FindingFilters, cursor: string | undefined, limit: number): string {
  const upper = (prefix: string, values: readonly string[] | undefined): string[] | undefined => values?.map((v) => `${prefix}${v.toUpperCase()}`);
  return new QueryBuilder()
    .add('cursor', cursor || undefined)
    .add('limit', limit)
    .add('since', filters.since)
    .addAll('repo', filters.repos)
    .add('status', filters.status ? `FINDING_STATUS_${filters.status.toUpperCase()}` : undefined)
    .addAll('severity', upper('SEVERITY_', filters.severities))
    .addAll('validationState', upper('VALIDATION_STATE_', filters.validationStates))
    .toString();
}

export function encodeOffsetQuery(page: number, pageSize: number): string {
  return new QueryBuilder().add('page', page).add('page_size', pageSize).toString();
}

export function encodeCursorQuery(cursor: string | undefined, limit: number): string {
  return new QueryBuilder()
    .add('cursor', cursor || undefined)
    .add('limit', limit)
    .toString();
}

/** Spec 4.3: ids travel as text (uint64), the component type with its long enum prefix. */
export function encodeSbomExportRequest(deploymentId: string, request: SbomExportRequest): WireSbomExportRequest {
  const body: WireSbomExportRequest = {
    deploymentId,
    formatVersion: { format: 'SBOM_FORMAT_CYCLONEDX', version: request.cycloneDxVersion },
    metadataComponentType: `${SBOM_COMPONENT_TYPE_PREFIX}${request.componentType}`,
    ref: request.ref,
    repositoryId: String(request.repositoryId),
    sbomOutputFormat: request.outputFormat,
  };
  return request.supplier ? { ...body, metadataSupplier: request.supplier } : body;
}
