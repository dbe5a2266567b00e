/**
 * Where the platform's HTTP may lead. The token is only ever sent to the origin it was given for,
 * so a redirect elsewhere is refused rather than followed without it: a silently unauthenticated
 * request would only fail later with a more confusing error. A download the platform links to
 * must be https (loopback aside, the local test platform), since its bytes become a file.
 */
import { isLoopbackHost } from './baseUrl';
import { PlatformError } from '../model/errors';
import { said, type Said } from '../l10n';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The origin requests go to (the only one the token is sent to) and how many hops are followed. */
export interface RedirectBounds {
  readonly origin: string;
  readonly maxRedirects: number;
}

/** The address a redirect of the request for `what` leads to, when it may be followed. */
export function redirectTarget(bounds: RedirectBounds, from: URL, location: string | undefined, hops: number, what: Said): URL {
  if (!location) {
    throw new PlatformError('redirect', said('The platform redirected the request for {0} without saying where to. Check the base URL setting.', what));
  }
  if (hops >= bounds.maxRedirects) {
    throw new PlatformError(
      'redirect',
      said('The platform redirected the request for {0} more than {1} times. Check the base URL setting.', what, bounds.maxRedirects),
    );
  }
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new PlatformError('redirect', said('The platform redirected the request for {0} to an invalid address.', what));
  }
  if (target.origin !== bounds.origin) {
    throw new PlatformError(
      'redirect',
      said(
        'The platform redirected the request for {0} to another site ({1}); it was not followed, so the API token was not sent there. Check the base URL setting.',
        what,
        target.origin,
      ),
    );
  }
  return target;
}

/** A download over plain http is refused except on loopback (the local test platform). */
export function refuseInsecure(url: URL, what: Said): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  throw new PlatformError(
    'insecureUrl',
    said("The platform's link for {0} is not an https address ({1}); it was not fetched.", what, `${url.protocol}//${url.host}`),
  );
}
