// A new user's third hour, as a script: what a user met that the suite's shorter roads did not.
// Driven through the window (keys pressed in the page) where the defect was in the window.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FilterSelection } from '../../../src/core/services/filters';
import { signIn, signedIn, type Fixture } from './fixture';
import { actInWindow, closePickersAndEditors, readWindow, screenshotsInThemes, waitFor } from './helpers';

const pickerRows = async (): Promise<string[]> => ((await readWindow('.quick-input-widget .quick-input-list .monaco-list-row')) ?? []).map((r) => `${r.label} ${r.text}`);

describe("a new user's third hour", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(closePickersAndEditors);

  it('Filter Findings with the Finding Details panel focused: the severities ticked apply', async function () {
    this.timeout(60_000);
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.severity === 'critical');
    assert.ok(finding, 'a critical code finding');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding }), true);
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputWebview, 10_000, 'the details panel has the focus');
    assert.ok(await readWindow('.monaco-workbench'), 'the launcher reads the window');
    // A click in the panel, as a user reading it makes: the focus is in the webview's page.
    await waitFor(async () => ((await readWindow('iframe.webview.ready')) ?? []).length > 0, 10_000, 'the panel is drawn');
    await actInWindow('click:iframe.webview.ready');

    const picked = Promise.resolve(vscode.commands.executeCommand<FilterSelection | undefined>('appsecFindings.filterFindings'));
    await waitFor(async () => (await pickerRows()).some((r) => r.includes('Severity')), 10_000, 'the filters are listed');
    // Apply, Back to the defaults, Status, Severity: down three, as a user's arrow keys do.
    for (let i = 0; i < 3; i++) await actInWindow('press:ArrowDown');
    await actInWindow('press:Enter');
    await waitFor(async () => (await pickerRows()).some((r) => /^critical\b/i.test(r)), 10_000, 'the severities are listed');
    await actInWindow('press:ArrowDown'); // to the first, critical
    await actInWindow('press:Space'); // ticks it
    await actInWindow('click:.quick-input-widget .monaco-button:has-text("OK")'); // the user's mouse presses OK
    await waitFor(async () => (await pickerRows()).some((r) => r.includes('Apply') && /critical/i.test(r)), 10_000, 'back at the filters, with critical kept (the picker stays though the panel had the focus)');
    await screenshotsInThemes('filter-from-details');
    for (let i = 0; i < 3; i++) await actInWindow('press:ArrowUp');
    await actInWindow('press:Enter');
    const applied = await picked;
    assert.deepEqual(applied?.severities, ['critical'], 'the choice applies');
    assert.deepEqual(f.api.app.viewState.selection().severities, ['critical']);
  });
  it('a first load drawn as its pages arrive brings no "new findings" notice when it ends', async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('appsecFindings.signOut');
    const causes: string[] = [];
    const listening = f.api.app.diagnostics.onDidChange(({ cause }) => causes.push(cause));
    const marker = `third hour: sign-in ${Date.now()}`;
    f.api.app.logger('ThirdHour').info(marker);
    // Small, slow pages: the first ones are drawn before the load ends.
    f.server.setMaxPageSize(5);
    f.server.setLatency(150);
    try {
      await signIn(f);
      await waitFor(() => causes.includes('refresh'), 60_000, 'the refresh is drawn');
    } finally {
      listening.dispose();
      f.server.setMaxPageSize(undefined);
      f.server.setLatency(0);
    }
    assert.ok(causes.includes('arriving'), `pages were drawn as they arrived (drawn: ${causes.join(', ')})`);
    const lines = f.api.app.log.recent();
    const after = lines.slice(lines.lastIndexOf(`[ThirdHour] ${marker}`) + 1);
    assert.deepEqual(after.filter((line) => line.includes('New findings:')), [], 'the first load is not news');
  });
});
