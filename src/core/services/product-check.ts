/**
 * Check Connection's last part: which of the platform's products this deployment answers for.
 * One small request each (a page of 100 findings, one secret, the policy list), side by side; a
 * product that answers 403 or 404 (400 for an issue type) is "not available", anything else that
 * fails is "failed" with its reason. Runs only once the token is known to work.
 */
import { PlatformError } from '../model/errors';
import type { Deployment } from '../model/types';
import { KIND_PRODUCTS, unavailableOf, unavailableText, type Unavailable } from './kind-availability';
import type { PlatformApi } from './platform-api';

export type ProductCheck =
  | { readonly product: string; readonly state: 'available' }
  | { readonly product: string; readonly state: 'unavailable'; readonly unavailable: Unavailable }
  | { readonly product: string; readonly state: 'failed'; readonly reason: string };

/** Reads the first page of an async list and stops. */
async function firstPage(pages: AsyncIterable<unknown>): Promise<void> {
  for await (const _page of pages) return;
}

export async function checkProducts(api: PlatformApi, deployment: Deployment, signal?: AbortSignal): Promise<ProductCheck[]> {
  const probes: [string, boolean, () => Promise<unknown>][] = [
    [KIND_PRODUCTS.sast, true, () => firstPage(api.findings(deployment.slug, 'sast', {}, { pageSize: 100, signal }))],
    [KIND_PRODUCTS.ai, true, () => firstPage(api.findings(deployment.slug, 'ai_sast', {}, { pageSize: 100, signal }))],
    [KIND_PRODUCTS.sca, true, () => firstPage(api.findings(deployment.slug, 'sca', {}, { pageSize: 100, signal }))],
    [KIND_PRODUCTS.secrets, false, () => firstPage(api.secrets(deployment.id, {}, { pageSize: 1, signal }))],
    ['Policies', false, () => api.listPolicies(deployment.id, { signal })],
  ];
  return Promise.all(
    probes.map(async ([product, issueTypeList, probe]): Promise<ProductCheck> => {
      try {
        await probe();
        return { product, state: 'available' };
      } catch (error) {
        if (PlatformError.is(error, 'cancelled')) throw error;
        const unavailable = unavailableOf(error, issueTypeList);
        if (unavailable) return { product, state: 'unavailable', unavailable };
        return { product, state: 'failed', reason: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

/** "Secrets: not available for this deployment (404)" */
export function productLine(check: ProductCheck): string {
  switch (check.state) {
    case 'available':
      return `${check.product}: available`;
    case 'unavailable':
      return `${check.product}: ${unavailableText(check.unavailable)}`;
    case 'failed':
      return `${check.product}: failed (${check.reason})`;
  }
}
