/**
 * What every route of the local platform shares: the request, the mutable state the server keeps
 * between requests, and the refusals (a product the deployment lacks, a write the token's role
 * may not make, a deployment addressed in the wrong form).
 */
import type { Integrations } from './actions';
import type { AutofixDesk } from './autofix';
import type { FindingsIndex } from './findings-query';
import type { StoryKnobs } from './issue-story';
import { error, type PlatformResponse } from './respond';
import type { SbomJobs } from './sbom';
import type { AnswerShape } from './service-shape';
import type { PlatformData } from './types';

export interface ApiRequest {
  method: string;
  /** Path as received, percent-encoding intact, without the query. */
  rawPath: string;
  /** Query as received, without the `?` ('' when none). */
  rawQuery: string;
  body: string | undefined;
}

export interface ApiState {
  data: PlatformData;
  baseUrl: string;
  /** The origin of SBOM download links (another server than the API's). */
  storageUrl: string;
  index: FindingsIndex;
  sbom: SbomJobs;
  /** Mutable: tests switch the shape or cap pages between requests. */
  /** `projectsPageLimit`: a projects `page_size` above it is refused with 400 (no maximum is documented). */
  answers: { shape: AnswerShape; maxPageSize: number | undefined; projectsPageLimit?: number };
  /** Mutable: tests switch the ticketing integration off and on. */
  integrations: Integrations;
  /** Mutable: what the deployment lacks, and whether the token's role may write. */
  products: ProductsState;
  /** One finding's story (what its answers leave out) and the fix pull requests asked for. */
  issues: { story: StoryKnobs; autofix: AutofixDesk };
}

/**
 * The products a deployment licenses separately, as the local platform can leave them out.
 * `dependencies` is Supply Chain's inventory alone; without `sca` it is refused too.
 * `issue-v2` is the experimental single-finding call, `autofix` the fix pull requests.
 */
export const PRODUCTS = ['code', 'ai', 'sca', 'secrets', 'policies', 'sbom', 'tickets', 'dependencies', 'issue-v2', 'autofix'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface ProductsState {
  /** Each missing product, with the status its endpoints answer (404 unless set). */
  missing: Map<Product, number>;
  /** The token's role may read but not change anything: every write answers 403. */
  readOnly: boolean;
}

/** The status a missing product answers when none is chosen: 400 for an unknown `issue_type`, else 404. */
export function defaultMissingStatus(product: Product): number {
  return product === 'ai' ? 400 : 404;
}

export function refusedProduct(state: ApiState, product: Product): PlatformResponse | undefined {
  const status = state.products.missing.get(product);
  if (status === undefined) return undefined;
  const text =
    status === 400
      ? product === 'dependencies' || product === 'sca'
        ? 'dependency inventory is not enabled for this deployment'
        : product === 'issue-v2' || product === 'autofix'
          ? 'this API is not enabled for this deployment'
          : 'unknown issue type for this deployment'
      : status === 403
        ? `this deployment's plan does not include ${product}`
        : 'not found';
  return error(status, text);
}

/** A write the token's role may not make. */
export function refusedWrite(state: ApiState): PlatformResponse | undefined {
  return state.products.readOnly ? error(403, "the token's role does not allow this action") : undefined;
}

export const DEPLOYMENT_NOT_FOUND = 'deployment not found (check the id or slug, and that the token has Web API access)';

/** A path the routes cannot read; answered with 400. */
export class BadPath extends Error {}

export function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadPath(`malformed percent-encoding in ${segment}`);
  }
}

export function methodNotAllowed(allowed: string): PlatformResponse {
  return error(405, 'method not allowed', { allow: allowed });
}

/** A request body that must be one JSON object: the object, or the 400 to answer. */
export function jsonObject(body: string | undefined): { body: Record<string, unknown> } | { refused: PlatformResponse } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body ?? '');
  } catch {
    return { refused: error(400, 'the body is not JSON') };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { refused: error(400, 'the body must be a JSON object') };
  return { body: parsed as Record<string, unknown> };
}

/** The first key of `body` outside `allowed`, as a 400; undefined when every key is known. */
export function unknownField(body: Record<string, unknown>, allowed: readonly string[]): PlatformResponse | undefined {
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  return unknown === undefined ? undefined : error(400, `unknown field ${JSON.stringify(unknown)} (allowed: ${allowed.join(', ')})`);
}
