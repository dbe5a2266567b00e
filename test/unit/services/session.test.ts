// Signing in, restoring and signing out, through the real client against the local platform.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import { Session, SessionError, type DeploymentOverrides, type SessionState } from '../../../src/core/services/session';
import type { Deployment } from '../../../src/core/model/types';
import { generateDeployment } from '../../platform/generator';
import { MemoryDeploymentMemory, MemoryTokenStore, startHarness, type Harness } from './platform-harness';

const NO_OVERRIDES: DeploymentOverrides = { deploymentId: '', deploymentSlug: '' };
const ACME: Deployment = { id: '4242', name: 'Acme Corp', slug: 'acme' };

void describe('Session (real client, local platform)', () => {
  let h: Harness;
  let token: string;
  before(async () => {
    h = await startHarness({ data: generateDeployment({ projects: 2, sastPerProject: 0, scaPerProject: 0 }), token: 'sgp_good_token_0123456789' });
    token = h.server.token;
  });
  after(() => h.close());

  interface Setup {
    readonly session: Session;
    readonly states: SessionState[];
    readonly store: MemoryTokenStore;
    readonly memory: MemoryDeploymentMemory;
  }

  function setup(options: { token?: string; overrides?: DeploymentOverrides; remembered?: Deployment } = {}): Setup {
    const store = new MemoryTokenStore(options.token);
    const memory = new MemoryDeploymentMemory(options.remembered);
    const session = new Session(store, h.factory, () => options.overrides ?? NO_OVERRIDES, memory);
    const states: SessionState[] = [];
    session.onDidChange((state) => states.push(state));
    return { session, states, store, memory };
  }

  void describe('signIn', () => {
    void test('a good token (pasted with a Bearer prefix and a newline) is stored clean and finds the deployment', async () => {
      const { session, states, store, memory } = setup();
      const deployment = await session.signIn(`Bearer ${token}\n`);
      assert.deepEqual(deployment, ACME);
      assert.equal(await store.get(), token);
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
      assert.equal(await store.get(), token);
      assert.deepEqual(store.writes, [token]);
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
      assert.equal(await store.get(), token);
    });

    void test('a deployment setting the token does not reach stores nothing', async () => {
      const { session, store, memory } = setup({ overrides: { deploymentId: '', deploymentSlug: 'someone-else' } });
      await assert.rejects(session.signIn(token), (e: unknown) => e instanceof SessionError && e.code === 'noDeployment');
      assert.equal(await store.get(), undefined);
      assert.equal(memory.value, undefined);
      assert.equal(session.state.kind, 'signedOut');
    });

    void test('a platform that fails (503 every time) stores nothing', async () => {
      const { session, store } = setup();
      h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: '/api/v1/deployments' }, 3);
      await assert.rejects(session.signIn(token), (e: unknown) => PlatformError.is(e, 'server'));
      assert.equal(await store.get(), undefined);
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
      await store.delete();
      assert.deepEqual(await session.restore(), { kind: 'signedOut' });
      assert.equal(session.deployment, undefined);
    });
  });

  void describe('signOut', () => {
    void test('deletes the token and the remembered deployment; the session client then sends nothing', async () => {
      const { session, states, store, memory } = setup();
      await session.signIn(token);
      await session.signOut();
      assert.equal(await store.get(), undefined);
      assert.equal(memory.value, undefined);
      assert.deepEqual(session.state, { kind: 'signedOut' });
      assert.equal(session.deployment, undefined);
      assert.deepEqual(states.map((x) => x.kind), ['signedIn', 'signedOut']);
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
