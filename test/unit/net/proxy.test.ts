// The dispatcher against a REAL proxy (Debian's tinyproxy on loopback) and the local platform
// over http and over https with a throwaway CA, through the real PlatformClient.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDispatcher, type NetworkDispatcher } from '../../../src/core/net/dispatcher';
import type { Env, NetworkSettings } from '../../../src/core/net/proxy-config';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import { freePort, startTinyproxy, type RunningTinyproxy } from '../../platform/tinyproxy';
import { makeTestCa, type TestCa } from '../../platform/tls-certs';
import { clientOn, platformError, recordingLog, smallDeployment, type RecordingLog } from './helpers';

let ca: TestCa;
let plain: RunningPlatform;
let secure: RunningPlatform;
let proxy: RunningTinyproxy;
let authProxy: RunningTinyproxy;
const dispatchers: NetworkDispatcher[] = [];
const USER = 'alice';
const PASSWORD = 'pr0xy-s3cret';

function hostPort(url: string): string {
  return new URL(url).host;
}

/** A dispatcher for these settings, closed after the file; `log` records what it wrote. */
function dispatcher(net: Partial<NetworkSettings>, env: Env = {}, log: RecordingLog = recordingLog()): NetworkDispatcher {
  const made = createDispatcher({ strictSSL: true, noProxy: [], ...net }, env, log);
  dispatchers.push(made);
  return made;
}

function deploymentsVia(server: RunningPlatform, net: Partial<NetworkSettings>, env: Env = {}, log?: RecordingLog): Promise<unknown> {
  return clientOn(server.url, server.token, dispatcher(net, env, log)).listDeployments();
}

