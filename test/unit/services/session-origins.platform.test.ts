// A token belongs to the origin it was given for: a base URL changed to another origin (by
// Settings Sync, a dotfiles repository, another extension) never carries it there. Two real
// local platforms stand for the two origins.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { parseBaseUrl } from '../../../src/core/api/baseUrl';
import { Session } from '../../../src/core/services/session';
import { generateDeployment } from '../../platform/generator';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import { MemoryDeploymentMemory, MemoryTokenStore } from './platform-harness';

const NO_OVERRIDES = { deploymentId: '', deploymentSlug: '' };

void describe('Session: a token per origin (two local platforms)', () => {
  let a: RunningPlatform;
  let b: RunningPlatform;
  const clients: PlatformClient[] = [];
  before(async () => {
    a = await startPlatformServer({ data: generateDeployment({ projects: 1, sastPerProject: 0, scaPerProject: 0 }), token: 'sgp_token_of_a_0123456789' });
    b = await startPlatformServer({ data: generateDeployment({ projects: 1, sastPerProject: 0, scaPerProject: 0 }), token: 'sgp_token_of_b_0123456789' });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([a.close(), b.close()]);
  });

  /** A session whose base URL setting is `setting.url`, changed by the test as a user's settings change. */
  function sessionAt(first: string): { session: Session; store: MemoryTokenStore; setting: { url: string } } {
    const setting = { url: first };
    const store = new MemoryTokenStore();
    const session = new Session(
      store,
      (getToken) => {
        const client = new PlatformClient({ baseUrl: setting.url, extensionVersion: '0.0.0-test', getToken, retryPolicy: { maxRetries: 0 } });
        clients.push(client);
        return client;
      },
      () => NO_OVERRIDES,
      new MemoryDeploymentMemory(),
      () => parseBaseUrl(setting.url).origin,
    );
    return { session, store, setting };
  }

  const authorizations = (server: RunningPlatform): string[] => server.requests.map((r) => String(r.headers.authorization ?? ''));

  test('a base URL changed to another origin signs out without sending the token there; switching back finds it again', async () => {
    const { session, store, setting } = sessionAt(a.url);
    await session.signIn(a.token);
    assert.equal(session.state.kind, 'signedIn');

    const seenByB = b.requests.length;
    setting.url = b.url;
    session.resetApi();
    assert.deepEqual(await session.restore(), { kind: 'signedOut' }, 'the new origin has no token of its own');
    await assert.rejects(session.api.listDeployments());
    assert.ok(
      !authorizations(b)
        .slice(seenByB)
        .some((h) => h.includes(a.token)),
      "B never received A's token",
    );
    assert.equal(await store.get(new URL(a.url).origin), a.token, "A's token stays for when the setting points back");

    await session.signIn(b.token);
    assert.equal(session.state.kind, 'signedIn');
    setting.url = a.url;
    session.resetApi();
    assert.equal((await session.restore()).kind, 'signedIn', "back at A, signed in with A's token, no new sign-in");
    assert.ok(
      authorizations(a).every((h) => !h.includes(b.token)),
      "A never received B's token",
    );
    assert.ok(
      authorizations(b).every((h) => !h.includes(a.token)),
      "B never received A's token",
    );
  });

  test("a client built before the setting changed still asks for its own origin's token", async () => {
    const { session, setting } = sessionAt(a.url);
    await session.signIn(a.token);
    const built = session.api;
    await session.signIn(a.token);
    // The setting moves on while this client still has requests to make.
    setting.url = b.url;
    const seen = a.requests.length;
    await built.listDeployments();
    assert.deepEqual(authorizations(a).slice(seen), [`Bearer ${a.token}`]);
  });

  test('Sign Out deletes the token of the origin in use only', async () => {
    const { session, store, setting } = sessionAt(a.url);
    await session.signIn(a.token);
    setting.url = b.url;
    session.resetApi();
    await session.signIn(b.token);
    await session.signOut();
    assert.equal(await store.get(new URL(b.url).origin), undefined, "B's token is gone");
    assert.equal(await store.get(new URL(a.url).origin), a.token, "A's token stays");
    setting.url = a.url;
    session.resetApi();
    assert.equal((await session.restore()).kind, 'signedIn');
  });

  test('an unusable base URL signs in nowhere and sends nothing', async () => {
    const { session, store, setting } = sessionAt(a.url);
    setting.url = 'http://platform.example';
    const seen = a.requests.length + b.requests.length;
    await assert.rejects(session.signIn(a.token), /plain http/);
    assert.equal(a.requests.length + b.requests.length, seen);
    assert.deepEqual(store.writes, []);
  });
});
