import { PlatformError, WEB_API_SCOPE_HINT, scrubSecret, truncateSnippet } from '../model/errors';

/**
 * Whose refusal a 403 or 404 is, which decides what the message blames:
 * - `token`: the token's own reads (deployments, projects). A 404 there is the usual sign of a
 *   token created without Web API access.
 * - `product`: a product's list (findings of a kind, secrets, policies, scans, SBOM status). A
 *   deployment that does not license the product, or a role that may not read it, answers so.
 * - `write`: a change (triage, tickets, tags, an SBOM export). A 403 is the token's role.
 */
export type EndpointAccess = 'token' | 'product' | 'write';

/** What the failed call was about, for messages: "Project acme/api", "Findings of acme". */
export interface ErrorContext {
  readonly what: string;
  /** Default `token`. */
  readonly access?: EndpointAccess;
  /** Scrubbed out of every text that reaches the error. */
  readonly token: string | undefined;
}

/** Builds the error for a non-2xx, non-redirect answer. The body is treated as opaque text. */
export function errorForStatus(
  status: number,
  bodyText: string,
  retryAfterMs: number | undefined,
  context: ErrorContext,
): PlatformError {
  const bodySnippet = truncateSnippet(scrubSecret(bodyText, context.token)) || undefined;
  // Retry-After is honoured on any status that sends it (429 and 503 do).
  const details = { status, bodySnippet, retryAfterMs };
  const withBody = (message: string): string => (bodySnippet ? `${message} Response: "${bodySnippet}"` : message);
  const make = (reason: PlatformError['reason'], message: string): PlatformError =>
    new PlatformError(reason, withBody(message), details);

  switch (status) {
    case 400:
      return make('badRequest', `The platform refused the request for ${context.what} as invalid (400).`);
    case 401:
      return make('unauthorized', 'The platform did not accept the API token (401). Sign in again with a valid token.');
    case 403:
      return make('forbidden', forbiddenText(context));
    case 404:
      return make('notFound', context.access === 'product' || context.access === 'write'
        ? `The platform answered 404 for ${lower(context.what)}: this deployment may not have that product, or the token's role may not use it.`
        : `${context.what} was not found (404). ${WEB_API_SCOPE_HINT}`);
    case 408:
      return make('timeout', `The platform timed out answering for ${context.what} (408). Try again later.`);
    case 429:
      return make('rateLimited', `The platform is limiting the request rate (429)${waitText(retryAfterMs)}. Try again later.`);
  }
  if (status >= 500) {
    return make('server', `The platform failed to answer for ${context.what} (${status}). Try again later.`);
  }
  if (status >= 300 && status < 400) {
    return make('redirect', `The platform answered ${status} for ${context.what}, which this extension does not follow. Check the base URL setting.`);
  }
  // Any other 4xx: the request itself is at fault, like a 400.
  return make('badRequest', `The platform refused the request for ${context.what} (${status}).`);
}

function forbiddenText(context: ErrorContext): string {
  switch (context.access) {
    case 'write': return `The token's role does not allow ${lower(context.what)} (403). Ask an administrator of the organization, or sign in with a token whose role may make this change.`;
    case 'product': return `The platform refused ${lower(context.what)} (403): the deployment may not license that product, or the token's role may not read it.`;
    default: return `The API token may not access ${context.what} (403). Sign in with a token that has access.`;
  }
}

/** "The secrets findings" reads "the secrets findings" inside a sentence. */
function lower(what: string): string {
  return what.startsWith('The ') ? `the ${what.slice(4)}` : what;
}

function waitText(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined ? '' : `; it asks to wait ${Math.ceil(retryAfterMs / 1000)} s`;
}

/**
 * `Retry-After` as seconds or as an HTTP date, in milliseconds from `now`; undefined when absent
 * or unreadable. A date in the past means "now".
 */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) {
    return undefined;
  }
  if (/^\d+$/.test(text)) {
    return Number(text) * 1000;
  }
  // An HTTP date always names its month; this keeps Date.parse from reading "-1" as a year.
  const at = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
