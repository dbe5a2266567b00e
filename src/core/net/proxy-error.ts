/**
 * A transport error of a request that went through a proxy. The dispatcher wraps errors in it so
 * the message can name the proxy (and where it was configured): "could not reach the platform"
 * is the wrong lead when it is the proxy that is down or wants credentials.
 */
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

/** What the proxy's refusal means and what fixes it. */
export function proxyRefusal(status: number, via: Pick<ViaProxyError, 'proxy' | 'source' | 'hasCredentials'>, target: string): string {
  const proxy = `The proxy ${via.proxy} (from ${via.source})`;
  if (isCredentialsRefusal(status)) {
    return via.hasCredentials
      ? `${proxy} refused its credentials (${status}). Correct the user name and password in ${via.source}.`
      : `${proxy} asks for credentials (${status}). Put them in ${via.source} as http://user:password@host:port.`;
  }
  if (status === 403) {
    return `${proxy} does not allow connections to ${target} (403). Ask its administrator to allow the host and port, or add the host to http.noProxy if it is reachable directly.`;
  }
  return `${proxy} could not open a connection to ${target} (${status}). Check that the platform host is reachable from the proxy.`;
}
