// Signing in: what a pasted token becomes, which deployment a token (plus the settings) signs in
// to, and signing in, restoring and signing out through the real client against the local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import { Session, SessionError, chooseDeployment, normaliseToken, type DeploymentOverrides, type SessionState } from '../../../src/core/services/session';
import type { Deployment } from '../../../src/core/model/types';
import { generateDeployment } from '../../platform/generator';
import { MemoryDeploymentMemory, MemoryTokenStore, startHarness, type Harness } from './platform-harness';

const NO_OVERRIDES: DeploymentOverrides = { deploymentId: '', deploymentSlug: '' };
const ACME: Deployment = { id: '4242', name: 'Acme Corp', slug: 'acme' };

const TOKEN = 'sgp_0123456789abcdef';

function sessionError(fn: () => unknown): SessionError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof SessionError, `expected a SessionError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a SessionError');
}

void describe('normaliseToken', () => {
  void test('a clean token is kept as it is', () => {
    assert.equal(normaliseToken(TOKEN), TOKEN);
  });

  void test('what is often pasted along is removed: whitespace, a Bearer prefix, quotes', () => {
    for (const pasted of [
      `  ${TOKEN}\n`,
      `Bearer ${TOKEN}`,
      `bearer   ${TOKEN}`,
      `BEARER ${TOKEN}`,
      `"${TOKEN}"`,
      `'${TOKEN}'`,
      `  Bearer "${TOKEN}"  `,
      `"${TOKEN}"\r\n`,
    ]) {
      assert.equal(normaliseToken(pasted), TOKEN, JSON.stringify(pasted));
    }
  });

  void test('a token that merely starts with "bearer" is not cut', () => {
    assert.equal(normaliseToken('bearertoken12345'), 'bearertoken12345');
  });

  void test('an empty paste says the token is empty and where to find one', () => {
    for (const pasted of ['', '   ', 'Bearer  ""', '""', "''", ' " " ']) {
      const error = sessionError(() => normaliseToken(pasted));
      assert.equal(error.code, 'invalidToken', JSON.stringify(pasted));
      assert.match(error.message, /empty/, JSON.stringify(pasted));
    }
  });

  void test('a lone "Bearer" is refused, not stored as a token', () => {
    assert.equal(sessionError(() => normaliseToken('Bearer ')).code, 'invalidToken');
  });

  void test('spaces or line breaks inside the token are refused', () => {
    for (const pasted of ['sgp_0123 456789', 'sgp_0123456789\nsgp_0123456789', 'abc\tdefghijk']) {
      const error = sessionError(() => normaliseToken(pasted));
      assert.equal(error.code, 'invalidToken');
      assert.match(error.message, /spaces or line breaks/);
    }
  });

  void test('a token far too short or too long is refused', () => {
    assert.match(sessionError(() => normaliseToken('abc')).message, /wrong length/);
    assert.match(sessionError(() => normaliseToken('x'.repeat(4097))).message, /wrong length/);
    assert.equal(normaliseToken('x'.repeat(4096)).length, 4096);
    assert.equal(normaliseToken('12345678'), '12345678');
  });

  void test('the error never repeats the token', () => {
    const secret = 'sgp_secret secret';
    assert.ok(!sessionError(() => normaliseToken(secret)).message.includes('sgp_secret'));
  });
});

void describe('chooseDeployment', () => {
  const acme: Deployment = { id: '123', name: 'Acme', slug: 'acme' };
  const beta: Deployment = { id: '456', name: 'Beta', slug: 'beta' };
  const none = { deploymentId: '', deploymentSlug: '' };

  void test('a token that reaches one deployment signs in to it', () => {
    assert.equal(chooseDeployment([acme], none), acme);
  });

  void test('a token that reaches none says how to get a usable token', () => {
    const error = sessionError(() => chooseDeployment([], none));
    assert.equal(error.code, 'noDeployment');
    assert.match(error.message, /Web API/);
  });

  void test('a token that reaches several asks to choose one in settings, naming them', () => {
    const error = sessionError(() => chooseDeployment([acme, beta], none));
    assert.equal(error.code, 'ambiguousDeployment');
    assert.match(error.message, /2 deployments \(acme, beta\)/);
    assert.match(error.message, /appsecFindings\.deploymentSlug/);
  });

  void test('a slug or an id in settings picks among several', () => {
    assert.equal(chooseDeployment([acme, beta], { deploymentId: '', deploymentSlug: 'beta' }), beta);
    assert.equal(chooseDeployment([acme, beta], { deploymentId: '123', deploymentSlug: '' }), acme);
    assert.equal(chooseDeployment([acme, beta], { deploymentId: '456', deploymentSlug: 'beta' }), beta);
  });

  void test('a setting the token does not reach is an error naming the setting', () => {
    const bySlug = sessionError(() => chooseDeployment([acme], { deploymentId: '', deploymentSlug: 'other' }));
    assert.equal(bySlug.code, 'noDeployment');
    assert.match(bySlug.message, /\(other\)/);
    const byId = sessionError(() => chooseDeployment([acme, beta], { deploymentId: '999', deploymentSlug: '' }));
    assert.match(byId.message, /\(999\)/);
    assert.match(byId.message, /appsecFindings\.deploymentId/);
  });

  void test('an id and a slug that belong to different deployments do not pick either one', () => {
    // Both set but they disagree with every reachable deployment: trusted as given (complete overrides).
    const chosen = chooseDeployment([acme, beta], { deploymentId: '123', deploymentSlug: 'beta' });
    assert.notEqual(chosen, acme);
    assert.notEqual(chosen, beta);
    assert.deepEqual(chosen, { id: '123', slug: 'beta', name: 'beta' });
  });

  void test('complete overrides are trusted when the token lists no deployment', () => {
    assert.deepEqual(chooseDeployment([], { deploymentId: '777', deploymentSlug: 'scoped' }), { id: '777', slug: 'scoped', name: 'scoped' });
  });

  void test('a reachable deployment matching complete overrides keeps its real name', () => {
    assert.equal(chooseDeployment([beta, acme], { deploymentId: '123', deploymentSlug: 'acme' }).name, 'Acme');
  });
});

void describe('Session (real client, local platform)', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness({ data: generateDeployment({ projects: 2, sastPerProject: 0, scaPerProject: 0 }), token: 'sgp_good_token_0123456789' });
    token = h.server.token;
  });
  after(() => h.close());
  const origin = (): string => new URL(h.server.url).origin;

  interface Setup {
    readonly session: Session;
    readonly states: SessionState[];
    readonly store: MemoryTokenStore;
    readonly memory: MemoryDeploymentMemory;
  }

  function setup(options: { token?: string; overrides?: DeploymentOverrides; remembered?: Deployment } = {}): Setup {
    const store = new MemoryTokenStore(options.token, origin());
    const memory = new MemoryDeploymentMemory(options.remembered);
    const session = new Session(store, h.factory, () => options.overrides ?? NO_OVERRIDES, memory, origin);
    const states: SessionState[] = [];
    session.onDidChange((state) => states.push(state));
    return { session, states, store, memory };
  }

  void describe('signIn', () => {
    void test('a good token (pasted with a Bearer prefix and a newline) is stored clean and finds the deployment', async () => {
      const { session, states, store, memory } = setup();
      const deployment = await session.signIn(`Bearer ${token}\n`);
      assert.deepEqual(deployment, ACME);
      assert.equal(await store.get(origin()), token);
      assert.deepEqual(memory.value, ACME);
      assert.deepEqual(session.state, { kind: 'signedIn', deployment: ACME });
      assert.deepEqual(session.deployment, ACME);
      assert.deepEqual(states, [{ kind: 'signedIn', deployment: ACME }]);
      // The session's own client now signs its calls with the stored token.
      assert.equal((await session.api.listProjects('acme')).length, 2);
    });

    void test('a bad token stores nothing, keeps the previous token, and the session stays as it was', async () => {
      const { session, states, store, memory } = setup();
      await session.signIn(token);
      const mark = h.mark();
      await assert.rejects(session.signIn('sgp_wrong_token_0000000'), (e: unknown) => PlatformError.is(e, 'unauthorized'));
      assert.equal(h.requestsSince(mark, '/api/v1/deployments').length, 1, 'the candidate token was checked with the platform');
      assert.equal(await store.get(origin()), token);
      assert.deepEqual(store.writes, [`${origin()} ${token}`]);
      assert.deepEqual(memory.value, ACME);
      assert.deepEqual(session.state, { kind: 'signedIn', deployment: ACME });
      assert.equal(states.length, 1);
      // The working token still works.
      assert.equal((await session.api.listDeployments()).length, 1);
    });

    void test('a malformed token is refused before any request is made', async () => {
      const { session, store } = setup({ token });
      const mark = h.mark();
      await assert.rejects(session.signIn('two words'), (e: unknown) => e instanceof SessionError && e.code === 'invalidToken');
      assert.equal(h.mark(), mark);
      assert.equal(await store.get(origin()), token);
    });

    void test('a deployment setting the token does not reach stores nothing', async () => {
      const { session, store, memory } = setup({ overrides: { deploymentId: '', deploymentSlug: 'someone-else' } });
      await assert.rejects(session.signIn(token), (e: unknown) => e instanceof SessionError && e.code === 'noDeployment');
      assert.equal(await store.get(origin()), undefined);
      assert.equal(memory.value, undefined);
      assert.equal(session.state.kind, 'signedOut');
    });

    void test('a platform that fails (503 every time) stores nothing', async () => {
      const { session, store } = setup();
      h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: '/api/v1/deployments' }, 3);
      await assert.rejects(session.signIn(token), (e: unknown) => PlatformError.is(e, 'server'));
      assert.equal(await store.get(origin()), undefined);
      assert.equal(session.state.kind, 'signedOut');
    });
  });

  void describe('restore', () => {
    void test('a stored token and no remembered deployment: asks the platform, signs in and remembers', async () => {
      const { session, states, memory } = setup({ token });
      const mark = h.mark();
      assert.deepEqual(await session.restore(), { kind: 'signedIn', deployment: ACME });
      const asked = h.requestsSince(mark, '/api/v1/deployments');
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.headers.authorization, `Bearer ${token}`);
      assert.deepEqual(memory.value, ACME);
      assert.equal(states.length, 1);
    });

    void test('a remembered deployment needs no request', async () => {
      const { session } = setup({ token, remembered: ACME });
      const mark = h.mark();
      assert.deepEqual(await session.restore(), { kind: 'signedIn', deployment: ACME });
      assert.equal(h.mark(), mark);
    });

    void test('a remembered deployment that the settings now exclude is not used', async () => {
      const other: Deployment = { id: '1', name: 'Old', slug: 'old' };
      const { session } = setup({ token, remembered: other, overrides: { deploymentId: '', deploymentSlug: 'acme' } });
      assert.deepEqual(await session.restore(), { kind: 'signedIn', deployment: ACME });
    });

    void test('complete overrides need no request', async () => {
      const { session } = setup({ token, overrides: { deploymentId: '4242', deploymentSlug: 'acme' } });
      const mark = h.mark();
      assert.deepEqual(await session.restore(), { kind: 'signedIn', deployment: { id: '4242', slug: 'acme', name: 'acme' } });
      assert.equal(h.mark(), mark);
    });

    void test('no stored token: signed out, without a request', async () => {
      const { session, states } = setup({ remembered: ACME });
      const mark = h.mark();
      assert.deepEqual(await session.restore(), { kind: 'signedOut' });
      assert.equal(h.mark(), mark);
      assert.deepEqual(states, [{ kind: 'signedOut' }]);
    });

    void test('settings that name a deployment the token does not reach say so', async () => {
      const { session } = setup({ token, overrides: { deploymentId: '', deploymentSlug: 'elsewhere' } });
      const state = await session.restore();
      assert.equal(state.kind, 'noDeployment');
      assert.match(state.kind === 'noDeployment' ? state.message : '', /\(elsewhere\)/);
    });

    void test('a token the platform no longer accepts fails and does not claim to be signed in', async () => {
      const { session } = setup({ token: 'sgp_revoked_token_000000' });
      await assert.rejects(session.restore(), (e: unknown) => PlatformError.is(e, 'unauthorized'));
      assert.notEqual(session.state.kind, 'signedIn');
    });

    void test('a token deleted by another window signs this one out on the next restore', async () => {
      const { session, store } = setup({ token });
      await session.restore();
      await store.delete(origin());
      assert.deepEqual(await session.restore(), { kind: 'signedOut' });
      assert.equal(session.deployment, undefined);
    });
  });

  void test('resetApi makes the next call use a client built from the current settings', async () => {
    let built = 0;
    const store = new MemoryTokenStore(token, origin());
    const session = new Session(
      store,
      (getToken) => {
        built++;
        return h.factory(getToken);
      },
      () => NO_OVERRIDES,
      new MemoryDeploymentMemory(),
      origin,
    );
    assert.equal(built, 0, 'no client at construction: a bad base URL must not break activation');
    const first = session.api;
    assert.equal(session.api, first);
    session.resetApi();
    const second = session.api;
    assert.notEqual(second, first);
    assert.equal(built, 2);
    assert.equal((await second.listDeployments()).length, 1);
  });

  void describe('signOut', () => {
    void test('deletes the token and the remembered deployment; the session client then sends nothing', async () => {
      const { session, states, store, memory } = setup();
      await session.signIn(token);
      await session.signOut();
      assert.equal(await store.get(origin()), undefined);
      assert.equal(memory.value, undefined);
      assert.deepEqual(session.state, { kind: 'signedOut' });
      assert.equal(session.deployment, undefined);
      assert.deepEqual(
        states.map((x) => x.kind),
        ['signedIn', 'signedOut'],
      );
      const mark = h.mark();
      await assert.rejects(session.api.listDeployments(), (e: unknown) => PlatformError.is(e, 'unauthorized'));
      assert.equal(h.mark(), mark, 'no request without a token');
    });

    void test('after dispose, listeners hear nothing more', async () => {
      const { session, states } = setup({ token });
      session.dispose();
      await session.signOut();
      assert.deepEqual(states, []);
    });
  });
});
