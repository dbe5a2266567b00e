// What a pasted token becomes, and which deployment a token (plus the settings) signs in to.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionError, chooseDeployment, normaliseToken } from '../../../src/core/services/session';
import type { Deployment } from '../../../src/core/model/types';

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
      `  ${TOKEN}\n`, `Bearer ${TOKEN}`, `bearer   ${TOKEN}`, `BEARER ${TOKEN}`, `"${TOKEN}"`, `'${TOKEN}'`,
      `  Bearer "${TOKEN}"  `, `"${TOKEN}"\r\n`,
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
