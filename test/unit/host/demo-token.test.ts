// The demo's made-up token is adopted only where it cannot leak a real user's requests.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adoptDemoToken, demoTokenFor } from '../../../src/host/demo-token';
import type { TokenStore } from '../../../src/core/services/session';

/** One origin's token: the tests read `value`, kept with the origin it was stored for. */
function memoryStore(initial?: string): TokenStore & { value?: string; origin?: string } {
  const store: TokenStore & { value?: string; origin?: string } = {
    value: initial,
    get: (origin: string) => Promise.resolve(store.origin === undefined || store.origin === origin ? store.value : undefined),
    store: (origin: string, t: string) => Promise.resolve(void Object.assign(store, { value: t, origin })),
    delete: () => Promise.resolve(void (store.value = undefined)),
    onDidChange: () => ({ dispose: () => undefined }),
  };
  return store;
}
const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const env = { APPSEC_FINDINGS_DEMO_TOKEN: 'demo-token-1234' };

describe('adoptDemoToken', () => {
  test('adopts the demo token for a loopback platform with no token stored', async () => {
    for (const url of ['http://127.0.0.1:4242', 'http://localhost:8080', 'http://[::1]:1']) {
      const store = memoryStore();
      assert.equal(await adoptDemoToken(store, url, env, log), true, url);
      assert.equal(store.value, 'demo-token-1234');
      assert.equal(store.origin, new URL(url).origin, "kept for the demo platform's origin");
    }
  });

  test('never for a real platform, never over a stored token, never without the variable', async () => {
    const remote = memoryStore();
    assert.equal(await adoptDemoToken(remote, 'https://semgrep.dev', env, log), false);
    assert.equal(remote.value, undefined);
    const signedIn = memoryStore('users-own-token');
    assert.equal(await adoptDemoToken(signedIn, 'http://127.0.0.1:1', env, log), false);
    assert.equal(signedIn.value, 'users-own-token');
    assert.equal(await adoptDemoToken(memoryStore(), 'http://127.0.0.1:1', {}, log), false);
    assert.equal(await adoptDemoToken(memoryStore(), 'http://127.0.0.1.evil.example', env, log), false);
  });
});

describe('demoTokenFor (offered in the sign-in box after a sign-out in the demo)', () => {
  test('offered for the loopback demo platform only, and only with the launcher variable', () => {
    assert.equal(demoTokenFor('http://127.0.0.1:4242', env), 'demo-token-1234');
    assert.equal(demoTokenFor('https://semgrep.dev', env), undefined);
    assert.equal(demoTokenFor('http://127.0.0.1:4242', {}), undefined);
    assert.equal(demoTokenFor('not a url', env), undefined);
  });
});
