/**
 * The routes of one finding by its id: its story (the experimental v2 call, under `/api/agent`)
 * and a fix pull request (`POST /api/v1/deployments/{id}/issues/{issueId}/autofix`). Both take
 * the deployment's id, and each is a product a deployment may lack (`issue-v2`, `autofix`).
 */
import { decode, DEPLOYMENT_NOT_FOUND, methodNotAllowed, refusedProduct, refusedWrite, type ApiRequest, type ApiState } from './api-state';
import { issueIdOf, issueStory } from './issue-story';
import { error, type PlatformResponse } from './respond';

/** `segments`: the whole path's, from `api`. */
export function agentRoute(req: ApiRequest, state: ApiState, segments: readonly string[]): PlatformResponse {
  const [, , deployments, deployment, issues, version, issue] = segments;
  if (deployments !== 'deployments' || issues !== 'issues' || version !== 'v2' || segments.length !== 7) return error(404, 'no such route');
  if (req.method !== 'GET') return methodNotAllowed('GET');
  if (decode(deployment ?? '') !== String(state.data.deployment.id)) return error(404, DEPLOYMENT_NOT_FOUND);
  const refused = refusedProduct(state, 'issue-v2');
  if (refused) return refused;
  const id = issueIdOf(issue);
  if (id === undefined) return error(400, 'the issue id must be a whole number');
  const {
    data,
    issues: { story, autofix },
    products,
  } = state;
  return issueStory({ data, knobs: story, autofix, readOnly: products.readOnly }, id, new URLSearchParams(req.rawQuery));
}

/** `rest`: the path after `/api/v1/deployments/`, `[deployment, 'issues', issueId, 'autofix']`. */
export function autofixRoute(req: ApiRequest, state: ApiState, rest: readonly string[], byId: boolean): PlatformResponse {
  if (req.method !== 'POST') return methodNotAllowed('POST');
  if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
  const refused = refusedProduct(state, 'autofix') ?? refusedWrite(state);
  if (refused) return refused;
  const id = issueIdOf(rest[2]);
  if (id === undefined) return error(400, 'the issue id must be a whole number');
  return state.issues.autofix.request(state.data, id, req.body);
}
