// The next start shows the last session's findings before the platform answers: the findings of
// the workspace's projects are kept on disk after a refresh, come back as diagnostics at once
// (marked as of their time) while every answer is slow, and are replaced when the answer comes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signedIn } from './fixture';
import { waitFor } from './helpers';

describe('the findings cache', () => {
  afterEach(async () => {
    const f = await signedIn();
    f.server.setLatency(0);
  });

  it('a start with a slow platform shows the cached diagnostics at once, then the fresh ones', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const kept = (): number => f.api.app.log.recent().filter((line) => line.includes("answers of the workspace's projects on disk")).length;
    const before = kept();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    await waitFor(() => kept() > before, 10_000, 'the findings are kept on disk after the refresh');
    const shownBefore = vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.source === 'AppSec').length, 0);
    assert.ok(shownBefore > 0);

    // A new session: nothing in memory, and the platform takes 5 s to answer anything.
    f.api.app.findings.clear();
    f.api.app.diagnostics.clear();
    assert.equal(vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.source === 'AppSec').length, 0), 0);
    f.server.setLatency(5_000);
    const mark = f.server.requests.length;
    assert.equal(await f.api.app.startFromCache(), true);
    const shownFromCache = vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.source === 'AppSec').length, 0);
    assert.equal(shownFromCache, shownBefore, 'the same diagnostics, before any answer');
    assert.equal(f.server.requests.length, mark, 'without a request');
    assert.match(f.api.statusBar.text, /^\$\(history\)/);
    assert.match(f.api.statusBar.tooltip, /As of .* \(from the last session; refreshing\)/);

    f.server.setLatency(0);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.match(f.api.statusBar.text, /^\$\(shield\)/, 'replaced by the platform\'s answer');
    assert.doesNotMatch(f.api.statusBar.tooltip, /As of/);
  });
});
