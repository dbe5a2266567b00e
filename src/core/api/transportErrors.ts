import { PlatformError, cancelledError } from './errors';

/**
 * Turns what undici or the socket threw into a PlatformError. Only the error code and undici's
 * own message are used: neither carries request headers, so the token cannot leak through here.
 */
export function errorFromTransport(e: unknown, origin: string, signal: AbortSignal | undefined): PlatformError {
  if (PlatformError.is(e)) {
    return e;
  }
  if (signal?.aborted) {
    return cancelledError();
  }
  const code = errorCode(e) ?? '';
  const detail = code || describe(e);
  if (TIMEOUT_CODES.has(code)) {
    return new PlatformError('timeout', `${origin} did not answer in time (${detail}). Check the network or proxy, then try again.`, { cause: e });
  }
  if (isCertificateCode(code)) {
    return new PlatformError(
      'certificate',
      `The TLS certificate of ${origin} is not trusted (${detail}). If a proxy inspects TLS, set appsecFindings.caBundlePath to its CA certificate (PEM) or start VS Code with NODE_EXTRA_CA_CERTS.`,
      { cause: e },
    );
  }
  return new PlatformError('network', `Could not reach ${origin} (${detail}). Check the network connection and the proxy settings.`, { cause: e });
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** A host that does not resolve will not start resolving within the retry budget. */
const PERMANENT_NETWORK_CODES = new Set(['ENOTFOUND', 'UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

function isCertificateCode(code: string): boolean {
  return /CERT|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_TLS/.test(code);
}

/** Whether a transport failure is worth another attempt (connection reset, refused, …). */
export function isTransientNetworkError(e: PlatformError): boolean {
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
