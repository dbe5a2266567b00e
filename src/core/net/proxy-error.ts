/**
 * A transport error of a request that went through a proxy. The dispatcher wraps errors in it so
 * the message can name the proxy (and where it was configured): "could not reach the platform"
 * is the wrong lead when it is the proxy that is down or wants credentials.
 */
import { said, type Said } from '../l10n';
import type { ProxyChoice } from './proxy-config';

export class ViaProxyError extends Error {
  override readonly name = 'ViaProxyError';
  /** Redacted: safe for messages. */
  readonly proxy: string;
  readonly source: string;
  readonly hasCredentials: boolean;
  /** The proxy's own HTTP answer when it refused (407, 403, 502, …). */
  readonly proxyStatus?: number;

  constructor(proxy: ProxyChoice, cause: Error) {
    super(cause.message, { cause });
    this.proxy = proxy.display;
    this.source = proxy.source;
    this.hasCredentials = proxy.hasCredentials;
    this.proxyStatus = proxyStatusIn(cause.message);
  }
}

/**
 * undici reports a proxy's refusal only in its message: "Proxy response (407) !== 200 when HTTP
 * Tunneling" for CONNECT, "Proxy Authentication Required (407)" for plain http. The tests against
 * the real proxy pin these down, so an undici change that rewords them fails there first.
 */
export function proxyStatusIn(message: string): number | undefined {
  const match = /Proxy response \((\d{3})\)|Proxy Authentication Required \((\d{3})\)/.exec(message);
  const digits = match?.[1] ?? match?.[2];
  return digits ? Number(digits) : undefined;
}

export function viaProxyIn(e: unknown): ViaProxyError | undefined {
  for (let current = e, depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof ViaProxyError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** 407 is the standard answer; some proxies (tinyproxy, to CONNECT) answer 401 instead. */
export function isCredentialsRefusal(status: number): boolean {
  return status === 407 || status === 401;
}

/** A refusal that the same request would get again: not worth a retry. */
export function isFinalRefusal(status: number | undefined): boolean {
  return status !== undefined && (isCredentialsRefusal(status) || status === 403);
}

/** What the proxy's refusal means and what fixes it, in English and in the display language. */
export function proxyRefusal(status: number, via: Pick<ViaProxyError, 'proxy' | 'source' | 'hasCredentials'>, target: string): Said {
  if (isCredentialsRefusal(status)) {
    return via.hasCredentials
      ? said('The proxy {0} (from {1}) refused its credentials ({2}). Correct the user name and password in {1}.', via.proxy, via.source, status)
      : said('The proxy {0} (from {1}) asks for credentials ({2}). Put them in {1} as {3}.', via.proxy, via.source, status, 'http://user:password@host:port');
  }
  if (status === 403) {
    return said(
      'The proxy {0} (from {1}) does not allow connections to {2} (403). Ask its administrator to allow the host and port, or add the host to {3} if it is reachable directly.',
      via.proxy,
      via.source,
      target,
      'http.noProxy',
    );
  }
  return said(
    'The proxy {0} (from {1}) could not open a connection to {2} ({3}). Check that the platform host is reachable from the proxy.',
    via.proxy,
    via.source,
    target,
    status,
  );
}
