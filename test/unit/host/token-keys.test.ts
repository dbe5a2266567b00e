// The one token of an earlier release moves to the base URL's origin at the first start, once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adoptLegacyToken, isTokenKey, LEGACY_TOKEN_KEY, tokenKey } from '../../../src/host/token-keys';

function secrets(initial: Record<string, string>): {
  map: Map<string, string>;
  get(k: string): Promise<string | undefined>;
  store(k: string, v: string): Promise<void>;
  delete(k: string): Promise<void>;
} {
  const map = new Map(Object.entries(initial));
  return {
    map,
    get: (k) => Promise.resolve(map.get(k)),
    store: (k, v) => Promise.resolve(void map.set(k, v)),
    delete: (k) => Promise.resolve(void map.delete(k)),
  };
}

void describe('adoptLegacyToken', () => {
  test('the one token goes to the origin in settings, and the old key is gone', async () => {
    const s = secrets({ [LEGACY_TOKEN_KEY]: 'sgp_old_token_123' });
    assert.equal(await adoptLegacyToken(s, 'https://semgrep.dev'), true);
    assert.deepEqual([...s.map], [[tokenKey('https://semgrep.dev'), 'sgp_old_token_123']]);
    assert.equal(await adoptLegacyToken(s, 'https://semgrep.dev'), false, 'a second start moves nothing');
  });

  test('an origin with a token of its own keeps it; the old key is removed all the same', async () => {
    const s = secrets({ [LEGACY_TOKEN_KEY]: 'sgp_old_token_123', [tokenKey('https://a.example')]: 'sgp_own_token_456' });
    assert.equal(await adoptLegacyToken(s, 'https://a.example'), false);
    assert.deepEqual([...s.map], [[tokenKey('https://a.example'), 'sgp_own_token_456']]);
  });

  test('nothing to move, nothing written', async () => {
    const s = secrets({});
    assert.equal(await adoptLegacyToken(s, 'https://a.example'), false);
    assert.equal(s.map.size, 0);
  });

  test('a token key names its origin; the old key is not one of the keys followed', () => {
    assert.equal(tokenKey('https://a.example:8443'), 'appsecFindings.apiToken:https://a.example:8443');
    assert.ok(isTokenKey(tokenKey('https://a.example')));
    assert.ok(!isTokenKey(LEGACY_TOKEN_KEY));
    assert.ok(!isTokenKey('appsecFindings.keyringWarningShown'));
  });
});
