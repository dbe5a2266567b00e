// A large organization's project list takes many slow pages. The workspace's project is known
// from its git remote, so the tree shows it at once, above the word that the others are coming.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signedIn, signIn } from './fixture';
import { restoreAfterEach, screenshotsInThemes, waitFor } from './helpers';

describe('a project list that is slow to come', () => {
  const undo = restoreAfterEach();

  it('shows the workspace project at once, above "Loading projects…", and the whole list once it comes', async () => {
    const f = await signedIn();
    const tree = f.api.trees.projects;
    // What the tree shows now, without waiting for any load (as the view draws it).
    const rows = (): string[] =>
      tree.getChildren().map((node) => {
        const label = tree.getTreeItem(node).label;
        return typeof label === 'string' ? label : (label?.label ?? '');
      });
    await vscode.commands.executeCommand('appsecFindings.signOut');
    let hanging = true;
    undo(async () => {
      if (!hanging) return;
      // Sign-out drops the hung list; the next sign-in reads it whole.
      await vscode.commands.executeCommand('appsecFindings.signOut');
      f.server.faults.clear();
      await signedIn();
    });
    // The list never answers while the picture is taken; the workspace's own project still does.
    f.server.faults.inject({ kind: 'hang' }, { method: 'GET', pathIncludes: '/projects?' }, 20);
    await signIn(f);
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await waitFor(
      () => rows().length === 2,
      10_000,
      () => `the workspace project above the loading row (shows: ${rows().join(' | ')})`,
    );
    assert.deepEqual(rows(), [f.project.name, 'Loading projects…']);
    assert.equal(f.api.app.projects.state.kind, 'loading', 'the list is still on its way');
    // Earlier tests leave rows open, which would push the loading row out of the picture.
    await vscode.commands.executeCommand('workbench.actions.treeView.appsecFindings.projects.collapseAll');
    await f.api.trees.projectsView.reveal(tree.getChildren()[0], { expand: true, select: false, focus: false });
    await screenshotsInThemes('projects-list-loading');
    assert.deepEqual(rows(), [f.project.name, 'Loading projects…'], 'still waiting after the pictures');
    // Sign-out drops the hung list; the next sign-in reads it whole.
    await vscode.commands.executeCommand('appsecFindings.signOut');
    f.server.faults.clear();
    hanging = false;
    await signedIn();
    await waitFor(
      () => rows().length === f.data.projects.length,
      15_000,
      () => `every project (shows: ${rows().join(' | ')})`,
    );
    assert.equal(rows()[0], f.project.name, 'the workspace project stays first');
  });
});
