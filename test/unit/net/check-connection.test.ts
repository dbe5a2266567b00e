// "Check Connection" against real local servers: the platform over http and https (throwaway
// CA), tinyproxy, a closed port and a host that cannot resolve. Each report must name the
// failing layer and its fix, and never contain the token or proxy credentials.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkConnection, formatReport, summarize, type ConnectionReport, type StepId } from '../../../src/core/api/check-connection';
import type { Env, NetworkSettings } from '../../../src/core/net/proxy-config';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import { freePort, startTinyproxy, type RunningTinyproxy } from '../../platform/tinyproxy';
import { makeTestCa, type TestCa } from '../../platform/tls-certs';
import { smallDeployment } from './helpers';

let ca: TestCa;
let plain: RunningPlatform;
let secure: RunningPlatform;
let unlisted: RunningPlatform;
let proxy: RunningTinyproxy;
let authProxy: RunningTinyproxy;

function check(baseUrl: string, net: Partial<NetworkSettings> = {}, token?: string, env: Env = {}): Promise<ConnectionReport> {
  return checkConnection({
    baseUrl,
    network: { strictSSL: true, noProxy: [], ...net },
    env,
    getToken: () => Promise.resolve(token),
    extensionVersion: '0.0.0-test',
    timeoutMs: 3_000,
  });
}

/** `id:status` for every step, e.g. "tls:failed". */
function statuses(report: ConnectionReport): string {
  return report.steps.map((s) => `${s.id}:${s.status}`).join(' ');
}

function step(report: ConnectionReport, id: StepId): { status: string; detail: string; fix?: string } {
  const found = report.steps.find((s) => s.id === id);
  assert.ok(found, `no step ${id}`);
  return found;
}

