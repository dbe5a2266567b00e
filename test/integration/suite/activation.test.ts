// Smoke test: the packaged extension is installed, activates and contributes what package.json says.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import pkg from '../../../package.json';
import type { activate } from '../../../src/extension';
import { readWindow, screenshotHandshake, waitFor } from './helpers';

type Api = ReturnType<typeof activate>;
const EXTENSION_ID = `${pkg.publisher}.${pkg.name}`;

describe('activation', () => {
  function extension(): vscode.Extension<Api> {
    const ext = vscode.extensions.getExtension<Api>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
    return ext;
  }

  it('is installed under its publisher and name', () => {
    assert.equal(extension().id, EXTENSION_ID);
  });

  it('activates and returns an API whose version is the repo package.json version', async () => {
    // Compared with the repo's package.json, not the installed one, so a stale .vsix fails here.
    const api = await extension().activate();
    assert.equal(extension().isActive, true);
    assert.equal(api.version, pkg.version);
  });

  it('contributes the sign-in command', () => {
    const contributes = (extension().packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes;
    const commands = contributes?.commands?.map((c) => c.command) ?? [];
    assert.ok(commands.includes('appsecFindings.signIn'), `contributed commands: ${commands.join(', ')}`);
  });

  it('shows its view container with the Projects and Policy Rules views', async () => {
    // Opening the container is declarative (package.json views): the views are shown, and say so.
    const api = await extension().activate();
    assert.ok('trees' in api, 'activated with its views');
    const { projectsView } = api.trees;
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await waitFor(() => projectsView.visible, 10_000, 'the Projects view is visible');
    const said = (await readWindow('.pane-header')).map((h) => `${h.label} ${h.text}`).join(' | ');
    for (const title of [/Projects/i, /Policy Rules/i]) assert.match(said, title, 'the window shows the view');
    await screenshotHandshake();
  });
});