void describe('through a real proxy (tinyproxy)', () => {
  before(async () => {
    ca = makeTestCa();
    const data = smallDeployment();
    plain = await startPlatformServer({ data });
    secure = await startPlatformServer({ data, tls: ca.server });
    const connectPorts = [Number(new URL(secure.url).port)];
    proxy = await startTinyproxy({ connectPorts });
    authProxy = await startTinyproxy({ connectPorts, basicAuth: { user: USER, password: PASSWORD } });
  });

  after(async () => {
    await Promise.all(dispatchers.map((d) => d.close()));
    await Promise.all([plain?.close(), secure?.close(), proxy?.close(), authProxy?.close()]);
    ca?.dispose();
  });

  void it('(a) sends plain-http requests to the proxy, which forwards them (its Via header reaches the platform)', async () => {
    const log = recordingLog();
    const deployments = await deploymentsVia(plain, { proxy: proxy.url }, {}, log);
    assert.ok(Array.isArray(deployments) && deployments.length === 1);
    assert.ok(proxy.requests().includes(`GET ${plain.url}/api/v1/deployments`), proxy.log());
    assert.match(String(plain.requests.at(-1)?.headers.via), new RegExp(proxy.viaName));
    assert.match(log.text(), new RegExp(`Requests to ${plain.url} go through the proxy ${proxy.url} \\(from http\\.proxy\\)`));
  });

  void it('(b) tunnels https with CONNECT and trusts the CA from appsecFindings.caBundlePath', async () => {
    const log = recordingLog();
    const deployments = await deploymentsVia(secure, { proxy: proxy.url, caBundlePath: ca.caCertPath }, {}, log);
    assert.ok(Array.isArray(deployments) && deployments.length === 1);
    assert.ok(proxy.requests().includes(`CONNECT ${hostPort(secure.url)}`), proxy.log());
    assert.equal(secure.requests.at(-1)?.headers.via, undefined, 'end-to-end TLS: the proxy could not add headers');
    assert.match(log.text(), /Trusting Node's certificate authorities and 1 certificate\(s\) from appsecFindings\.caBundlePath/);
  });

  void it('(c) without the CA fails with a certificate error naming the problem and the settings that fix it', async () => {
    const seen = secure.requests.length;
    const e = await platformError(deploymentsVia(secure, { proxy: proxy.url }), 'certificate');
    assert.match(e.message, new RegExp(`The TLS certificate of ${secure.url} \\(reached through the proxy ${proxy.url}, which may be inspecting TLS\\)`));
    assert.match(e.message, /certificate authority that is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\)/);
    assert.match(e.message, /appsecFindings\.caBundlePath/);
    assert.match(e.message, /NODE_EXTRA_CA_CERTS/);
    assert.equal(e.setting, 'appsecFindings.caBundlePath');
    assert.equal(secure.requests.length, seen, 'no request (and no token) reached the untrusted server');
  });

  void it('(d) http.noProxy and NO_PROXY send matching hosts direct; other ports still use the proxy', async () => {
    const before = proxy.requests().length;
    await deploymentsVia(plain, { proxy: proxy.url, noProxy: ['127.0.0.1'] });
    assert.equal(plain.requests.at(-1)?.headers.via, undefined);
    // A dead proxy proves the bypass: through it, the call would fail.
    const dead = `http://127.0.0.1:${await freePort()}`;
    await deploymentsVia(plain, {}, { HTTP_PROXY: dead, NO_PROXY: `localhost,${hostPort(plain.url)}` });
    await deploymentsVia(secure, { caBundlePath: ca.caCertPath }, { HTTPS_PROXY: dead, no_proxy: '127.0.0.0/8' });
    assert.equal(proxy.requests().length, before, 'the proxy saw none of these');
    await deploymentsVia(plain, { proxy: proxy.url, noProxy: ['127.0.0.1:1'] });
    assert.equal(proxy.requests().length, before + 1, 'another port of the host is not bypassed');
  });

  void it('(e) sends proxy credentials from the URL, never to the platform, never to the log', async () => {
    const withCredentials = `http://${USER}:${encodeURIComponent(PASSWORD)}@${hostPort(authProxy.url)}`;
    const log = recordingLog();
    await deploymentsVia(plain, { proxy: withCredentials }, {}, log);
    await deploymentsVia(secure, { proxy: withCredentials, caBundlePath: ca.caCertPath }, {}, log);
    assert.ok(authProxy.requests().includes(`CONNECT ${hostPort(secure.url)}`), authProxy.log());
    for (const r of [plain.requests.at(-1), secure.requests.at(-1)]) assert.equal(r?.headers['proxy-authorization'], undefined);
    assert.doesNotMatch(log.text(), new RegExp(`${PASSWORD}|${USER}`));
    assert.match(log.text(), /through the proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1/);
  });

  void it('(e) a wrong or missing password is a clear, final error (no retry), without the password', async () => {
    const wrong = `http://${USER}:wrong-${PASSWORD}@${hostPort(authProxy.url)}`;
    const before = authProxy.requests().length;
    const refused = await platformError(deploymentsVia(secure, { proxy: wrong, caBundlePath: ca.caCertPath }), 'network');
    assert.match(refused.message, /The proxy http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:\d+ \(from http\.proxy\) refused its credentials \((401|407)\)/);
    assert.doesNotMatch(refused.message, new RegExp(PASSWORD));
    assert.equal(authProxy.requests().length, before + 1, 'a refusal is not retried');
    const missing = await platformError(deploymentsVia(plain, { proxy: authProxy.url }), 'network');
    assert.match(missing.message, /asks for credentials \(407\)\. Put them in http\.proxy as http:\/\/user:password@host:port/);
  });

  void it('(f) http.proxyStrictSSL=false works without the CA, and says so in the log', async () => {
    const log = recordingLog();
    const deployments = await deploymentsVia(secure, { proxy: proxy.url, strictSSL: false }, {}, log);
    assert.ok(Array.isArray(deployments) && deployments.length === 1);
    assert.match(log.text(), /^warn http\.proxyStrictSSL is false: TLS certificates of the platform and the proxy are NOT verified/m);
  });

  void it('(g) a dead proxy is a network error naming the proxy and where it is set, without credentials', async () => {
    const port = await freePort();
    const e = await platformError(deploymentsVia(secure, { proxy: `http://bob:hunter2@127.0.0.1:${port}`, caBundlePath: ca.caCertPath }), 'network');
    assert.match(
      e.message,
      new RegExp(`Could not reach ${secure.url} through the proxy http://\\*\\*\\*:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(from http\\.proxy\\): ECONNREFUSED`),
    );
    assert.doesNotMatch(e.message, /hunter2|bob/);
    assert.equal(e.setting, 'http.proxy');
    const fromEnv = await platformError(deploymentsVia(plain, {}, { http_proxy: `127.0.0.1:${port}` }), 'network');
    assert.match(fromEnv.message, /through the proxy http:\/\/127\.0\.0\.1:\d+ \(from http_proxy\)/);
  });

  void it('refuses an invalid proxy setting at once, naming it, instead of silently going direct', async () => {
    const e = await platformError(deploymentsVia(plain, { proxy: 'socks5://127.0.0.1:1080' }), 'invalidUrl');
    assert.match(e.message, /The proxy in http\.proxy uses socks5:\/\//);
    assert.equal(e.setting, 'http.proxy');
  });
});
