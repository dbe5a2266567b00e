// Trust, against the local platform served over TLS with a throwaway CA (made by openssl at test
// time): works with the CA, fails with a clear certificate error without it, extra CAs are
// added to (never replace) Node's, and NODE_EXTRA_CA_CERTS works as Node starts with it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { createDispatcher, type NetworkDispatcher } from '../../../src/core/net/dispatcher';
import type { Env, NetworkSettings } from '../../../src/core/net/proxy-config';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import { makeTestCa, type TestCa } from '../../platform/tls-certs';
import { clientOn, platformError, recordingLog, smallDeployment, type RecordingLog } from './helpers';

let ca: TestCa;
let otherCa: TestCa;
let secure: RunningPlatform;
let otherSecure: RunningPlatform;
let wrongName: RunningPlatform;
const dispatchers: NetworkDispatcher[] = [];

function dispatcher(net: Partial<NetworkSettings>, env: Env = {}, log: RecordingLog = recordingLog()): NetworkDispatcher {
  const made = createDispatcher({ strictSSL: true, noProxy: [], ...net }, env, log);
  dispatchers.push(made);
  return made;
}

function deployments(server: RunningPlatform, d: NetworkDispatcher): Promise<unknown> {
  return clientOn(server.url, server.token, d).listDeployments();
}

async function inChildProcess(server: RunningPlatform, extraCaPath: string | undefined): Promise<{ ok?: boolean; reason?: string; message?: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, APPSEC_BASE_URL: server.url, APPSEC_TOKEN: server.token };
  delete env.NODE_EXTRA_CA_CERTS;
  if (extraCaPath) env.NODE_EXTRA_CA_CERTS = extraCaPath;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'list-deployments.ts')], {
    env,
    timeout: 15_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { ok?: boolean; reason?: string; message?: string };
}

void describe('TLS trust (local platform over https, throwaway CA)', () => {
  before(async () => {
    ca = makeTestCa();
    otherCa = makeTestCa('Another Test CA');
    const data = smallDeployment();
    secure = await startPlatformServer({ data, tls: ca.server });
    otherSecure = await startPlatformServer({ data, tls: otherCa.server });
    wrongName = await startPlatformServer({ data, tls: ca.issue(['DNS:platform.example.test'], 'platform.example.test') });
  });

  after(async () => {
    await Promise.all(dispatchers.map((d) => d.close()));
    await Promise.all([secure?.close(), otherSecure?.close(), wrongName?.close()]);
    ca?.dispose();
    otherCa?.dispose();
  });

  void it('works with the CA from appsecFindings.caBundlePath', async () => {
    assert.equal(((await deployments(secure, dispatcher({ caBundlePath: ca.caCertPath }))) as unknown[]).length, 1);
  });

  void it('without the CA fails with reason certificate, the problem and both fixes; no request gets through', async () => {
    const seen = secure.requests.length;
    const e = await platformError(deployments(secure, dispatcher({})), 'certificate');
    assert.match(
      e.message,
      new RegExp(
        `^The TLS certificate of ${secure.url} is issued by a certificate authority that is not trusted \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\), so the connection was refused\\.`,
      ),
    );
    assert.match(e.message, /set appsecFindings\.caBundlePath to that CA certificate \(PEM\), or start VS Code with NODE_EXTRA_CA_CERTS=<file>/);
    assert.doesNotMatch(e.message, /proxyStrictSSL/, 'turning verification off is never the advice');
    assert.equal(secure.requests.length, seen, 'the token never reached the untrusted server');
  });

  void it('a certificate for another host name says to check the base URL, even with the CA trusted', async () => {
    const e = await platformError(deployments(wrongName, dispatcher({ caBundlePath: ca.caCertPath })), 'certificate');
    assert.match(e.message, /was issued for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\).*Check appsecFindings\.baseUrl/);
    assert.equal(e.setting, 'appsecFindings.baseUrl');
  });

  void it("adds the bundle to Node's CAs and to NODE_EXTRA_CA_CERTS instead of replacing them", async () => {
    const log = recordingLog();
    const both = dispatcher({ caBundlePath: ca.caCertPath }, { NODE_EXTRA_CA_CERTS: otherCa.caCertPath }, log);
    await deployments(secure, both);
    await deployments(otherSecure, both);
    const trusted = new Set(both.trust.ca);
    assert.ok(
      rootCertificates.every((c) => trusted.has(c)),
      'every public root CA is still trusted',
    );
    assert.match(log.text(), /1 certificate\(s\) from NODE_EXTRA_CA_CERTS .* and 1 certificate\(s\) from appsecFindings\.caBundlePath/);
  });

  void it('an unusable bundle is logged as an error, and verification stays on', async () => {
    const log = recordingLog();
    const missing = dispatcher({ caBundlePath: join(ca.dir, 'missing.pem') }, {}, log);
    await platformError(deployments(secure, missing), 'certificate');
    assert.match(log.text(), /^error The CA bundle .*missing\.pem \(appsecFindings\.caBundlePath\) cannot be read \(ENOENT\)/m);
    const notPem = join(ca.dir, 'not-pem.txt');
    writeFileSync(notPem, 'not a certificate');
    const empty = recordingLog();
    await platformError(deployments(secure, dispatcher({ caBundlePath: notPem }, {}, empty)), 'certificate');
    assert.match(empty.text(), /holds no PEM certificate/);
    const env = recordingLog();
    dispatcher({}, { NODE_EXTRA_CA_CERTS: join(ca.dir, 'gone.pem') }, env);
    assert.match(env.text(), /^warn The CA bundle .*gone\.pem \(NODE_EXTRA_CA_CERTS\) cannot be read/m);
  });

  void it('http.proxyStrictSSL=false connects without the CA, with a warning in the log', async () => {
    const log = recordingLog();
    await deployments(secure, dispatcher({ strictSSL: false }, {}, log));
    assert.match(log.text(), /^warn http\.proxyStrictSSL is false/m);
  });

  void it('NODE_EXTRA_CA_CERTS given to the process is trusted by the Agent (child process)', async () => {
    assert.deepEqual(await inChildProcess(secure, ca.caCertPath), { ok: true });
    const without = await inChildProcess(secure, undefined);
    assert.equal(without.reason, 'certificate', without.message);
  });
});
