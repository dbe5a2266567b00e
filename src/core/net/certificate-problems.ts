/**
 * What a TLS verification error means for the user, and the fix that actually helps: a CA
 * bundle fixes an unknown issuer, but not an expired certificate or a wrong host name, so the
 * advice differs by code. Disabling verification is never offered as the fix.
 */

export interface CertificateProblem {
  /** Completes "The TLS certificate of <origin> …". */
  readonly problem: string;
  readonly fix: string;
}

export const CA_BUNDLE_FIX =
  'If a proxy inspects TLS or the platform uses a private certificate authority, set appsecFindings.caBundlePath to that CA certificate (PEM), or start VS Code with NODE_EXTRA_CA_CERTS=<file>.';

const UNKNOWN_ISSUER = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

export function explainCertificate(code: string): CertificateProblem {
  if (UNKNOWN_ISSUER.has(code)) {
    const self = code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ? 'is self-signed' : code === 'SELF_SIGNED_CERT_IN_CHAIN' ? 'chains to a self-signed certificate authority that is not trusted' : 'is issued by a certificate authority that is not trusted';
    return { problem: `${self} (${code})`, fix: CA_BUNDLE_FIX };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return {
      problem: `is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not valid yet'} (${code})`,
      fix: 'Check the date and time of this computer; if they are right, the server\'s certificate must be renewed (a CA bundle does not help).',
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return {
      problem: `was issued for another host name (${code})`,
      fix: 'Check appsecFindings.baseUrl: use the host name the certificate is issued for.',
    };
  }
  return { problem: `could not be verified (${code})`, fix: CA_BUNDLE_FIX };
}

export function isCertificateCode(code: string): boolean {
  return UNKNOWN_ISSUER.has(code) || /CERT|UNABLE_TO_VERIFY|SELF_SIGNED|HOSTNAME_MISMATCH/.test(code);
}

/**
 * The first certificate error code along the cause chain. Through a proxy tunnel undici wraps it
 * (`UND_ERR_PRX_TLS` around `ERR_TLS_CERT_ALTNAME_INVALID`), so the outer code is not enough.
 */
export function certificateCodeIn(e: unknown): string | undefined {
  for (let current = e, depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && isCertificateCode(code)) return code;
    current = cause;
  }
  return undefined;
}
