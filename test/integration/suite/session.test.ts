// Sign-in: the token is checked against the platform, kept only in SecretStorage, and a bad one
// changes nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fixture, signedOut, signIn } from './fixture';
import { snapshotTree } from './tree-snapshot';

describe('sign-in', () => {
  it('signed out: no projects, the welcome view', async () => {
    const f = await signedOut();
    assert.equal(f.api.app.session.state.kind, 'signedOut');
    assert.deepEqual(await snapshotTree(f.api.trees.projects, 1), []);
  });

  it('refuses a token the platform rejects and stores nothing', async () => {
    const f = await signedOut();
    const before = f.server.requests.length;
    const result = await vscode.commands.executeCommand('appsecFindings.signIn', 'not-the-right-token-123');
    assert.equal(result, undefined);
    assert.equal(f.api.app.session.state.kind, 'signedOut');
    const asked = f.server.requests.slice(before);
    assert.ok(
      asked.some((r) => r.path === '/api/v1/deployments' && r.headers.authorization === 'Bearer not-the-right-token-123'),
      'the candidate token was checked',
    );
    assert.equal(await f.api.app.session.restore(), f.api.app.session.state);
    assert.equal(f.api.app.session.state.kind, 'signedOut', 'nothing was stored');
  });

  it('signs in with a valid token and finds the deployment from it', async () => {
    const f = await fixture();
    await signIn(f);
    const deployment = f.api.app.session.deployment;
    assert.equal(deployment?.id, String(f.data.deployment.id));
    assert.equal(deployment?.slug, f.data.deployment.slug);
    // Restoring reads the token back from SecretStorage.
    const restored = await f.api.app.session.restore();
    assert.equal(restored.kind, 'signedIn');
  });

  it('never writes the token to settings or logs', async () => {
    const f = await fixture();
    const settings = JSON.stringify(vscode.workspace.getConfiguration('appsecFindings'));
    assert.ok(!settings.includes(f.server.token), 'token in appsecFindings settings');
    for (const key of ['baseUrl', 'deploymentId', 'deploymentSlug']) {
      const inspected = vscode.workspace.getConfiguration('appsecFindings').inspect(key);
      assert.ok(!JSON.stringify(inspected).includes(f.server.token), `token in ${key}`);
    }
    assert.equal(f.api.app.log.redact(`Authorization: Bearer ${f.server.token}`).includes(f.server.token), false);
  });
});
