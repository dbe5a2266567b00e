/**
 * Routing of authenticated `/api/v1` requests. Paths are matched on their raw (still encoded)
 * segments, because a project name's slashes are path separators while an encoded `%2F` must be
 * answered with a redirect, as the real service does.
 */
import { createTickets, linkTicket, triage, unlinkTicket, type Integrations } from './actions';
import { answerInventory } from './dependency-answers';
import { FindingsIndex, queryFindings } from './findings-query';
import { addProjectTags, getProject, listProjects } from './projects';
import { QueryError, integer } from './query-params';
import { listSecrets } from './secrets-and-ai';
import { error, json, type PlatformResponse } from './respond';
import type { SbomJobs } from './sbom';
import { serviceFinding, type AnswerShape } from './service-shape';
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
}

/**
 * The products a deployment licenses separately, as the local platform can leave them out.
 * `dependencies` is Supply Chain's inventory alone; without `sca` it is refused too.
 */
export const PRODUCTS = ['code', 'ai', 'sca', 'secrets', 'policies', 'sbom', 'tickets', 'dependencies'] as const;
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

function refusedProduct(state: ApiState, product: Product): PlatformResponse | undefined {
  const status = state.products.missing.get(product);
  if (status === undefined) return undefined;
  const text = status === 400
    ? (product === 'dependencies' || product === 'sca' ? 'dependency inventory is not enabled for this deployment' : 'unknown issue type for this deployment')
    : status === 403 ? `this deployment's plan does not include ${product}` : 'not found';
  return error(status, text);
}

/** A write the token's role may not make. */
function refusedWrite(state: ApiState): PlatformResponse | undefined {
  return state.products.readOnly ? error(403, 'the token\'s role does not allow this action') : undefined;
}

const FINDINGS_PRODUCT: Record<string, Product> = { sast: 'code', ai_sast: 'ai', sca: 'sca' };

class BadPath extends Error {}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadPath(`malformed percent-encoding in ${segment}`);
  }
}

function methodNotAllowed(allowed: string): PlatformResponse {
  return error(405, 'method not allowed', { allow: allowed });
}

const DEPLOYMENT_NOT_FOUND = 'deployment not found (check the id or slug, and that the token has Web API access)';

export function handleApi(req: ApiRequest, state: ApiState): PlatformResponse {
  try {
    return route(req, state);
  } catch (e) {
    if (e instanceof BadPath || e instanceof QueryError) return error(400, e.message);
    throw e;
  }
}

