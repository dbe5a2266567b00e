// A new user's third hour, as a script: what a user met that the suite's shorter roads did not.
// Driven through the window (keys pressed in the page) where the defect was in the window.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { generateDeployment } from '../../platform/generator';
import { startPlatformServer } from '../../platform/server';
import { signIn, signedIn, type Fixture, type Snap } from './fixture';
import { actInWindow, appsecDiagnosticCount, closePickersAndEditors, readWindow, restoreAfterEach, screenshotsInThemes, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

describe("a new user's third hour", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(closePickersAndEditors);
  const undo = restoreAfterEach();

  it('a first load drawn as its pages arrive brings no "new findings" notice when it ends', async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('appsecFindings.signOut');
    const causes: string[] = [];
    const listening = f.api.app.diagnostics.onDidChange(({ cause }) => causes.push(cause));
    const marker = `third hour: sign-in ${Date.now()}`;
    f.api.app.logger('ThirdHour').info(marker);
    // Small, slow pages: the first ones are drawn before the load ends.
    undo(() => {
      listening.dispose();
      f.server.setMaxPageSize(undefined);
      f.server.setLatency(0);
    });
    f.server.setMaxPageSize(5);
    f.server.setLatency(150);
    await signIn(f);
    await waitFor(() => causes.includes('refresh'), 60_000, 'the refresh is drawn');
    assert.ok(causes.includes('arriving'), `pages were drawn as they arrived (drawn: ${causes.join(', ')})`);
    const lines = f.api.app.log.recent();
    const after = lines.slice(lines.lastIndexOf(`[ThirdHour] ${marker}`) + 1);
    assert.deepEqual(
      after.filter((line) => line.includes('New findings:')),
      [],
      'the first load is not news',
    );
  });

  it('changing appsecFindings.baseUrl shows the deployment there at once, and changing it back shows this one again', async function () {
    this.timeout(120_000);
    const config = vscode.workspace.getConfiguration('appsecFindings');
    const other = await startPlatformServer({
      data: generateDeployment({ seed: 44, projects: 2, sastPerProject: 5, scaPerProject: 1, deploymentSlug: 'other-org' }),
      token: f.server.token,
    });
    const projectNames = async (): Promise<string[]> => ((await snapshotTree(f.api.trees.projects, 1)) as Snap[]).map((p) => p.label);
    const ours = f.data.projects.map((p) => p.name);
    undo(async () => {
      // Put back by the test itself when it gets that far.
      if (vscode.workspace.getConfiguration('appsecFindings').get('baseUrl') !== f.server.url)
        await config.update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
      if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
      await other.close();
    });
    assert.ok(appsecDiagnosticCount() > 0, "Problems shows this deployment's findings first");
    await config.update('baseUrl', other.url, vscode.ConfigurationTarget.Global);
    // No refresh is asked for: the setting alone moves the views. A token belongs to the origin it
    // was given for (token-origin.test.ts): the new address asks for a sign-in of its own.
    await waitFor(() => f.api.app.session.state.kind === 'signedOut', 20_000, 'signed out at the new address, which has no token yet');
    await waitFor(() => appsecDiagnosticCount() === 0, 20_000, "Problems drops the first deployment's findings");
    await vscode.commands.executeCommand('appsecFindings.signIn', other.token);
    await waitFor(() => f.api.app.session.deployment?.slug === 'other-org', 20_000, 'signed in to the deployment at the new address');
    assert.equal(appsecDiagnosticCount(), 0, 'this folder is not a project there');
    await waitFor(
      async () => (await projectNames()).some((n) => other.data.projects.some((p) => p.name === n)),
      20_000,
      "the tree lists the new deployment's projects",
    );
    assert.deepEqual(
      (await projectNames()).filter((n) => ours.includes(n) && !other.data.projects.some((p) => p.name === n)),
      [],
      "none of the first deployment's projects stay",
    );
    // Signed out there (its token deleted), then back: the first address's token was kept.
    await vscode.commands.executeCommand('appsecFindings.signOut');
    await config.update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
    await waitFor(() => f.api.app.session.deployment?.slug === f.data.deployment.slug, 20_000, 'back on the first deployment, signed in with its kept token');
    await waitFor(() => appsecDiagnosticCount() > 0 && f.api.app.diagnostics.currentCause !== 'arriving', 30_000, 'its findings are back in Problems');
    await waitFor(async () => (await projectNames()).some((n) => ours.includes(n)), 20_000, 'and its projects in the tree');
  });
});

