// One findings store under every view: the tree and Problems showing the same branch cost one
// set of requests, and a local change to a finding (what triage will do) reaches the tree,
// Problems and the status bar at once, without a request, and goes back exactly.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, fixture, issueTypeNode, signIn, signedIn } from './fixture';

function appsecDiagnostics(): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics().flatMap(([, list]) => list.filter((d) => d.source === 'AppSec'));
}
/** The diagnostics at a finding's place with its rule (a diagnostic's code is its rule). */
function atFinding(folder: vscode.Uri, finding: { ruleName: string; location?: { filePath: string; line: number } }): vscode.Diagnostic[] {
  if (!finding.location) return [];
  return vscode.languages
    .getDiagnostics(vscode.Uri.joinPath(folder, finding.location.filePath))
    .filter(
      (d) =>
        d.source === 'AppSec' && d.range.start.line === finding.location!.line - 1 && (d.code as { value?: unknown } | undefined)?.value === finding.ruleName,
    );
}

describe('one findings store', () => {
  /** A test's local change to findings, undone after it even when it failed midway. */
  let patched: { rollback(): void } | undefined;
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  afterEach(async () => {
    patched?.rollback();
    patched = undefined;
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
  });

  it('the tree and Problems showing the same branch cost one set of requests', async () => {
    const f = await fixture();
    if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
    const mark = f.server.requests.length;
    // New filters: a query neither view has loaded; both show it, on the primary branch.
    await Promise.all([
      vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', severities: ['high', 'critical'] }),
      issueTypeNode(f, /^Code findings/, 4),
    ]);
    await issueTypeNode(f, /^Code findings/, 4);
    const pages = f.server.requests
      .slice(mark)
      .map((r) => new URLSearchParams(r.rawUrl.split('?')[1] ?? ''))
      .filter((q) => r(q, 'issue_type') === 'sast' && r(q, 'repos') === f.project.name && q.getAll('severities').length === 2)
      .map((q) => r(q, 'page'));
    assert.ok(pages.length >= 2, `pages requested: ${pages.join(',')}`);
    assert.equal(new Set(pages).size, pages.length, `each page once for both views: ${pages.join(',')}`);
    const inProblems = f.api.app.diagnostics.current[0]?.findings.filter((x) => x.issueType === 'sast').length;
    assert.equal(findingNodes(await issueTypeNode(f, /^Code findings/)).length, inProblems, 'both show the one answer');
  });

  const total = (text: string): number => Number(/AppSec: (\d+) finding/.exec(text)?.[1] ?? NaN);

  it('a patch changes the tree, Problems, the status bar and the view badge together without a request, and rolls back exactly', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const folder = f.api.app.diagnostics.current[0];
    const target = folder?.findings.find((x) => x.issueType === 'sast' && x.location);
    assert.ok(target, 'an open code finding shown in Problems');
    const before = {
      problems: appsecDiagnostics().length,
      tree: findingNodes(await issueTypeNode(f, /^Code findings/)).length,
      status: f.api.statusBar.tooltip,
      badge: f.api.trees.projectsView.badge?.value,
    };
    assert.equal(before.badge, total(before.status), 'the view badge counts the open findings the status bar counts');
    const atTarget = atFinding(f.folder.uri, target).length;
    assert.ok(atTarget > 0);
    const mark = f.server.requests.length;

    const handle = f.api.app.findings.patch(f.data.deployment.slug, 'sast', [target.id], { status: 'ignored', triageReason: 'false_positive' });
    patched = handle;
    assert.equal(atFinding(f.folder.uri, target).length, atTarget - 1, 'gone from Problems at once');
    assert.equal(appsecDiagnostics().length, before.problems - 1);
    const treeNow = findingNodes(await issueTypeNode(f, /^Code findings/));
    assert.equal(treeNow.length, before.tree - 1, 'the tree (filter: open) no longer lists it');
    assert.equal(total(f.api.statusBar.tooltip), total(before.status) - 1, 'the status bar counts one less');
    assert.equal(f.api.trees.projectsView.badge?.value, (before.badge ?? 0) - 1, 'so does the badge');
    assert.equal(f.server.requests.length, mark, 'no request');

    handle.rollback();
    assert.equal(appsecDiagnostics().length, before.problems);
    assert.equal(atFinding(f.folder.uri, target).length, atTarget);
    assert.equal(findingNodes(await issueTypeNode(f, /^Code findings/)).length, before.tree);
    assert.equal(f.api.statusBar.tooltip, before.status);
    assert.equal(f.api.app.findings.finding(f.data.deployment.slug, 'sast', target.id), target, 'the same object as before');
    assert.equal(f.server.requests.length, mark, 'still no request');
  });
});

function r(q: URLSearchParams, key: string): string {
  return q.get(key) ?? '';
}
