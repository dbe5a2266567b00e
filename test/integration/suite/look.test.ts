// What a user sees, in light, dark and high contrast: the Projects view (badge, supply-chain names, severity
// icons), a file with its squiggles and Problems. Screenshots land in test-results/screenshots/
// for a person to look at; the asserts check what the pictures are meant to show.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, issueTypeNode, signedIn } from './fixture';
import { screenshotsInThemes } from './helpers';
import { firstFindingNode, snapshotTree } from './tree-snapshot';

describe('the look, light and dark', () => {
  before(async () => {
    await signedIn();
  });

  it('shows the Projects view with its badge, Problems and a file with squiggles, in both themes', async function () {
    // Four themes, each repainted before its picture: longer than mocha's default.
    this.timeout(60_000);
    const f = await signedIn();
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const supply = findingNodes(await issueTypeNode(f, /^Supply-chain findings/));
    assert.ok(
      supply.every((n) => !/^ssc-/.test(n.label)),
      'supply-chain findings are named by package and advisory',
    );
    assert.ok((f.api.trees.projectsView.badge?.value ?? 0) > 0, 'the view carries a badge');
    await f.api.trees.projectsView.reveal(await firstFindingNode(f.api.trees.projects), { expand: true, select: true, focus: false });
    // Open the supply-chain findings too, so the picture shows how they are named.
    const tree = f.api.trees.projects;
    const project = tree.getChildren()[0];
    const supplyNode = project && tree.getChildren(project).find((n) => n.kind === 'issueType' && n.issueType === 'sca');
    assert.ok(supplyNode, 'the project has supply-chain findings');
    tree.getChildren(supplyNode);
    await snapshotTree(tree, 4);
    const group = tree.getChildren(supplyNode).find((n) => n.kind === 'group');
    const first = group && tree.getChildren(group)[0];
    assert.ok(first, 'a supply-chain finding under its group');
    await f.api.trees.projectsView.reveal(first, { expand: true, select: false, focus: false });
    const withProblems = vscode.languages.getDiagnostics().find(([, list]) => list.some((d) => d.source === 'AppSec'))?.[0];
    assert.ok(withProblems, 'a file with problems of ours');
    await vscode.window.showTextDocument(withProblems, { preview: true });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    // High contrast too: the extension's icons and severity colours must hold up there.
    await screenshotsInThemes('look', ['light', 'dark', 'high-contrast', 'high-contrast-light']);
  });
});
