import { PlatformError } from './errors';
import { isObject, readBoolean, readIdString, readString, readStringArray, readTimestamp } from './decodeRead';
import type { Policy, PolicyRule } from './policy';

/** A page of a policy's rules (spec 4.1). */
export interface PolicyRulesPage {
  /** Every page repeats the policy; undefined if the service left it out. */
  readonly policy: Policy | undefined;
  readonly rules: PolicyRule[];
  /** Rules left out as malformed (no id or path). */
  readonly skipped: number;
}

/** Used when a rule carries no mode at all, so that it still shows up (as "unspecified"). */
export const UNSPECIFIED_POLICY_MODE = 'MODE_UNSPECIFIED';

export function decodePolicy(raw: unknown): Policy | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readIdString(raw.id);
  if (id === undefined) {
    return undefined;
  }
  return {
    id,
    name: readString(raw.name) ?? readString(raw.slug) ?? id,
    slug: readString(raw.slug) ?? '',
    isDefault: readBoolean(raw.isDefault) ?? false,
    productType: readString(raw.productType),
  };
}

export function decodePolicyRule(raw: unknown): PolicyRule | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readIdString(raw.id);
  const path = readString(raw.path);
  if (id === undefined || path === undefined) {
    return undefined;
  }
  return {
    id,
    path,
    mode: readString(raw.policyMode) ?? UNSPECIFIED_POLICY_MODE,
    severity: readString(raw.severity),
    category: readString(raw.category),
    confidence: readString(raw.confidence),
    source: readString(raw.source),
    languages: readStringArray(raw.languages),
    cweCategories: readStringArray(raw.cweCategories),
    owaspCategories: readStringArray(raw.owaspCategories),
    url: readString(raw.url),
    lastChangeAt: readTimestamp(raw.lastChangeAt),
    lastChangeBy: readString(raw.lastChangeBy),
  };
}

/**
 * Spec 4.1 envelope. This endpoint speaks protobuf-style JSON, which leaves out empty fields, so
 * a missing `rules` is an empty page and a missing `cursor` the last one; a `rules` that is
 * present but not a list is an error.
 */
export function decodePolicyRulesPage(body: unknown): PolicyRulesPage & { nextCursor: string | undefined; rawCount: number } {
  if (!isObject(body)) {
    throw invalid('policy rules', 'is not a JSON object');
  }
  const items = body.rules ?? [];
  if (!Array.isArray(items)) {
    throw invalid('policy rules', 'has "rules" that is not a list');
  }
  const rules = items.map(decodePolicyRule).filter((r): r is PolicyRule => r !== undefined);
  return {
    policy: decodePolicy(body.policy),
    rules,
    skipped: items.length - rules.length,
    nextCursor: readString(body.cursor),
    rawCount: items.length,
  };
}

/**
 * `GET …/policies` (docs/platform-api.md): `{ "policies": [...] }`, protobuf-style like 4.1, so a missing
 * list is empty. Malformed items are left out.
 */
export function decodePoliciesResponse(body: unknown): Policy[] {
  if (!isObject(body)) {
    throw invalid('policy list', 'is not a JSON object');
  }
  const items = body.policies ?? [];
  if (!Array.isArray(items)) {
    throw invalid('policy list', 'has "policies" that is not a list');
  }
  return items.map(decodePolicy).filter((p): p is Policy => p !== undefined);
}

function invalid(what: string, problem: string): PlatformError {
  return new PlatformError('invalidResponse', `The platform's ${what} answer ${problem}. Try again; if it persists, check the base URL.`);
}
