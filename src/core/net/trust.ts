/**
 * Which certificate authorities TLS connections trust. Without a CA bundle setting, Node's
 * defaults apply unchanged (they include `NODE_EXTRA_CA_CERTS`). With one, undici needs an
 * explicit `ca` list, and an explicit list REPLACES Node's defaults: so the defaults are put back
 * in front of the bundle, or every public site would stop working.
 */
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { Env, NetworkSettings } from './proxy-config';
import { said, type Said } from '../l10n';

export interface Trust {
  /** For undici's `connect`/`requestTls`/`proxyTls`; undefined keeps Node's defaults. */
  readonly ca?: readonly string[];
  /** What is trusted beyond Node's bundled roots, in words, for the log and the report. */
  readonly extras: readonly string[];
  /** Why the bundle of the setting could not be used: requests to private CAs will fail. In English (the log) and the display language (Check Connection). */
  readonly problems: readonly Said[];
  /** A NODE_EXTRA_CA_CERTS that cannot be used (Node warned about it at start too). */
  readonly warnings: readonly Said[];
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function pemCertificates(text: string): string[] {
  return text.match(PEM_CERTIFICATE) ?? [];
}

type ReadText = (path: string) => string;
const readText: ReadText = (path) => readFileSync(path, 'utf8');

export function loadTrust(net: NetworkSettings, env: Env, read: ReadText = readText): Trust {
  const extras: string[] = [];
  const problems: Said[] = [];
  const warnings: Said[] = [];
  const extraPath = env.NODE_EXTRA_CA_CERTS?.trim();
  let extraCerts: string[] = [];
  if (extraPath) {
    extraCerts = readBundle(extraPath, 'NODE_EXTRA_CA_CERTS', read, warnings);
    if (extraCerts.length > 0) extras.push(`${extraCerts.length} certificate(s) from NODE_EXTRA_CA_CERTS (${extraPath})`);
  }
  const bundlePath = net.caBundlePath?.trim();
  if (!bundlePath) return { extras, problems, warnings };
  const bundle = readBundle(bundlePath, 'appsecFindings.caBundlePath', read, problems);
  if (bundle.length === 0) return { extras, problems, warnings };
  extras.push(`${bundle.length} certificate(s) from appsecFindings.caBundlePath (${bundlePath})`);
  return { ca: [...new Set([...nodeDefaults(), ...extraCerts, ...bundle])], extras, problems, warnings };
}

function readBundle(path: string, setting: string, read: ReadText, problems: Said[]): string[] {
  let text: string;
  try {
    text = read(path);
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : String(e);
    problems.push(said('The CA bundle {0} ({1}) cannot be read ({2}). Fix the path, or clear {1}.', path, setting, code));
    return [];
  }
  const certs = pemCertificates(text);
  if (certs.length === 0) {
    problems.push(
      said(
        'The CA bundle {0} ({1}) holds no PEM certificate ("{2}"). Export the CA certificate as PEM (Base64).',
        path,
        setting,
        '-----BEGIN CERTIFICATE-----',
      ),
    );
  }
  return certs;
}

/**
 * Node's default CAs. Node 22.15+ can list them itself (bundled roots, NODE_EXTRA_CA_CERTS, and
 * the system store when VS Code enables it); Node 20 lists only the bundled roots, so the
 * caller adds NODE_EXTRA_CA_CERTS itself.
 */
function nodeDefaults(): readonly string[] {
  const withList = tls as typeof tls & { getCACertificates?: (type: 'default') => string[] };
  return typeof withList.getCACertificates === 'function' ? withList.getCACertificates('default') : tls.rootCertificates;
}
