// The walkthrough a newcomer is offered: VS Code knows it (from the manifest) and opens it, with
// the pictures made from the demo; screenshots in light and dark are kept to look at.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import { EXTENSION_ID, signedIn, type Fixture } from './fixture';
import { readWindow, restoreAfterEach, screenshotsInThemes, waitFor } from './helpers';

interface Step {
  id: string;
  media: { image: Record<string, string> };
}

/**
 * Each step's title and whether the page shows it done, read from the window (hosts word the
 * checkbox's label differently: "Sign in…: Completed", "Checkbox for Step Sign in…: Completed").
 */
async function ticks(): Promise<Map<string, boolean>> {
  const boxes = await readWindow('[data-done-step-id]');
  return new Map(
    boxes.map((b) => {
      const [, title = b.label, state] = /^(?:Checkbox for Step )?(.*): (Not completed|Completed)$/.exec(b.label) ?? [];
      return [title, state === 'Completed'];
    }),
  );
}

describe('walkthrough', () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  const undo = restoreAfterEach();

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
    await waitFor(async () => (await ticks()).size === steps.length, 10_000, 'the page shows its five steps');
    await screenshotsInThemes('walkthrough');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('ticks each step once the user has done it, by any path: signed in and findings shown before the page opened, then filter, details, export', async function () {
    this.timeout(90_000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    undo(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    // Signed in, with findings in Problems, before the page (and VS Code's service behind it) exists.
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    const done = (...steps: string[]): Promise<void> =>
      waitFor(
        async () => {
          const seen = await ticks();
          return steps.every((s) => seen.get(s) === true);
        },
        10_000,
        `${steps.join(', ')} ticked`,
      );
    await waitFor(async () => (await ticks()).size === 5, 10_000, 'the page shows its five steps');
    await done('Sign in with an API token', "See your repository's findings");

    // Run as automation would (from an extension, which VS Code's own `onCommand` does not count).
    await vscode.commands.executeCommand('appsecFindings.groupBy', 'severity');
    await done('Filter and group');
    const finding: Finding | undefined = f.api.app.diagnostics.current[0]?.findings.find((x) => x.location);
    assert.ok(finding);
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    await done('Act on a finding');
    const dir = mkdtempSync(join(tmpdir(), 'appsec-walkthrough-'));
    undo(() => rmSync(dir, { recursive: true, force: true }));
    await vscode.commands.executeCommand('appsecFindings.exportSarif', f.project.name, { saveTo: join(dir, 'findings.sarif') });
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    await done('Export an SBOM (and SARIF)');
    await screenshotsInThemes('walkthrough-done', ['light']);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
