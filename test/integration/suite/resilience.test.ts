// What keeps users safe and informed when things go wrong: a cloned repository cannot redirect
// the token, a failed refresh keeps what was shown (marked stale), details load lazily.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, issueTypeNode, signedIn } from './fixture';
import { appsecDiagnosticCount, restoreAfterEach, waitFor } from './helpers';

describe('resilience', () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  const undo = restoreAfterEach();

  it('ignores a base URL set by the workspace: the token goes only where the user said', async () => {
    const f = await fixture();
    const settingsDir = join(f.folder.uri.fsPath, '.vscode');
    undo(() => rmSync(settingsDir, { recursive: true, force: true }));
    mkdirSync(settingsDir, { recursive: true });
    writeFileSync(join(settingsDir, 'settings.json'), JSON.stringify({ 'appsecFindings.baseUrl': 'https://attacker.invalid' }));
    await assert.rejects(
      Promise.resolve(vscode.workspace.getConfiguration('appsecFindings').update('baseUrl', 'https://attacker.invalid', vscode.ConfigurationTarget.Workspace)),
      'VS Code refuses to write an application setting to the workspace',
    );
    const before = f.server.requests.length;
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.ok(f.server.requests.length > before, 'requests still reach the configured platform');
  });

  it('keeps findings and diagnostics when a refresh fails, and marks the tree stale', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const shown = appsecDiagnosticCount();
    assert.ok(shown > 0);
    // Let the tree's own loads from that refresh finish first: one still in flight would (rightly) land fresh.
    assert.doesNotMatch((await issueTypeNode(f, /code/i, 3))?.description ?? '', /stale/);
    let cleared = false;
    undo(async () => {
      // Cleared by the test itself when it gets that far; else cleared here, and shown fresh again.
      if (cleared) return;
      f.server.faults.clear();
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    f.server.faults.inject({ kind: 'status', status: 500, body: 'internal error' }, { pathIncludes: '/findings' }, 50);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(appsecDiagnosticCount(), shown, 'Problems keeps what it showed');
    // The tree's own load of the slot may still be retrying when Problems has given up.
    await waitFor(async () => /stale/.test((await issueTypeNode(f, /code/i, 3))?.description ?? ''), 30_000, 'the tree marks the code findings stale');
    const stale = await issueTypeNode(f, /code/i, 3);
    assert.match(stale?.description ?? '', /stale/);
    assert.ok(
      (stale?.children ?? []).some((c) => /last refresh failed/.test(c.label)),
      'a warning says why',
    );
    f.server.faults.clear();
    cleared = true;
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const code = await issueTypeNode(f, /code/i, 3);
    assert.doesNotMatch(code?.description ?? '', /stale/);
  });

  it('loads a project tooltip lazily from the single-project endpoint, with managed scan settings', async () => {
    const f = await fixture();
    const provider = f.api.trees.projects;
    const node = provider.getChildren().find((n) => provider.getTreeItem(n).label === f.project.name);
    assert.ok(node, 'the workspace project node');
    const item = provider.getTreeItem(node);
    const before = f.server.requests.length;
    const resolved = await provider.resolveTreeItem(item, node, new vscode.CancellationTokenSource().token);
    const tooltip = resolved.tooltip instanceof vscode.MarkdownString ? resolved.tooltip.value : String(resolved.tooltip);
    assert.match(tooltip, /Managed diff scans/);
    assert.equal(resolved.tooltip instanceof vscode.MarkdownString && resolved.tooltip.isTrusted, false, 'server text is never trusted');
    const asked = f.server.requests.slice(before).map((r) => r.path);
    assert.ok(
      asked.some((p) => p.endsWith(`/projects/${f.project.name}`)),
      `GET of the project (${asked.join(', ')})`,
    );
  });
});
