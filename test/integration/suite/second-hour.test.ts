// A new user's second hour, as a script: what used to mislead or make the user work. The filter
// picker driven from the keyboard as a user would (first the filter, then its values, then
// Apply), Clear Filters back to the defaults, and a finding opened from the tree while its
// details are focused landing beside them, not over them.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import { signedIn, type Fixture } from './fixture';
import { closePickersAndEditors, readWindow, screenshotsInThemes, waitFor } from './helpers';

const press = (command: string): Thenable<unknown> => vscode.commands.executeCommand(command);
/** Waits until the window shows the picker of this title (each step of the filter picker has its own). */
async function pickerShown(title: string): Promise<void> {
  let seen = '';
  await waitFor(
    async () => {
      seen = (await readWindow('.quick-input-widget:visible .quick-input-title')).map((t) => t.text.trim()).join(' | ');
      return seen === title;
    },
    10_000,
    () => `the picker "${title}" is shown (the window shows: "${seen}")`,
  );
}
const FACETS = 'AppSec: Filter Findings';
const STATUS_VALUES = 'AppSec: Filter Findings — Status';

describe("a new user's second hour", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(closePickersAndEditors);

  it('the filter picker: a filter, then its values, then Apply; Escape on the values goes back, not away', async function () {
    this.timeout(60_000);
    const picked = vscode.commands.executeCommand('appsecFindings.filterFindings');
    await pickerShown(FACETS);
    // The first step: Apply, Back to the defaults, then the filters (Status first).
    await screenshotsInThemes('filter-picker-facets');
    await press('workbench.action.quickOpenSelectNext'); // Back to the defaults
    await press('workbench.action.quickOpenSelectNext'); // Status
    await press('workbench.action.acceptSelectedQuickOpenItem');
    await pickerShown(STATUS_VALUES);
    // Status takes one value: Any, open (active: the one kept now), reviewing, …
    await screenshotsInThemes('filter-picker-values');
    // Escape goes back to the filters (on Status), not out of the picker.
    await press('workbench.action.closeQuickOpen');
    await pickerShown(FACETS);
    await press('workbench.action.acceptSelectedQuickOpenItem');
    await pickerShown(STATUS_VALUES);
    await press('workbench.action.quickOpenSelectNext');
    await press('workbench.action.acceptSelectedQuickOpenItem');
    await pickerShown(FACETS);
    // Back at the filters on Apply, with the value chosen: one Enter applies it.
    await press('workbench.action.acceptSelectedQuickOpenItem');
    await picked;
    assert.equal(f.api.app.viewState.selection().status, 'reviewing', 'the value picked applies');
    assert.equal(f.api.trees.projectsView.description, 'reviewing');
  });

  it('the filter picker: Back to the Defaults applies them with one Enter', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'fixed', severities: ['critical'] });
    const picked = vscode.commands.executeCommand('appsecFindings.filterFindings');
    await pickerShown(FACETS);
    await press('workbench.action.quickOpenSelectNext'); // Back to the defaults
    await press('workbench.action.acceptSelectedQuickOpenItem');
    await picked;
    assert.deepEqual(f.api.app.viewState.selection(), f.api.app.viewState.defaultSelection(), 'the defaults apply, with no second step');
    assert.equal(f.api.trees.projectsView.description, 'open');
  });

  it('Clear Filters goes back to the default filters (open findings), keeping none of the narrowing', async () => {
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'fixed', severities: ['critical'] });
    await vscode.commands.executeCommand('appsecFindings.clearFilters');
    assert.equal(f.api.trees.projectsView.description, 'open');
    const shown = f.api.app.diagnostics.current[0]?.findings ?? [];
    assert.ok(shown.length > 0 && shown.every((x) => x.status === 'open'));
  });

  it('a finding opened while its details are focused opens beside them, in two groups, not over them', async () => {
    const finding: Finding | undefined = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.location);
    assert.ok(finding);
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding }), true);
    await waitFor(
      () => vscode.window.tabGroups.activeTabGroup.tabs.some((t) => t.input instanceof vscode.TabInputWebview),
      10_000,
      'the details are the active group',
    );
    const detailsColumn = vscode.window.tabGroups.activeTabGroup.viewColumn;
    assert.equal(await vscode.commands.executeCommand('appsecFindings.openFinding', { finding }), 'editor');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    assert.notEqual(editor.viewColumn, detailsColumn, 'the code is not stacked over its details');
    assert.equal(vscode.window.tabGroups.all.length, 2, 'two groups: the code and its details');
  });
});
