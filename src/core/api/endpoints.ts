/**
 * What every endpoint call shares: its options, the addresses of the deployment and project
 * endpoints, and how a page is told from the next one.
 */
import type { ListShape } from './paging';
import { encodePathSegment, encodeProjectName } from './encoding';
import type { EndpointAccess } from './statusErrors';
import type { BodyIdentity } from './body-identity';
import type { Said } from '../l10n';

export interface CallOptions {
  readonly signal?: AbortSignal;
}

export interface PagedCallOptions extends CallOptions {
  readonly pageSize?: number;
  readonly concurrency?: number;
  /** Pages asked at once from page 0, from what is known of the list's length (`paging.ts`). */
  readonly firstWave?: number;
  readonly onEnd?: (shape: ListShape) => void;
}

/**
 * A GET of the platform's JSON: a read of a product's data unless `access` says it is one of the
 * token's own (deployments, projects). With `identity`, a body byte for byte the one it names
 * resolves with `SAME_BODY` (`http.ts`), unparsed.
 */
export type ReadJson = (
  path: string,
  query: string | undefined,
  what: Said,
  options: CallOptions & { readonly identity?: BodyIdentity },
  access?: EndpointAccess,
) => Promise<unknown>;

export function deploymentPath(deploymentIdOrSlug: string): string {
  return `/api/v1/deployments/${encodePathSegment(deploymentIdOrSlug, 'deployment')}`;
}

export function projectPath(deploymentSlug: string, projectName: string): string {
  return `${deploymentPath(deploymentSlug)}/projects/${encodeProjectName(projectName)}`;
}

/** A page's first id, last id and length: equal for a page sent twice, different for the next page. */
export function pageSignature<T>(items: readonly T[], id: (item: T) => number): string | undefined {
  const first = items[0];
  const last = items[items.length - 1];
  return first === undefined || last === undefined ? undefined : `${id(first)}:${id(last)}:${items.length}`;
}
