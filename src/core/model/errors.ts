/**
 * The one error type of the API layer. Callers branch on `reason` (never on message text), and
 * the message is written for the user: short, and saying what to do next. Its `message` is the
 * English the log keeps; `text` is the same sentence in the display language, for the user.
 */
import { said, type Said } from '../l10n';

export type PlatformErrorReason =
  | 'unauthorized'
  | 'forbidden'
  | 'notFound'
  | 'badRequest'
  | 'rateLimited'
  | 'server'
  | 'network'
  | 'timeout'
  /** TLS trust failed: a separate reason because the fix (a CA bundle) differs from a network fix. */
  | 'certificate'
  | 'invalidResponse'
  | 'cancelled'
  | 'redirect'
  | 'insecureUrl'
  /** The base URL setting cannot be used at all (not a URL, not http(s), carries credentials). */
  | 'invalidUrl';

export interface PlatformErrorDetails {
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly bodySnippet?: string;
  readonly cause?: unknown;
  /** The setting that fixes it, for an "Open Setting" action. */
  readonly setting?: string;
}

export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly reason: PlatformErrorReason;
  readonly status?: number;
  /** Set for `rateLimited` when the service said how long to wait. */
  readonly retryAfterMs?: number;
  /** The start of the response body, token scrubbed, for the log. */
  readonly bodySnippet?: string;
  /** The setting that fixes the problem (`appsecFindings.caBundlePath`, `http.proxy`, …). */
  readonly setting?: string;
  /** The message in the display language (the same as `message` when it was given in English only). */
  readonly text: string;

  constructor(reason: PlatformErrorReason, message: string | Said, details: PlatformErrorDetails = {}) {
    const sentence = typeof message === 'string' ? { english: message, text: message } : message;
    super(sentence.english, details.cause === undefined ? undefined : { cause: details.cause });
    this.text = sentence.text;
    this.reason = reason;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.bodySnippet = details.bodySnippet;
    this.setting = details.setting;
  }

  static is(e: unknown, reason?: PlatformErrorReason): e is PlatformError {
    return e instanceof PlatformError && (reason === undefined || e.reason === reason);
  }
}

/** Enough of an error body to diagnose it, small enough for a notification and a log line. */
export const BODY_SNIPPET_CHARS = 300;

/** Whitespace collapsed (HTML error pages are mostly indentation), then cut with an ellipsis. */
export function truncateSnippet(text: string, max = BODY_SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}

/**
 * Removes a secret from text that came from elsewhere (an error body may echo the request,
 * headers included). Its URL-encoded form is removed too, as a proxy page may quote the URL.
 */
export function scrubSecret(text: string, secret: string | undefined): string {
  if (!secret) {
    return text;
  }
  let out = text.split(secret).join('[token]');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) {
    out = out.split(encoded).join('[token]');
  }
  return out;
}

export function cancelledError(): PlatformError {
  return new PlatformError('cancelled', said('The request was cancelled.'));
}

/** Shown for a 404 because a token without the Web API scope gets 404 on every endpoint (`webApiScopeHint()` in both languages). */
export const WEB_API_SCOPE_HINT = 'If the token was created without Web API access, create one with it enabled.';

export function webApiScopeHint(): Said {
  return said('If the token was created without Web API access, create one with it enabled.');
}

/** A request or a load that was cancelled (its signal aborted): silent, and never a failure to show. */
export function isCancelled(error: unknown): boolean {
  return PlatformError.is(error, 'cancelled') || (error instanceof Error && error.name === 'AbortError');
}

/**
 * A product or call the deployment does not have: a refusal that is a state, not an error. The
 * kinds of findings, the policies and one finding's story all read refusals this way
 * (docs/platform-api.md, "What a deployment may not have").
 */
export interface Unavailable {
  /** 403, 404, or 400 where a 400 means the deployment does not know what was asked. */
  readonly status: number;
  /** The platform's refusal as the error message put it (the detail for the log and tooltips). */
  readonly detail: string;
}

/**
 * The unavailability an error stands for, or undefined when it is a failure (a 5xx, the
 * network, a timeout, a 401). `badRequestToo`: the request named nothing of ours that could be
 * wrong (an `issue_type`, an experimental call), so a 400 is the deployment not knowing it
 * rather than a bad filter of ours (our filters are checked first).
 */
export function unavailableOf(error: unknown, badRequestToo = false): Unavailable | undefined {
  if (!(error instanceof PlatformError) || error.status === undefined) return undefined;
  const missing = error.reason === 'forbidden' || error.reason === 'notFound' || (badRequestToo && error.reason === 'badRequest' && error.status === 400);
  return missing ? { status: error.status, detail: error.message } : undefined;
}

/** The error in English: for the log and for the agent's text, which stay English. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
