import { said, type Said } from '../l10n';
import { PlatformError, scrubSecret, truncateSnippet, webApiScopeHint } from '../model/errors';

/**
 * Whose refusal a 403 or 404 is, which decides what the message blames:
 * - `token`: the token's own reads (deployments, projects). A 404 there is the usual sign of a
 *   token created without Web API access.
 * - `product`: a product's list (findings of a kind, secrets, policies, scans, SBOM status). A
 *   deployment that does not license the product, or a role that may not read it, answers so.
 * - `write`: a change (triage, tickets, tags, an SBOM export). A 403 is the token's role.
 */
export type EndpointAccess = 'token' | 'product' | 'write';

/**
 * What the failed call was about, for messages, as said inside a sentence: "project acme/api",
 * "the findings of acme" (capitalized where it starts one).
 */
export interface ErrorContext {
  readonly what: Said;
  /** Default `token`. */
  readonly access?: EndpointAccess;
  /** Scrubbed out of every text that reaches the error. */
  readonly token: string | undefined;
}

/** Builds the error for a non-2xx, non-redirect answer. The body is treated as opaque text. */
export function errorForStatus(status: number, bodyText: string, retryAfterMs: number | undefined, context: ErrorContext): PlatformError {
  const bodySnippet = truncateSnippet(scrubSecret(bodyText, context.token)) || undefined;
  // Retry-After is honoured on any status that sends it (429 and 503 do).
  const details = { status, bodySnippet, retryAfterMs };
  const withBody = (message: Said): Said => (bodySnippet ? said('{0} Response: "{1}"', message, bodySnippet) : message);
  const make = (reason: PlatformError['reason'], message: Said): PlatformError => new PlatformError(reason, withBody(message), details);

  switch (status) {
    case 400:
      return make('badRequest', said('The platform refused the request for {0} as invalid (400).', context.what));
    case 401:
      return make('unauthorized', said('The platform did not accept the API token (401). Sign in again with a valid token.'));
    case 403:
      return make('forbidden', forbiddenText(context));
    case 404:
      return make(
        'notFound',
        context.access === 'product' || context.access === 'write'
          ? said("The platform answered 404 for {0}: this deployment may not have that product, or the token's role may not use it.", context.what)
          : said('{0} was not found (404). {1}', capitalized(context.what), webApiScopeHint()),
      );
    case 408:
      return make('timeout', said('The platform timed out answering for {0} (408). Try again later.', context.what));
    case 429:
      return make(
        'rateLimited',
        retryAfterMs === undefined
          ? said('The platform is limiting the request rate (429). Try again later.')
          : said('The platform is limiting the request rate (429); it asks to wait {0} s. Try again later.', Math.ceil(retryAfterMs / 1000)),
      );
  }
  if (status >= 500) {
    return make('server', said('The platform failed to answer for {0} ({1}). Try again later.', context.what, status));
  }
  if (status >= 300 && status < 400) {
    return make('redirect', said('The platform answered {0} for {1}, which this extension does not follow. Check the base URL setting.', status, context.what));
  }
  // Any other 4xx: the request itself is at fault, like a 400.
  return make('badRequest', said('The platform refused the request for {0} ({1}).', context.what, status));
}

function forbiddenText(context: ErrorContext): Said {
  switch (context.access) {
    case 'write':
      return said(
        "The token's role does not allow {0} (403). Ask an administrator of the organization, or sign in with a token whose role may make this change.",
        context.what,
      );
    case 'product':
      return said("The platform refused {0} (403): the deployment may not license that product, or the token's role may not read it.", context.what);
    default:
      return said('The API token may not access {0} (403). Sign in with a token that has access.', context.what);
  }
}

/** "the secrets findings" starts a sentence as "The secrets findings", in either language. */
export function capitalized(what: Said): Said {
  const upper = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
  return { english: upper(what.english), text: upper(what.text) };
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