function route(req: ApiRequest, state: ApiState): PlatformResponse {
  const { data } = state;
  const segments = req.rawPath.split('/').slice(1); // ['api', 'v1', 'deployments', ...]
  if (segments[0] !== 'api' || segments[1] !== 'v1' || segments[2] !== 'deployments') return error(404, 'no such route');
  const rest = segments.slice(3);
  const params = new URLSearchParams(req.rawQuery);
  const only = (method: string, handler: () => PlatformResponse): PlatformResponse =>
    req.method === method ? handler() : methodNotAllowed(method);

  if (rest.length === 0) {
    return only('GET', () => json(200, { deployments: [{ id: data.deployment.id, name: data.deployment.name, slug: data.deployment.slug }] }));
  }
  const deployment = decode(rest[0]);
  const byId = deployment === String(data.deployment.id);
  const bySlug = deployment === data.deployment.slug;
  const resource = rest[1];

  if (resource === 'policies' && rest.length <= 3) {
    return only('GET', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      const refused = refusedProduct(state, 'policies');
      if (refused) return refused;
      return rest.length === 2 ? json(200, { policies: data.policies }) : policyRules(data, decode(rest[2]), params);
    });
  }
  if (resource === 'findings' && rest.length === 2) {
    return only('GET', () => {
      if (!bySlug) return error(404, DEPLOYMENT_NOT_FOUND);
      const product = FINDINGS_PRODUCT[params.get('issue_type') ?? 'sast'];
      const refused = product && refusedProduct(state, product);
      if (refused) return refused;
      const page = queryFindings(data, state.index, params, state.answers.maxPageSize);
      if (state.answers.shape === 'service') return json(200, { findings: page.findings.map(serviceFinding) });
      const member = page.issueType === 'sast' ? 'sastFindings' : page.issueType === 'ai_sast' ? 'aiSastFindings' : 'scaFindings';
      return json(200, { [member]: { findings: page.findings } });
    });
  }
  if (resource === 'secrets' && rest.length === 2) {
    return only('GET', () => (byId ? refusedProduct(state, 'secrets') ?? json(200, listSecrets(data, params)) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  if (resource === 'sbom' && rest[2] === 'export' && (rest.length === 3 || rest.length === 4)) {
    return only(rest.length === 3 ? 'POST' : 'GET', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      const refused = refusedProduct(state, 'sbom') ?? (rest.length === 3 ? refusedWrite(state) : undefined);
      if (refused) return refused;
      return rest.length === 3 ? state.sbom.create(data, req.body) : state.sbom.status(decode(rest[3]), state.storageUrl);
    });
  }
  if (resource === 'triage' && rest.length === 2) {
    return only('POST', () => (bySlug ? refusedWrite(state) ?? triage(data, req.body) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  if (resource === 'tickets' && rest.length === 2) {
    return only('POST', () => (bySlug ? refusedProduct(state, 'tickets') ?? refusedWrite(state) ?? createTickets(data, req.body, state.integrations) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  // Link and unlink take the deployment's id, creating takes its slug (as the reference says).
  if (resource === 'tickets' && (rest[2] === 'link' || rest[2] === 'unlink') && rest.length === 3) {
    return only('POST', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      return refusedProduct(state, 'tickets') ?? refusedWrite(state) ?? (rest[2] === 'link' ? linkTicket(data, req.body) : unlinkTicket(data, req.body));
    });
  }
  if (resource === 'scans' && rest[2] === 'search' && rest.length === 3) {
    return only('POST', () => (byId ? searchScans(data, req.body) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  // The inventory: `dependencies`, `dependencies/repositories`, `dependencies/repositories/{id}/lockfiles`.
  if (resource === 'dependencies' && (rest.length === 2 || (rest[2] === 'repositories' && (rest.length === 3 || (rest.length === 5 && rest[4] === 'lockfiles'))))) {
    return only('POST', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      const refused = refusedProduct(state, 'dependencies') ?? refusedProduct(state, 'sca');
      if (refused) return refused;
      const list = rest.length === 2 ? 'dependencies' : rest.length === 3 ? 'repositories' : 'lockfiles';
      return answerInventory(list, data, req.body, state.answers, rest.length === 5 ? decode(rest[3]) : undefined);
    });
  }
  if (resource === 'projects') {
    if (rest.length === 2) return only('GET', () => (bySlug ? listProjects(data, params, state.answers) : error(404, DEPLOYMENT_NOT_FOUND)));
    return projectRoute(req, state, rest.slice(2), bySlug);
  }
  return error(404, 'no such route');
}

/** `projects/{name…}` (GET) and `projects/{name…}/tags` (PUT); the name may hold several slashes. */
function projectRoute(req: ApiRequest, state: ApiState, nameSegments: string[], bySlug: boolean): PlatformResponse {
  const isTags = req.method === 'PUT' && nameSegments.length >= 2 && nameSegments[nameSegments.length - 1] === 'tags';
  if (req.method !== 'GET' && !isTags) return methodNotAllowed(nameSegments[nameSegments.length - 1] === 'tags' ? 'GET, PUT' : 'GET');
  if (!bySlug) return error(404, DEPLOYMENT_NOT_FOUND);
  const refused = isTags ? refusedWrite(state) : undefined;
  if (refused) return refused;
  const rawName = (isTags ? nameSegments.slice(0, -1) : nameSegments).join('/');
  if (/%2f/i.test(rawName)) {
    // The real service redirects an encoded slash to the literal-slash path.
    const location = req.rawPath.replace(/%2f/gi, '/') + (req.rawQuery ? `?${req.rawQuery}` : '');
    return { status: 307, headers: { location, 'content-type': 'application/json' }, body: JSON.stringify({ error: 'use literal slashes in project names' }) };
  }
  const segments = rawName.split('/');
  if (segments.some((s) => s === '')) return error(404, 'project not found');
  const name = segments.map(decode).join('/');
  return isTags ? addProjectTags(state.data, name, req.body, state.answers.shape) : getProject(state.data, name, state.answers.shape);
}

/**
 * `scans/search`: filters by repository, branch and statuses, newest first, cursor-paged
 * (`limit` ≤ 500, default 100).
 */
function searchScans(data: PlatformData, body: string | undefined): PlatformResponse {
  let query: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return error(400, 'the body must be a JSON object');
    query = parsed as Record<string, unknown>;
  } catch {
    return error(400, 'the body is not JSON');
  }
  const limit = query.limit === undefined ? 100 : query.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 500) return error(400, 'limit must be 1..500');
  const statuses = Array.isArray(query.statuses) ? query.statuses : undefined;
  const matching = data.scans
    .filter((scan) => query.repository_id === undefined || scan.repository_id === query.repository_id)
    .filter((scan) => query.branch === undefined || scan.branch === query.branch)
    .filter((scan) => !statuses || statuses.includes(scan.status))
    .slice()
    .reverse();
  const offset = typeof query.cursor === 'string' && query.cursor !== '' ? decodeCursor(query.cursor, matching.length) : 0;
  const end = Math.min(matching.length, offset + limit);
  return json(200, { scans: matching.slice(offset, end), cursor: end < matching.length ? encodeCursor(end) : '' });
}

/** Cursors are opaque to clients: base64url of the offset, checked strictly. */
function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, total: number): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const m = /^offset:(\d+)$/.exec(text);
  const offset = m ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(offset) || offset > total) throw new QueryError('invalid cursor');
  return offset;
}

function policyRules(data: PlatformData, policyId: string, params: URLSearchParams): PlatformResponse {
  const policy = data.policies.find((p) => p.id === policyId);
  if (!policy) return error(404, `policy ${policyId} not found`);
  const rules = data.rulesByPolicyId.get(policyId) ?? [];
  const limit = integer(params, 'limit', 500, 1, 2000);
  const cursor = params.get('cursor') ?? '';
  const offset = cursor === '' ? 0 : decodeCursor(cursor, rules.length);
  const end = Math.min(rules.length, offset + limit);
  return json(200, { cursor: end < rules.length ? encodeCursor(end) : '', policy, rules: rules.slice(offset, end) });
}
