/**
 * A throwaway certificate authority and server certificates signed by it, made with the
 * `openssl` command at test time (Node can verify certificates but not issue them), so no
 * private key is ever committed. Files live in a fresh temporary folder; `dispose()` removes it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ServerCertificate {
  readonly key: string;
  readonly cert: string;
}

export interface TestCa {
  readonly dir: string;
  /** The CA certificate (PEM) and its file, for appsecFindings.caBundlePath or NODE_EXTRA_CA_CERTS. */
  readonly caCert: string;
  readonly caCertPath: string;
  /** A certificate for 127.0.0.1 and localhost, signed by this CA. */
  readonly server: ServerCertificate;
  /** Signs a server certificate for other names: `DNS:x` / `IP:y` entries. */
  issue(altNames: readonly string[], commonName?: string): ServerCertificate;
  dispose(): void;
}

export const OPENSSL_HINT = 'openssl is not installed: run `apt-get install -y openssl` (.ci/run and test/integration/launch/install-hosts.mjs install it)';

function openssl(dir: string, args: string[]): void {
  try {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (e) {
    if ((e as { code?: unknown }).code === 'ENOENT') throw new Error(OPENSSL_HINT);
    const stderr = (e as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl ${args[0]} failed: ${stderr || String(e)}`);
  }
}

/** EC P-256 keys: quick to generate, so a whole CA costs a few tens of milliseconds. */
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

export function makeTestCa(name = 'AppSec Test CA'): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'appsec-ca-'));
  openssl(dir, [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  let serial = 1;
  const issue = (altNames: readonly string[], commonName = 'localhost'): ServerCertificate => {
    const base = `server-${serial}`;
    writeFileSync(
      join(dir, `${base}.ext`),
      [`subjectAltName=${altNames.join(',')}`, 'basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth'].join(
        '\n',
      ),
    );
    openssl(dir, ['req', ...EC_KEY, '-keyout', `${base}.key`, '-out', `${base}.csr`, '-subj', `/CN=${commonName}`]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${base}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(1000 + serial++),
      '-days',
      '2',
      '-extfile',
      `${base}.ext`,
      '-out',
      `${base}.pem`,
    ]);
    return { key: readFileSync(join(dir, `${base}.key`), 'utf8'), cert: readFileSync(join(dir, `${base}.pem`), 'utf8') };
  };
  const server = issue(['IP:127.0.0.1', 'DNS:localhost']);
  return {
    dir,
    caCert: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    caCertPath: join(dir, 'ca.pem'),
    server,
    issue,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
