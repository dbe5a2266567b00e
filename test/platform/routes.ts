/**
 * Routing of authenticated `/api/v1` requests, and of the one `/api/agent` call (a finding's
 * story, `issue-routes.ts`). Paths are matched on their raw (still encoded)
 * segments, because a project name's slashes are path separators while an encoded `%2F` must be
 * answered with a redirect, as the real service does.
 */
import { createTickets, linkTicket, triage, unlinkExternalTicket, unlinkTicket } from './actions';
import {
  BadPath,
  decode,
  DEPLOYMENT_NOT_FOUND,
  methodNotAllowed,
  refusedProduct,
  refusedWrite,
  type ApiRequest,
  type ApiState,
  type Product,
} from './api-state';
import { decodeCursor, encodeCursor } from './cursors';
import { answerInventory } from './dependency-answers';
import { queryFindings } from './findings-query';
import { agentRoute, autofixRoute } from './issue-routes';
import { policiesRoute } from './policy-changes';
import { projectRoute } from './project-changes';
import { listProjects } from './projects';
import { QueryError } from './query-params';
import { listSecrets } from './secrets-and-ai';
import { error, json, type PlatformResponse } from './respond';
import { serviceFinding } from './service-shape';
import type { PlatformData } from './types';

export { defaultMissingStatus, PRODUCTS, type ApiRequest, type ApiState, type Product, type ProductsState } from './api-state';

const FINDINGS_PRODUCT: Record<string, Product> = { sast: 'code', ai_sast: 'ai', sca: 'sca' };

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
  if (segments[0] === 'api' && segments[1] === 'agent') return agentRoute(req, state, segments);
  if (segments[0] !== 'api' || segments[1] !== 'v1' || segments[2] !== 'deployments') return error(404, 'no such route');
  const rest = segments.slice(3);
  const params = new URLSearchParams(req.rawQuery);
  const only = (method: string, handler: () => PlatformResponse): PlatformResponse => (req.method === method ? handler() : methodNotAllowed(method));

  if (rest.length === 0) {
    return only('GET', () => json(200, { deployments: [{ id: data.deployment.id, name: data.deployment.name, slug: data.deployment.slug }] }));
  }
  const deployment = decode(rest[0]);
  const byId = deployment === String(data.deployment.id);
  const bySlug = deployment === data.deployment.slug;
  const resource = rest[1];

  if (resource === 'policies' && rest.length <= 3) return policiesRoute(req, state, rest, byId, params);
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
    return only('GET', () => (byId ? (refusedProduct(state, 'secrets') ?? json(200, listSecrets(data, params))) : error(404, DEPLOYMENT_NOT_FOUND)));
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
    return only('POST', () => (bySlug ? (refusedWrite(state) ?? triage(data, req.body)) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  if (resource === 'tickets' && rest.length === 2) {
    return only('POST', () =>
      bySlug
        ? (refusedProduct(state, 'tickets') ?? refusedWrite(state) ?? createTickets(data, req.body, state.integrations))
        : error(404, DEPLOYMENT_NOT_FOUND),
    );
  }
  // Link and unlink take the deployment's id, creating takes its slug (as the reference says).
  if (resource === 'tickets' && (rest[2] === 'link' || rest[2] === 'unlink') && rest.length === 3) {
    return only('POST', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      return refusedProduct(state, 'tickets') ?? refusedWrite(state) ?? (rest[2] === 'link' ? linkTicket(data, req.body) : unlinkTicket(data, req.body));
    });
  }
  // Unlinking a ticket from all its findings by the ticket's own id: the deployment's id too.
  if (resource === 'ticketing' && rest[2] === 'v2' && rest[3] === 'tickets' && rest.length === 5) {
    return only('DELETE', () => {
      if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
      return refusedProduct(state, 'tickets') ?? refusedWrite(state) ?? unlinkExternalTicket(data, decode(rest[4]));
    });
  }
  if (resource === 'issues' && rest[3] === 'autofix' && rest.length === 4) return autofixRoute(req, state, rest, byId);
  if (resource === 'scans' && rest[2] === 'search' && rest.length === 3) {
    return only('POST', () => (byId ? searchScans(data, req.body) : error(404, DEPLOYMENT_NOT_FOUND)));
  }
  // The inventory: `dependencies`, `dependencies/repositories`, `dependencies/repositories/{id}/lockfiles`.
  if (
    resource === 'dependencies' &&
    (rest.length === 2 || (rest[2] === 'repositories' && (rest.length === 3 || (rest.length === 5 && rest[4] === 'lockfiles'))))
  ) {
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
