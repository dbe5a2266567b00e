/**
 * What a TLS verification error means for the user, and the fix that actually helps: a CA
 * bundle fixes an unknown issuer, but not an expired certificate or a wrong host name, so the
 * advice differs by code. Disabling verification is never offered as the fix.
 */
import { said, type Said } from '../l10n';

export interface CertificateProblem {
  /** Completes "The TLS certificate of <origin> …" (English, for the log). */
  readonly problem: string;
  readonly fix: string;
  /** The same, each in English and in the display language. */
  readonly said: { readonly problem: Said; readonly fix: Said };
}

/** The fix of a certificate authority that is not trusted: a CA bundle, never turning verification off. */
export function caBundleFix(): Said {
  return said(
    'If a proxy inspects TLS or the platform uses a private certificate authority, set {0} to that CA certificate (PEM), or start VS Code with {1}.',
    'appsecFindings.caBundlePath',
    'NODE_EXTRA_CA_CERTS=<file>',
  );
}

const UNKNOWN_ISSUER = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

function problemOf(problem: Said, fix: Said): CertificateProblem {
  return { problem: problem.english, fix: fix.english, said: { problem, fix } };
}

export function explainCertificate(code: string): CertificateProblem {
  if (UNKNOWN_ISSUER.has(code)) {
    const self =
      code === 'DEPTH_ZERO_SELF_SIGNED_CERT'
        ? said('is self-signed ({0})', code)
        : code === 'SELF_SIGNED_CERT_IN_CHAIN'
          ? said('chains to a self-signed certificate authority that is not trusted ({0})', code)
          : said('is issued by a certificate authority that is not trusted ({0})', code);
    return problemOf(self, caBundleFix());
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return problemOf(
      code === 'CERT_HAS_EXPIRED' ? said('is expired ({0})', code) : said('is not valid yet ({0})', code),
      said("Check the date and time of this computer; if they are right, the server's certificate must be renewed (a CA bundle does not help)."),
    );
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return problemOf(
      said('was issued for another host name ({0})', code),
      said('Check {0}: use the host name the certificate is issued for.', 'appsecFindings.baseUrl'),
    );
  }
  return problemOf(said('could not be verified ({0})', code), caBundleFix());
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