describe("a new user's third hour: Edit Tags by hand", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(closePickersAndEditors);
  const undo = restoreAfterEach();
  const rows = (): Promise<{ label: string; text: string }[]> => readWindow('.quick-input-widget:visible .quick-input-list .monaco-list-row');
  let lastRows: unknown;
  const rowOf = async (tag: string): Promise<string> => {
    const all = await rows();
    lastRows = all;
    return all.find((r) => r.text.trim().startsWith(tag))?.text ?? '';
  };

  /** Opens the picker on the project with two tags of its own; `edited` is the command's promise. */
  async function openWithTags(): Promise<{ edited: Promise<unknown> }> {
    const name = f.project.name;
    const original = [...f.project.tags];
    undo(() =>
      vscode.commands.executeCommand('appsecFindings.editTags', name, {
        add: original.filter((t) => !f.project.tags.includes(t)),
        remove: f.project.tags.filter((t) => !original.includes(t)),
      }),
    );
    await vscode.commands.executeCommand('appsecFindings.editTags', name, { add: ['legacy-q', 'keep-q'] });
    const edited = Promise.resolve(vscode.commands.executeCommand('appsecFindings.editTags', name));
    await waitFor(
      async () => /kept/.test(await rowOf('legacy-q')),
      10_000,
      () => `the picker lists the tags, kept (shows ${JSON.stringify(lastRows)})`,
    );
    return { edited };
  }

  it('a click on a tag marks it removed and leaves the focus in the text: a tag typed next is added (screenshot)', async function () {
    this.timeout(60_000);
    const { edited } = await openWithTags();
    assert.equal(
      (await readWindow('.quick-input-widget:visible .quick-input-list .monaco-checkbox')).length,
      0,
      'no checkbox, which would take the focus from the text',
    );
    await actInWindow('click:.quick-input-widget:visible .quick-input-list .monaco-list-row:has-text("legacy-q")');
    await waitFor(async () => /removed when you save/.test(await rowOf('legacy-q')), 5_000, 'legacy-q says it will be removed');
    for (const key of 'typed-q') await actInWindow(`press:${key}`);
    await waitFor(
      async () => (await rows()).some((r) => /Add: typed-q/.test(r.text) && /removes legacy-q/.test(r.text)),
      5_000,
      'the first row adds the typed tag and says what saving removes',
    );
    assert.match(await rowOf('keep-q'), /kept/, 'the other tag is kept');
    await screenshotsInThemes('edit-tags-typed-after-click');
    await actInWindow('press:Enter');
    await edited;
    await waitFor(
      () => f.project.tags.includes('typed-q'),
      10_000,
      () => `the typed tag is added (the platform has: ${f.project.tags.join(', ')})`,
    );
    assert.ok(!f.project.tags.includes('legacy-q'), 'the clicked tag is removed');
    assert.ok(f.project.tags.includes('keep-q'), 'the other tag stays');
  });

  it('with the keyboard: Enter on a tag switches it, a second Enter keeps it again, Enter on the first row saves', async function () {
    this.timeout(60_000);
    const { edited } = await openWithTags();
    const down = (await rows()).findIndex((r) => r.text.trim().startsWith('legacy-q'));
    for (let i = 0; i < down; i++) await actInWindow('press:ArrowDown');
    await actInWindow('press:Enter');
    await waitFor(async () => /removed when you save/.test(await rowOf('legacy-q')), 5_000, 'Enter marks it removed');
    await actInWindow('press:Enter');
    await waitFor(async () => /kept/.test(await rowOf('legacy-q')), 5_000, 'the row stays active: Enter again keeps it');
    await actInWindow('press:Enter');
    await waitFor(async () => /removed when you save/.test(await rowOf('legacy-q')), 5_000, 'and removed again');
    for (const key of 'kb-q') await actInWindow(`press:${key}`);
    await waitFor(async () => (await rows()).some((r) => /Add: kb-q/.test(r.text)), 5_000, 'typing goes to the text');
    await actInWindow('press:Enter');
    await edited;
    await waitFor(
      () => f.project.tags.includes('kb-q') && !f.project.tags.includes('legacy-q'),
      10_000,
      () => `saved (the platform has: ${f.project.tags.join(', ')})`,
    );
  });
});
