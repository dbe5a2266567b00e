import { certificateCodeIn, explainCertificate } from '../net/certificate-problems';
import { isFinalRefusal, proxyRefusal, viaProxyIn, type ViaProxyError } from '../net/proxy-error';
import { PlatformError, cancelledError } from '../model/errors';

/**
 * Turns what undici or the socket threw into a PlatformError. Only error codes, undici's own
 * message and the redacted proxy name are used: none carries request headers or proxy
 * credentials, so neither the token nor a proxy password can leak through here.
 */
export function errorFromTransport(e: unknown, origin: string, signal: AbortSignal | undefined): PlatformError {
  if (PlatformError.is(e)) {
    return e;
  }
  if (signal?.aborted) {
    return cancelledError();
  }
  const via = viaProxyIn(e);
  const certificate = certificateCodeIn(e);
  if (certificate) {
    return certificateError(certificate, origin, via, e);
  }
  const code = errorCode(e) ?? '';
  const detail = code || describe(e);
  if (via?.proxyStatus !== undefined) {
    return new PlatformError('network', proxyRefusal(via.proxyStatus, via, origin), { cause: e, setting: proxySetting(via) });
  }
  const proxyHint = via ? ` through the proxy ${via.proxy} (from ${via.source})` : '';
  if (TIMEOUT_CODES.has(code)) {
    return new PlatformError('timeout', `${origin} did not answer in time${proxyHint} (${detail}). Check the network or proxy, then try again.`, { cause: e });
  }
  if (via) {
    return new PlatformError(
      'network',
      `Could not reach ${origin} through the proxy ${via.proxy} (from ${via.source}): ${detail}. Check that the proxy runs and that ${via.source} names the right host and port, or add the host to http.noProxy.`,
      { cause: e, setting: proxySetting(via) },
    );
  }
  return new PlatformError('network', `Could not reach ${origin} (${detail}). Check the network connection and the proxy settings.`, { cause: e });
}

function certificateError(code: string, origin: string, via: ViaProxyError | undefined, cause: unknown): PlatformError {
  const { problem, fix } = explainCertificate(code);
  const path = via ? ` (reached through the proxy ${via.proxy}, which may be inspecting TLS)` : '';
  const setting = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'appsecFindings.baseUrl' : 'appsecFindings.caBundlePath';
  return new PlatformError('certificate', `The TLS certificate of ${origin}${path} ${problem}, so the connection was refused. ${fix}`, { cause, setting });
}

/** Only a proxy from the setting can be fixed with "Open Setting"; a variable cannot. */
function proxySetting(via: ViaProxyError): string | undefined {
  return via.source === 'http.proxy' ? 'http.proxy' : undefined;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** A host that does not resolve will not start resolving within the retry budget. */
const PERMANENT_NETWORK_CODES = new Set(['ENOTFOUND', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

/** Whether a transport failure is worth another attempt (connection reset, refused, …). */
export function isTransientNetworkError(e: PlatformError): boolean {
  // A proxy that refused (credentials, policy) answers the same way the next time.
  if (isFinalRefusal(viaProxyIn(e.cause)?.proxyStatus)) {
    return false;
  }
  return e.reason === 'network' && !PERMANENT_NETWORK_CODES.has(errorCode(e.cause) ?? '');
}

/** The first `code` along the cause chain (Node and undici put it at different depths). */
export function errorCode(e: unknown): string | undefined {
  for (let current = e, depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string' && code) {
      return code;
    }
    current = cause ?? (Array.isArray(errors) ? (errors as unknown[])[0] : undefined);
  }
  return undefined;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
