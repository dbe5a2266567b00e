import { isIP } from 'node:net';
import { PlatformError } from '../model/errors';
import { said } from '../l10n';

/** The parts of the base URL setting the HTTP layer needs. */
export interface BaseUrl {
  /** `https://semgrep.dev`: the only origin that ever receives the token. */
  readonly origin: string;
  /** A path prefix without trailing slash (usually empty), for a service mounted below `/`. */
  readonly pathPrefix: string;
}

/**
 * Checks the base URL before any token is sent to it. Plain http would expose the token on the
 * wire, so it is refused except for loopback addresses (the local test platform, a dev proxy).
 */
export function parseBaseUrl(raw: string): BaseUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new PlatformError(
      'invalidUrl',
      said('The base URL "{0}" is not a valid URL. Set {1} to an address like {2}.', raw, 'appsecFindings.baseUrl', 'https://semgrep.dev'),
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new PlatformError('invalidUrl', said('The base URL "{0}" must start with {1}. Change {2}.', raw, 'https://', 'appsecFindings.baseUrl'));
  }
  if (url.username || url.password) {
    throw new PlatformError('invalidUrl', said('The base URL must not contain a user name or password. Remove them from {0}.', 'appsecFindings.baseUrl'));
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new PlatformError(
      'insecureUrl',
      said(
        'The base URL {0} uses plain http, which would send the API token unencrypted. Use {1} (plain http is accepted only for localhost).',
        url.origin,
        'https://',
      ),
    );
  }
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') {
    return true;
  }
  return isIP(host) === 4 && host.startsWith('127.');
}
