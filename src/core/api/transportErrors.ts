import { certificateCodeIn, explainCertificate } from '../net/certificate-problems';
import { isFinalRefusal, proxyRefusal, viaProxyIn, type ViaProxyError } from '../net/proxy-error';
import { PlatformError, cancelledError } from '../model/errors';
import { said } from '../l10n';

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
  if (TIMEOUT_CODES.has(code)) {
    return new PlatformError(
      'timeout',
      via
        ? said(
            '{0} did not answer in time through the proxy {1} (from {2}) ({3}). Check the network or proxy, then try again.',
            origin,
            via.proxy,
            via.source,
            detail,
          )
        : said('{0} did not answer in time ({1}). Check the network or proxy, then try again.', origin, detail),
      { cause: e },
    );
  }
  if (via) {
    return new PlatformError(
      'network',
      said(
        'Could not reach {0} through the proxy {1} (from {2}): {3}. Check that the proxy runs and that {2} names the right host and port, or add the host to {4}.',
        origin,
        via.proxy,
        via.source,
        detail,
        'http.noProxy',
      ),
      { cause: e, setting: proxySetting(via) },
    );
  }
  return new PlatformError('network', said('Could not reach {0} ({1}). Check the network connection and the proxy settings.', origin, detail), { cause: e });
}

function certificateError(code: string, origin: string, via: ViaProxyError | undefined, cause: unknown): PlatformError {
  const { problem, fix } = explainCertificate(code).said;
  const setting = code === 'ERR_TLS_CERT_ALTNAME_INVALID' ? 'appsecFindings.baseUrl' : 'appsecFindings.caBundlePath';
  return new PlatformError(
    'certificate',
    via
      ? said(
          'The TLS certificate of {0} (reached through the proxy {1}, which may be inspecting TLS) {2}, so the connection was refused. {3}',
          origin,
          via.proxy,
          problem,
          fix,
        )
      : said('The TLS certificate of {0} {1}, so the connection was refused. {2}', origin, problem, fix),
    { cause, setting },
  );
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
