// Session behaviour that needs no platform: an unusable base URL.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Session } from '../../../src/core/services/session';

describe('Session.api with an unusable base URL', () => {
  test('every call rejects with the reason instead of throwing synchronously', async () => {
    const refused = new Error('The base URL http://x.example uses plain http');
    const tokens = {
      get: () => Promise.resolve('tok-12345678'),
      store: () => Promise.resolve(),
      delete: () => Promise.resolve(),
      onDidChange: () => ({ dispose: () => undefined }),
    };
    const memory = { get: () => undefined, set: () => Promise.resolve() };
    const session = new Session(
      tokens,
      () => {
        throw refused;
      },
      () => ({ deploymentId: '', deploymentSlug: '' }),
      memory,
      () => 'https://x.example',
    );
    const api = session.api; // must not throw
    await assert.rejects(api.listProjects('acme'), refused);
    await assert.rejects(api.getProject('acme', 'a/b'), refused);
    const pages = api.findings('acme', 'sast', {})[Symbol.asyncIterator]();
    await assert.rejects(pages.next(), refused);
  });
});