void describe('check connection', () => {
  before(async () => {
    ca = makeTestCa();
    const data = smallDeployment();
    plain = await startPlatformServer({ data });
    secure = await startPlatformServer({ data, tls: ca.server });
    unlisted = await startPlatformServer({ data, tls: ca.server });
    proxy = await startTinyproxy({ connectPorts: [Number(new URL(secure.url).port)] });
    authProxy = await startTinyproxy({ connectPorts: [Number(new URL(secure.url).port)], basicAuth: { user: 'carol', password: 'tunnel-pass' } });
  });

  after(async () => {
    await Promise.all([plain?.close(), secure?.close(), unlisted?.close(), proxy?.close(), authProxy?.close()]);
    ca?.dispose();
  });

  void it('passes every step for the http platform, naming the deployment, without the token', async () => {
    const report = await check(plain.url, {}, plain.token);
    assert.equal(statuses(report), 'configuration:ok proxy:ok dns:ok tcp:ok tunnel:skipped tls:skipped http:ok auth:ok');
    assert.equal(report.ok, true);
    assert.match(step(report, 'proxy').detail, /^None, direct connection: no proxy is set/);
    assert.match(step(report, 'dns').detail, /127\.0\.0\.1 is an IP address/);
    assert.match(step(report, 'http').detail, /^HTTP 404 from/);
    assert.match(step(report, 'auth').detail, new RegExp(`deployment ${plain.data.deployment.slug} `));
    assert.doesNotMatch(JSON.stringify(report) + formatReport(report).join('\n'), new RegExp(plain.token));
    assert.match(summarize(report), /^Connection OK\. The token of http:\/\/127\.0\.0\.1:\d+ is accepted/);
  });

  void it('shows the certificate of the https platform when its CA is trusted', async () => {
    const report = await check(secure.url, { caBundlePath: ca.caCertPath }, secure.token);
    assert.equal(report.ok, true, formatReport(report).join('\n'));
    assert.match(
      step(report, 'tls').detail,
      /^TLSv1\.[23], certificate of localhost \(issuer AppSec Test CA, valid until \d{4}-\d\d-\d\d, [01] days? left\); trusted\.$/,
    );
  });

  void it('fails at TLS without the CA: the verification code, the issuer, and the fix; later steps not run', async () => {
    const report = await check(secure.url, {}, secure.token);
    assert.equal(report.failed?.id, 'tls');
    assert.match(
      step(report, 'tls').detail,
      /^The certificate of localhost \(issuer AppSec Test CA, .*\) is issued by a certificate authority that is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    );
    assert.match(step(report, 'tls').fix ?? '', /appsecFindings\.caBundlePath.*NODE_EXTRA_CA_CERTS/);
    assert.equal(statuses(report).split(' ').slice(-2).join(' '), 'http:skipped auth:skipped');
    assert.match(formatReport(report)[0] ?? '', /FAILED at "TLS handshake"/);
  });

  void it('with http.proxyStrictSSL=false passes, but says the certificate is not trusted and warns', async () => {
    const report = await check(secure.url, { strictSSL: false }, secure.token);
    assert.equal(report.ok, true);
    assert.match(step(report, 'tls').detail, /NOT trusted.*Accepted only because http\.proxyStrictSSL is false/);
    assert.match(report.warnings.join(' '), /certificates are NOT verified/);
    assert.match(formatReport(report).join('\n'), /! Warning: http\.proxyStrictSSL is false/);
  });

  void it('through the proxy: names it (credentials redacted), skips local DNS, tunnels, and verifies TLS end to end', async () => {
    const withCredentials = `http://carol:tunnel-pass@${new URL(authProxy.url).host}`;
    const report = await check(secure.url, { proxy: withCredentials, caBundlePath: ca.caCertPath }, secure.token);
    assert.equal(statuses(report), 'configuration:ok proxy:ok dns:skipped tcp:ok tunnel:ok tls:ok http:ok auth:ok');
    assert.match(step(report, 'proxy').detail, /^http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+ \(from http\.proxy\), with credentials\.$/);
    assert.match(step(report, 'dns').detail, /The proxy resolves 127\.0\.0\.1/);
    assert.match(step(report, 'tcp').detail, /Connected to the proxy http:\/\/\*\*\*:\*\*\*@/);
    assert.doesNotMatch(JSON.stringify(report), /tunnel-pass|carol/);
    assert.ok(authProxy.requests().filter((r) => r === `CONNECT ${new URL(secure.url).host}`).length >= 2, 'tunnel step and HTTP step');
  });

  void it('through the proxy to plain http: no tunnel, the request is forwarded', async () => {
    const report = await check(plain.url, {}, plain.token, { HTTP_PROXY: proxy.url });
    assert.equal(report.ok, true);
    assert.match(step(report, 'proxy').detail, /from HTTP_PROXY/);
    assert.match(step(report, 'tunnel').detail, /forwarded by the proxy without a tunnel/);
  });

  void it('fails at the tunnel when the proxy refuses CONNECT to the port (403), with the fix', async () => {
    const report = await check(unlisted.url, { proxy: proxy.url, caBundlePath: ca.caCertPath });
    assert.equal(report.failed?.id, 'tunnel');
    assert.match(step(report, 'tunnel').detail, /does not allow connections to https:\/\/127\.0\.0\.1:\d+ \(403\)/);
  });

  void it('fails at the tunnel when the proxy wants credentials', async () => {
    const report = await check(secure.url, { proxy: authProxy.url, caBundlePath: ca.caCertPath });
    assert.match(step(report, 'tunnel').detail, /asks for credentials \((401|407)\)/);
  });

  void it('fails at DNS for a host that does not resolve', async () => {
    const report = await check('https://nonexistent.invalid');
    assert.equal(report.failed?.id, 'dns');
    assert.match(step(report, 'dns').detail, /nonexistent\.invalid could not be looked up \((ENOTFOUND|EAI_AGAIN)\)/);
    assert.ok(step(report, 'dns').fix);
  });

  void it('fails at TCP for a closed port, and for a dead proxy (named)', async () => {
    const port = await freePort();
    const closed = await check(`http://127.0.0.1:${port}`);
    assert.equal(closed.failed?.id, 'tcp');
    assert.match(step(closed, 'tcp').detail, new RegExp(`127\\.0\\.0\\.1:${port}: nothing accepts connections there \\(ECONNREFUSED\\)`));
    const dead = await check(secure.url, { proxy: `http://127.0.0.1:${port}` });
    assert.match(step(dead, 'tcp').detail, /Could not connect to the proxy http:\/\/127\.0\.0\.1:\d+/);
    assert.match(step(dead, 'tcp').fix ?? '', /http\.proxy names its host and port/);
  });

  void it('fails at TLS when the port speaks plain http', async () => {
    const report = await check(plain.url.replace('http:', 'https:'));
    assert.equal(report.failed?.id, 'tls');
    assert.match(step(report, 'tls').fix ?? '', /speaks https/);
  });

  void it('reports the sign-in state: not signed in (skipped), a refused token (failed, token not shown)', async () => {
    const anonymous = await check(plain.url);
    assert.equal(anonymous.ok, true);
    assert.match(step(anonymous, 'auth').detail, /^Not signed in/);
    const refused = await check(plain.url, {}, 'wrong-token-123456');
    assert.equal(refused.failed?.id, 'auth');
    assert.match(step(refused, 'auth').detail, /refused the stored token \(401\)/);
    assert.match(step(refused, 'auth').fix ?? '', /Sign In/);
    assert.doesNotMatch(JSON.stringify(refused), /wrong-token-123456/);
  });

  void it('fails at the configuration for a base URL or CA bundle that cannot be used, and runs nothing else', async () => {
    const insecure = await check('http://platform.example.com');
    assert.equal(insecure.failed?.id, 'configuration');
    assert.match(step(insecure, 'configuration').detail, /plain http/);
    assert.ok(insecure.steps.slice(1).every((s) => s.status === 'skipped' && /earlier step failed/.test(s.detail)));
    const noBundle = await check(secure.url, { caBundlePath: `${ca.dir}/none.pem` });
    assert.match(step(noBundle, 'configuration').detail, /none\.pem \(appsecFindings\.caBundlePath\) cannot be read/);
    const badProxy = await check(secure.url, { proxy: 'ftp://proxy:21' });
    assert.equal(badProxy.failed?.id, 'proxy');
  });
});
