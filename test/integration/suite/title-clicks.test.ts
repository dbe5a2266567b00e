// The Projects view's title-bar icons, clicked in the window as a person clicks them. A click
// passes the view's focused row and its selection (a row is selected in the usual state), not
// the nothing a palette run passes; each icon must take that as "no automation input": its
// picker opens, and nothing changes before a choice. Without a selected row too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signedIn, type Fixture } from './fixture';
import { actInWindow, inEachTheme, notificationTexts, readWindow, screenshotHandshake, waitFor } from './helpers';
import { firstFindingNode } from './tree-snapshot';

const PANE = '.pane:has(> .pane-header[aria-label*="Projects"])';
const PICKER = '.quick-input-widget:visible';

for (const rowSelected of [true, false]) {
  describe(`the Projects view's title bar, clicked ${rowSelected ? 'with a row selected' : 'with no row selected'}`, () => {
    let f: Fixture;

    before(async () => {
      f = await signedIn();
      await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    });
    beforeEach(async () => {
      await vscode.commands.executeCommand('notifications.clearAll');
      const node = await firstFindingNode(f.api.trees.projects);
      await f.api.trees.projectsView.reveal(node, { select: rowSelected, focus: true, expand: true });
      if (!rowSelected) await vscode.commands.executeCommand('list.clear');
      await waitFor(() => f.api.trees.projectsView.selection.length > 0 === rowSelected, 5_000, `the view has ${rowSelected ? 'a' : 'no'} selected row`);
    });
    afterEach(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    });

    /** Clicks the icon whose tooltip is `title`, as a person does: over the view's header first, where its icons show. */
    async function clickIcon(title: string): Promise<void> {
      await actInWindow(`hover:${PANE} > .pane-header`);
      await actInWindow(`click:${PANE} > .pane-header .action-label[aria-label="${title}"]`);
    }

    /** What a failed command says: an error in the notification centre. */
    async function failures(): Promise<string[]> {
      return (await notificationTexts()).filter((t) => /failed|takes /i.test(t));
    }

    it('Filter Findings… opens its picker, and the filters stay as they were until a choice', async () => {
      const before = f.api.app.viewState.selection();
      await clickIcon('Filter Findings…');
      await waitFor(async () => (await readWindow(PICKER)).length > 0, 10_000, 'the filter picker opens');
      assert.deepEqual(f.api.app.viewState.selection(), before, 'no filter changed before a choice');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.deepEqual(f.api.app.viewState.selection(), before, 'closing the picker changes nothing');
      assert.deepEqual(await failures(), []);
      if (!rowSelected) return;
      // What the click opens, as the user sees it, light and dark.
      await inEachTheme(['light', 'dark'], async (theme) => {
        await clickIcon('Filter Findings…');
        await waitFor(async () => (await readWindow(PICKER)).length > 0, 10_000, 'the filter picker opens');
        await screenshotHandshake(`title-click-filter-${theme}`);
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      });
    });

    it('Group Findings By… opens its picker, and the grouping stays as it was until a choice', async () => {
      const before = f.api.app.viewState.groupBy();
      await clickIcon('Group Findings By…');
      await waitFor(async () => (await readWindow(PICKER)).length > 0, 10_000, 'the grouping picker opens');
      assert.equal(f.api.app.viewState.groupBy(), before);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(f.api.app.viewState.groupBy(), before);
      assert.deepEqual(await failures(), []);
    });
  });
}
