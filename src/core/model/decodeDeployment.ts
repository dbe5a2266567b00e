import { PlatformError } from './errors';
import { isObject, readIdString, readString } from './decodeRead';
import type { Deployment } from './types';

/** A deployment, or undefined without an id and a slug (the slug addresses it in paths). */
export function decodeDeployment(raw: unknown): Deployment | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  // The id stays text: ids of 15+ digits exist, and the id is only ever put back into paths.
  const id = readIdString(raw.id);
  const slug = readString(raw.slug);
  if (id === undefined || slug === undefined) {
    return undefined;
  }
  return { id, slug, name: readString(raw.name) ?? slug };
}

/** `GET /api/v1/deployments` (docs/platform-api.md): `{ "deployments": [...] }`. */
export function decodeDeploymentsResponse(body: unknown): Deployment[] {
  const items = isObject(body) ? body.deployments : undefined;
  if (!Array.isArray(items)) {
    throw new PlatformError('invalidResponse', 'The platform\'s deployment list has no "deployments" list. Check the base URL.');
  }
  return items.map(decodeDeployment).filter((d): d is Deployment => d !== undefined);
}
