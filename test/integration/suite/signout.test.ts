// Sign-out forgets everything shown.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signedIn } from './fixture';
import { snapshotTree } from './tree-snapshot';

describe('sign-out', () => {
  it('clears every view, diagnostic and the status bar, and deletes the token', async () => {
    const f = await signedIn();
    assert.ok(
      vscode.languages.getDiagnostics().some(([, l]) => l.some((d) => d.source === 'AppSec')),
      'diagnostics before',
    );
    await vscode.commands.executeCommand('appsecFindings.signOut');
    assert.equal(f.api.app.session.state.kind, 'signedOut');
    assert.equal(vscode.languages.getDiagnostics().filter(([, l]) => l.some((d) => d.source === 'AppSec')).length, 0);
    assert.deepEqual(await snapshotTree(f.api.trees.projects, 1), []);
    assert.equal((await f.api.app.session.restore()).kind, 'signedOut', 'the token is gone from SecretStorage');
  });
});
