// A token belongs to the origin it was given for. User settings can be changed by Settings Sync,
// a shared dotfiles repository or another extension: a base URL moved to a second platform
// finds no token there, the user is told to sign in there, and the first platform's token
// waits for the setting to point back. Two real local platforms stand for the two origins.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { generateDeployment } from '../../platform/generator';
import { startPlatformServer, type RunningPlatform } from '../../platform/server';
import { signIn, signedIn, type Fixture } from './fixture';
import { appsecDiagnosticCount, notificationTexts, restoreAfterEach, waitFor } from './helpers';

const authorizations = (server: RunningPlatform, from = 0): string[] => server.requests.slice(from).map((r) => String(r.headers.authorization ?? ''));

describe('a token per origin', () => {
  let f: Fixture;
  let second: RunningPlatform;
  const undo = restoreAfterEach();
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('appsecFindings');

  before(async () => {
    f = await signedIn();
    second = await startPlatformServer({
      data: generateDeployment({ seed: 5, projects: 1, sastPerProject: 2, scaPerProject: 0 }),
      token: 'sgp_second_platform_token_42',
    });
  });
  after(() => second.close());

  it('a base URL moved to another platform sends it no token, says where to sign in, and finds the first token again on the way back', async () => {
    undo(async () => {
      if (config().get('baseUrl') !== f.server.url) await config().update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
      if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
    });
    const firstOrigin = new URL(f.server.url).origin;
    const secondOrigin = new URL(second.url).origin;
    await vscode.commands.executeCommand('notifications.clearAll');
    await waitFor(() => appsecDiagnosticCount() > 0, 20_000, "Problems shows the first platform's findings");

    await config().update('baseUrl', second.url, vscode.ConfigurationTarget.Global);
    await waitFor(() => f.api.app.session.state.kind === 'signedOut', 10_000, 'signed out at the second origin');
    await waitFor(() => appsecDiagnosticCount() === 0, 10_000, "the first platform's findings leave Problems");
    assert.ok(!authorizations(second).some((h) => h.includes(f.server.token)), "the second platform never received the first one's token");
    let texts: string[] = [];
    await waitFor(
      async () => (texts = await notificationTexts()).some((t) => t.includes(secondOrigin)),
      10_000,
      () => `a notification names ${secondOrigin}: ${texts.join(' | ')}`,
    );
    assert.ok(
      texts.some((t) => t.includes(`sign in to ${secondOrigin}`) && t.includes(firstOrigin)),
      texts.join(' | '),
    );

    // Signed in there with its own token: the second platform hears only that one.
    await vscode.commands.executeCommand('appsecFindings.signIn', second.token);
    await waitFor(() => f.api.app.session.state.kind === 'signedIn', 10_000, 'signed in at the second platform');
    assert.equal(f.api.app.session.deployment?.slug, second.data.deployment.slug);
    const report = await vscode.commands.executeCommand<{ ok: boolean; steps: { detail?: string; summary?: string }[] }>('appsecFindings.checkConnection');
    assert.match(
      JSON.stringify(report),
      new RegExp(`The token of ${secondOrigin.replace(/[.]/g, '\\.')} is accepted`),
      'Check Connection names the origin whose token it checked',
    );
    await vscode.commands.executeCommand('appsecFindings.signOut');

    // Back at the first platform: its token was kept, so no sign-in is needed.
    const seenByFirst = f.server.requests.length;
    await config().update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
    await waitFor(() => f.api.app.session.state.kind === 'signedIn', 10_000, 'signed in again at the first origin, with its kept token');
    await waitFor(() => appsecDiagnosticCount() > 0, 20_000, "Problems shows the first platform's findings again");
    assert.ok(
      authorizations(f.server, seenByFirst).every((h) => !h.includes(second.token)),
      "the first platform never received the second one's token",
    );
    assert.ok(
      authorizations(second).every((h) => h === '' || h === `Bearer ${second.token}`),
      authorizations(second).join(', '),
    );
  });
});
