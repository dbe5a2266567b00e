// The words users get for certificate and proxy failures that the real servers in the other
// files cannot easily produce (an expired certificate, a proxy timing out or answering 502).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorFromTransport, isTransientNetworkError } from '../../../src/core/api/transportErrors';
import { certificateCodeIn, explainCertificate } from '../../../src/core/net/certificate-problems';
import { proxyFor } from '../../../src/core/net/proxy-config';
import { proxyStatusIn, ViaProxyError } from '../../../src/core/net/proxy-error';
import { loadTrust } from '../../../src/core/net/trust';

const origin = 'https://semgrep.dev';
const withCode = (code: string, message = `failed ${code}`): Error => Object.assign(new Error(message), { code });

function via(cause: Error, proxy = 'http://u:p@proxy.corp:3128'): ViaProxyError {
  const decision = proxyFor(new URL(origin), { strictSSL: true, noProxy: [], proxy }, {});
  if (decision.kind !== 'proxy') throw new Error('expected a proxy');
  return new ViaProxyError(decision.proxy, cause);
}

void describe('certificate explanations', () => {
  void it('gives the fix that helps for each kind of problem, never "turn verification off"', () => {
    assert.match(explainCertificate('DEPTH_ZERO_SELF_SIGNED_CERT').problem, /^is self-signed/);
    assert.match(explainCertificate('SELF_SIGNED_CERT_IN_CHAIN').problem, /chains to a self-signed certificate authority/);
    const expired = explainCertificate('CERT_HAS_EXPIRED');
    assert.match(expired.problem, /^is expired/);
    assert.match(expired.fix, /date and time .*\(a CA bundle does not help\)/);
    assert.match(explainCertificate('CERT_NOT_YET_VALID').problem, /^is not valid yet/);
    assert.match(explainCertificate('CERT_REVOKED').problem, /^could not be verified \(CERT_REVOKED\)/);
    for (const code of ['CERT_HAS_EXPIRED', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_CERT_ALTNAME_INVALID']) {
      assert.doesNotMatch(explainCertificate(code).fix, /StrictSSL|rejectUnauthorized/i);
    }
  });

  void it("finds the certificate code below undici's proxy wrapper", () => {
    const wrapped = Object.assign(new Error('tls through proxy'), { code: 'UND_ERR_PRX_TLS', cause: withCode('ERR_TLS_CERT_ALTNAME_INVALID') });
    assert.equal(certificateCodeIn(wrapped), 'ERR_TLS_CERT_ALTNAME_INVALID');
    const e = errorFromTransport(via(wrapped), origin, undefined);
    assert.equal(e.reason, 'certificate');
    assert.match(
      e.message,
      /reached through the proxy http:\/\/\*\*\*:\*\*\*@proxy\.corp:3128, which may be inspecting TLS\) was issued for another host name/,
    );
    assert.equal(certificateCodeIn(withCode('ECONNRESET')), undefined);
  });
});

void describe('proxy failures', () => {
  void it("reads the proxy's status from undici's messages", () => {
    assert.equal(proxyStatusIn('Proxy response (407) !== 200 when HTTP Tunneling'), 407);
    assert.equal(proxyStatusIn('Proxy Authentication Required (407)'), 407);
    assert.equal(proxyStatusIn('socket hang up'), undefined);
  });

  void it('a proxy that cannot reach the platform (502) is retried; a refusal (401/403/407) is final', () => {
    const bad = errorFromTransport(via(withCode('UND_ERR_ABORTED', 'Proxy response (502) !== 200 when HTTP Tunneling')), origin, undefined);
    assert.match(
      bad.message,
      /^The proxy http:\/\/\*\*\*:\*\*\*@proxy\.corp:3128 \(from http\.proxy\) could not open a connection to https:\/\/semgrep\.dev \(502\)/,
    );
    assert.equal(isTransientNetworkError(bad), true);
    for (const status of [401, 403, 407]) {
      const refused = errorFromTransport(via(withCode('UND_ERR_ABORTED', `Proxy response (${status}) !== 200 when HTTP Tunneling`)), origin, undefined);
      assert.equal(isTransientNetworkError(refused), false, String(status));
    }
  });

  void it('a timeout through a proxy says which proxy', () => {
    const e = errorFromTransport(via(withCode('UND_ERR_CONNECT_TIMEOUT'), 'http://proxy.corp:3128'), origin, undefined);
    assert.equal(e.reason, 'timeout');
    assert.match(e.message, /did not answer in time through the proxy http:\/\/proxy\.corp:3128 \(from http\.proxy\)/);
  });

  void it('a proxy from an environment variable gets no "Open Setting" (a variable is not a setting)', () => {
    const decision = proxyFor(new URL(origin), { strictSSL: true, noProxy: [] }, { HTTPS_PROXY: 'http://proxy.corp:3128' });
    assert.equal(decision.kind, 'proxy');
    if (decision.kind !== 'proxy') return;
    const e = errorFromTransport(new ViaProxyError(decision.proxy, withCode('ECONNREFUSED')), origin, undefined);
    assert.match(e.message, /\(from HTTPS_PROXY\)/);
    assert.equal(e.setting, undefined);
  });
});

void describe('trust', () => {
  const pem = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----';

  void it("keeps Node's defaults untouched without a bundle setting", () => {
    const trust = loadTrust({ strictSSL: true, noProxy: [] }, {}, () => pem);
    assert.equal(trust.ca, undefined);
    assert.deepEqual([trust.extras, trust.problems, trust.warnings], [[], [], []]);
  });

  void it('counts every certificate of a bundle and drops duplicates', () => {
    const trust = loadTrust({ strictSSL: true, noProxy: [], caBundlePath: '/b.pem' }, { NODE_EXTRA_CA_CERTS: '/e.pem' }, () => `${pem}\n${pem}`);
    assert.deepEqual(trust.extras, ['2 certificate(s) from NODE_EXTRA_CA_CERTS (/e.pem)', '2 certificate(s) from appsecFindings.caBundlePath (/b.pem)']);
    assert.equal(trust.ca?.filter((c) => c === pem).length, 1);
  });
});
