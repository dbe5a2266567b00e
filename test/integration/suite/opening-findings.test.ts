// A finding opened in the editor shows its line from the start, even in a narrow editor (its
// details beside it): VS Code reveals a selection on one line sideways, as far as its end, which
// hid the indentation and the code before the finding (the demo's src/db.js opened so beside the
// SQL injection's details). What the window shows is read from the page: the editor's lines are
// drawn shifted left by as much as the editor is scrolled sideways.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import { signedIn, type Fixture } from './fixture';
import { closePickersAndEditors, readWindow, screenshotsInThemes, waitFor } from './helpers';

/** The code editors' lines in the window; `left: -Npx` when scrolled sideways. */
const EDITOR_LINES = '.editor-group-container .editor-instance .monaco-editor .lines-content';

describe('opening a finding', () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  after(closePickersAndEditors);

  it("in a narrow editor beside its details, the finding's line shows from its start, its range selected", async () => {
    const finding: Finding | undefined = f.api.app.diagnostics.current[0]?.findings.find(
      (x) =>
        x.issueType === 'sast' && x.location && (x.location.endLine === undefined || x.location.endLine === x.location.line) && (x.location.column ?? 1) > 1,
    );
    assert.ok(finding, "a code finding on one line, not at its line's start");
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding }), true);
    await waitFor(
      () => vscode.window.tabGroups.activeTabGroup.tabs.some((t) => t.input instanceof vscode.TabInputWebview),
      10_000,
      'the details are the active group',
    );
    assert.equal(await vscode.commands.executeCommand('appsecFindings.openFinding', { finding }), 'editor');
    const codeColumn = vscode.window.activeTextEditor?.viewColumn;
    assert.ok(codeColumn !== undefined && vscode.window.tabGroups.all.length === 2, 'the code beside its details');
    // The code's group narrow: a few columns of text.
    const sizes = vscode.window.tabGroups.all.map((g) => ({ size: g.viewColumn === codeColumn ? 0.12 : 0.88 }));
    await vscode.commands.executeCommand('vscode.setEditorLayout', { orientation: 0, groups: sizes });
    // Opened again, as a user clicks it in the tree.
    assert.equal(await vscode.commands.executeCommand('appsecFindings.openFinding', { finding }), 'editor');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor);
    const line = (finding.location?.line ?? 0) - 1;
    assert.equal(editor.selection.start.line, line, "the finding's line is selected");
    assert.ok(
      editor.selection.end.character > editor.selection.start.character || editor.selection.start.character > 0,
      'the selection is along the line, as VS Code reveals sideways',
    );
    // Another text editor left visible by an earlier test is read too: none may be scrolled sideways.
    let drawn = 0;
    await waitFor(
      async () => (drawn = (await readWindow(EDITOR_LINES)).length) >= 1,
      15_000,
      () => `the window draws the code editor (${drawn} drawn)`,
    );
    // The window scrolls to a revealed range in a later frame, and the extension host hears no
    // event for horizontal scrolling: half a second is given to it before reading its position.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const scrolled = await readWindow(`${EDITOR_LINES}[style*="left: -"]`);
    await screenshotsInThemes('finding-opened-narrow', ['light']);
    assert.deepEqual(scrolled, [], 'the code editor is not scrolled sideways: its lines show from their start');
  });
});
