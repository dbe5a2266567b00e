// Which proxy a request takes and when NO_PROXY / http.noProxy sends it direct. Pure decisions;
// proxy.test.ts proves the dispatcher follows them against a real proxy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchNoProxy, noProxyRules, proxyFor, redactProxyUrl, type Env, type NetworkSettings } from '../../../src/core/net/proxy-config';

const NONE: NetworkSettings = { strictSSL: true, noProxy: [] };
const https = new URL('https://semgrep.dev');

function proxyOf(target: URL, net: NetworkSettings, env: Env): string {
  const d = proxyFor(target, net, env);
  return d.kind === 'proxy'
    ? `${d.proxy.display} from ${d.proxy.source}`
    : d.kind === 'direct'
      ? `direct: ${d.reason.english}`
      : `invalid: ${d.message.english}`;
}

void describe('proxy choice', () => {
  void it('goes direct when nothing is configured', () => {
    assert.match(proxyOf(https, NONE, {}), /^direct: no proxy is set/);
  });

  void it('prefers http.proxy to the environment', () => {
    assert.equal(proxyOf(https, { ...NONE, proxy: 'http://setting:3128' }, { HTTPS_PROXY: 'http://env:3128' }), 'http://setting:3128 from http.proxy');
  });

  void it('reads https_proxy before HTTPS_PROXY, and falls back to the http proxy for https', () => {
    assert.equal(proxyOf(https, NONE, { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:2' }), 'http://lower:1 from https_proxy');
    assert.equal(proxyOf(https, NONE, { HTTPS_PROXY: 'http://upper:2' }), 'http://upper:2 from HTTPS_PROXY');
    assert.equal(proxyOf(https, NONE, { HTTP_PROXY: 'http://plain:3' }), 'http://plain:3 from HTTP_PROXY');
  });

  void it('uses only HTTP_PROXY/http_proxy for plain http targets', () => {
    const local = new URL('http://127.0.0.1:8080');
    assert.match(proxyOf(local, NONE, { HTTPS_PROXY: 'http://upper:2' }), /^direct/);
    assert.equal(proxyOf(local, NONE, { http_proxy: 'http://plain:3' }), 'http://plain:3 from http_proxy');
  });

  void it('assumes http:// for a proxy without scheme, as curl does', () => {
    assert.equal(proxyOf(https, NONE, { HTTPS_PROXY: 'proxy.corp:3128' }), 'http://proxy.corp:3128 from HTTPS_PROXY');
  });

  void it('redacts credentials everywhere it shows the proxy, and keeps them for the agent', () => {
    const d = proxyFor(https, { ...NONE, proxy: 'http://alice:s%40cret@proxy:8080' }, {});
    assert.equal(d.kind, 'proxy');
    if (d.kind !== 'proxy') return;
    assert.equal(d.proxy.display, 'http://***:***@proxy:8080');
    assert.equal(d.proxy.hasCredentials, true);
    assert.equal(decodeURIComponent(d.proxy.url.password), 's@cret');
    assert.equal(redactProxyUrl('not a url'), '(not a valid URL)');
    assert.equal(redactProxyUrl('http://proxy:1/'), 'http://proxy:1');
  });

  void it('refuses an unusable proxy with a message naming where it was set', () => {
    assert.match(proxyOf(https, { ...NONE, proxy: 'http://[bad' }, {}), /^invalid: The proxy in http\.proxy is not a valid URL/);
    assert.match(proxyOf(https, NONE, { HTTPS_PROXY: 'socks5://p:1080' }), /^invalid: The proxy in HTTPS_PROXY uses socks5:\/\//);
  });
});

void describe('no-proxy matching', () => {
  const cases: [target: string, entries: string, direct: boolean][] = [
    ['https://semgrep.dev', 'semgrep.dev', true],
    ['https://api.semgrep.dev', 'semgrep.dev', true],
    ['https://api.semgrep.dev', '.semgrep.dev', true],
    ['https://semgrep.dev', '.semgrep.dev', true],
    ['https://api.semgrep.dev', '*.semgrep.dev', true],
    ['https://notsemgrep.dev', 'semgrep.dev', false],
    ['https://SEMGREP.dev.', 'semgrep.DEV', true],
    ['https://semgrep.dev', 'example.com, other.org', false],
    ['https://semgrep.dev', 'example.com,*', true],
    ['https://semgrep.dev', 'semgrep.dev:443', true],
    ['https://semgrep.dev:8443', 'semgrep.dev:443', false],
    ['http://127.0.0.1:8080', '127.0.0.1', true],
    ['http://127.0.0.1:8080', '127.0.0.1:8080', true],
    ['http://127.0.0.1:8080', '127.0.0.1:9090', false],
    ['http://127.0.0.1:8080', '127.0.0.0/8', true],
    ['http://10.1.2.3', '10.0.0.0/16', false],
    ['http://localhost:8080', 'localhost', true],
    ['http://[::1]:8080', '::1', true],
    ['http://[::1]:8080', '[::1]:8080', true],
    ['http://[::1]:8080', '::1/128', true],
    ['http://127.0.0.1', '0.0.1', false],
  ];
  for (const [target, entries, direct] of cases) {
    void it(`${target} with "${entries}" goes ${direct ? 'direct' : 'through the proxy'}`, () => {
      const rules = noProxyRules({ ...NONE, noProxy: [entries] }, {});
      assert.equal(matchNoProxy(new URL(target), rules) !== undefined, direct);
    });
  }

  void it('loopback is proxied unless listed (as curl does): a proxy can be used for a local platform', () => {
    assert.equal(matchNoProxy(new URL('http://127.0.0.1:1'), noProxyRules(NONE, {})), undefined);
  });

  void it('combines http.noProxy with NO_PROXY (no_proxy first) and says which entry matched', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'semgrep.dev' };
    assert.equal(proxyOf(https, NONE, env), 'direct: semgrep.dev matches "semgrep.dev" in NO_PROXY');
    assert.match(proxyOf(https, { ...NONE, noProxy: ['.dev'] }, env), /matches "\.dev" in http\.noProxy/);
    assert.match(proxyOf(https, NONE, { ...env, no_proxy: 'other.org' }), /^http:\/\/p:1/);
  });
});
