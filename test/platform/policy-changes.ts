/**
 * Policies: the list, one policy's rules (cursor-paged), and the change of one rule's mode
 * (`PUT policies/{policyId}`, docs/platform-api.md "Changes to settings"). The change is made on the stored rule, so
 * the next rules answer and the findings `policies` filter (which reads each rule's mode) see it.
 */
import {
  decode,
  DEPLOYMENT_NOT_FOUND,
  jsonObject,
  methodNotAllowed,
  refusedProduct,
  refusedWrite,
  unknownField,
  type ApiRequest,
  type ApiState,
} from './api-state';
import { decodeCursor, encodeCursor } from './cursors';
import { integer } from './query-params';
import { error, json, type PlatformResponse } from './respond';
import type { PlatformData } from './types';

export const POLICY_MODES: readonly string[] = ['MODE_MONITOR', 'MODE_COMMENT', 'MODE_BLOCK', 'MODE_DISABLED'];

/** Who the service names as the last changer of a rule changed through the API. */
export const API_CHANGER = 'api-token';

/**
 * `policies` (GET) and `policies/{policyId}` (GET, PUT); `rest` is the path after `deployments/`.
 * Policies are addressed by the deployment's id, never its slug.
 */
export function policiesRoute(req: ApiRequest, state: ApiState, rest: readonly string[], byId: boolean, params: URLSearchParams): PlatformResponse {
  const one = rest.length === 3;
  const write = one && req.method === 'PUT';
  if (req.method !== 'GET' && !write) return methodNotAllowed(one ? 'GET, PUT' : 'GET');
  if (!byId) return error(404, DEPLOYMENT_NOT_FOUND);
  const refused = refusedProduct(state, 'policies') ?? (write ? refusedWrite(state) : undefined);
  if (refused) return refused;
  // A deployment that lacks Secrets has no Secrets policy to list or open.
  const listed = state.products.missing.has('secrets') ? state.data.policies.filter((p) => p.productType !== 'PRODUCT_TYPE_SECRETS') : state.data.policies;
  if (!one) return json(200, { policies: listed });
  const policyId = decode(rest[2]);
  if (!listed.some((p) => p.id === policyId)) return error(404, `policy ${policyId} not found`);
  return write ? changeRuleMode(state.data, policyId, req.body) : policyRules(state.data, policyId, params);
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

/**
 * Body `{ rulePath, policyMode }`. The policy is looked up first (404), then the body is checked
 * (400), then the rule: a path the policy does not hold is a missing resource like an unknown
 * policy, so it answers 404 too.
 */
function changeRuleMode(data: PlatformData, policyId: string, rawBody: string | undefined): PlatformResponse {
  if (!data.policies.some((p) => p.id === policyId)) return error(404, `policy ${policyId} not found`);
  const read = jsonObject(rawBody);
  if ('refused' in read) return read.refused;
  const { rulePath, policyMode } = read.body;
  const unknown = unknownField(read.body, ['rulePath', 'policyMode']);
  if (unknown) return unknown;
  if (typeof rulePath !== 'string' || rulePath.trim() === '') return error(400, 'rulePath must be the path of a rule in the policy (a non-empty string)');
  if (typeof policyMode !== 'string' || !POLICY_MODES.includes(policyMode)) return error(400, `policyMode must be one of ${POLICY_MODES.join(', ')}`);
  const rule = (data.rulesByPolicyId.get(policyId) ?? []).find((r) => r.path === rulePath);
  if (!rule) return error(404, `rule ${rulePath} is not in policy ${policyId}`);
  rule.policyMode = policyMode;
  rule.lastChangeAt = new Date().toISOString();
  rule.lastChangeBy = API_CHANGER;
  return json(200, { policyId, updatedRule: rule });
}
