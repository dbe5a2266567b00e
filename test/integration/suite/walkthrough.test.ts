// The walkthrough a newcomer is offered: VS Code knows it (from the manifest) and opens it, with
// the pictures made from the demo; screenshots in light and dark are kept to look at.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, signedIn } from './fixture';
import { screenshotsInThemes } from './helpers';

interface Step { id: string; media: { image: Record<string, string> } }

describe('walkthrough', () => {
  before(async () => {
    await signedIn();
  });

  it('opens Get Started with AppSec Findings, its five steps with pictures in the installed extension', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const walkthroughs = (extension.packageJSON as { contributes: { walkthroughs: { id: string; steps: Step[] }[] } }).contributes.walkthroughs;
    const steps = walkthroughs[0]?.steps ?? [];
    assert.equal(steps.length, 5);
    for (const step of steps) {
      for (const image of [step.media.image.light, step.media.image.dark]) {
        // The pictures ship in the package: read from the installed extension, as the welcome page does.
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extension.extensionUri, image ?? 'missing'));
        assert.ok(bytes.length > 10_000, `${step.id}: ${image} is in the installed extension`);
      }
    }
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await screenshotsInThemes('walkthrough');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
