import { PlatformError, WEB_API_SCOPE_HINT, scrubSecret, truncateSnippet } from './errors';

/** What the failed call was about, for messages: "Project acme/api", "Findings of acme". */
export interface ErrorContext {
  readonly what: string;
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
      return make('forbidden', `The API token may not access ${context.what} (403). Sign in with a token that has access.`);
    case 404:
      return make('notFound', `${context.what} was not found (404). ${WEB_API_SCOPE_HINT}`);
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
