// A new user's first hour, as a script: signed out, sign in, look at each view, filter, clear
// the filters, switch to a branch the platform never scanned and back, sign out and in again.
// At each step it checks what the user reads, not only counts.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, issueTypeNode, signedIn, signedOut, signIn, type Snap } from './fixture';
import { restoreAfterEach, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

const labels = (nodes: readonly Snap[] | undefined): string[] => (nodes ?? []).map((n) => n.label);

describe("a new user's first hour", () => {
  const undo = restoreAfterEach();

  it('reads what is true at every step', async () => {
    // Signed out: the welcome view, no filter described, nothing in Problems.
    const f = await signedOut();
    // Put back when the script stops midway: signed in, the default filters, the primary branch.
    undo(async () => {
      if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
      if (f.api.app.viewState.refOverride(f.project.name) !== undefined)
        await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, f.project.primary_branch);
      await vscode.commands.executeCommand('appsecFindings.clearFilters');
    });
    assert.deepEqual(await snapshotTree(f.api.trees.projects, 1), []);
    assert.equal(f.api.trees.projectsView.description, undefined);
    assert.equal(vscode.languages.getDiagnostics().filter(([, l]) => l.some((d) => d.source === 'AppSec')).length, 0);

    // Sign in: the workspace's project first, marked, on its primary branch; the default filter shown.
    await signIn(f);
    await signedIn();
    const projects = (await snapshotTree(f.api.trees.projects, 1)) as Snap[];
    assert.equal(projects[0]?.label, f.project.name);
    assert.match(projects[0]?.description ?? '', new RegExp(`^${f.project.primary_branch}\\b`));
    assert.equal(f.api.trees.projectsView.description, 'open');
    assert.match(f.api.statusBar.text, /\d+ (critical|high|medium|low)/);
    // The project open, its kinds collapsed: each shows its count all the same.
    await waitFor(
      async () => {
        const kinds = (((await snapshotTree(f.api.trees.projects, 2)) as Snap[])[0]?.children ?? []).filter((k) => /^issueType\b/.test(k.contextValue ?? ''));
        return kinds.length === 3 && kinds.every((k) => /^\d+$/.test(k.description ?? ''));
      },
      10_000,
      'a count on Code, Supply-chain and Secrets before any is expanded',
    );

    // The views: severity groups under code findings; supply chain named by package and advisory.
    const code = await issueTypeNode(f, /^Code findings/, 3);
    assert.deepEqual(labels(code?.children).filter((l) => /^(Critical|High|Medium|Low)$/.test(l)).length > 0, true, labels(code?.children).join(', '));
    const supply = findingNodes(await issueTypeNode(f, /^Supply-chain findings/, 4));
    assert.ok(supply.length > 0 && supply.every((n) => / — (CVE|GHSA|MAL)-/.test(n.label)), labels(supply).join(', '));
    const policies = (await snapshotTree(f.api.trees.policies, 1)) as Snap[];
    assert.ok(policies.length > 0 && policies.every((p) => !/PRODUCT_TYPE_|SEVERITY_/.test(`${p.label} ${p.description ?? ''}`)), 'policies read as words');

    // Filter to critical: the title says so, Problems has only errors.
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', severities: ['critical'] });
    assert.equal(f.api.trees.projectsView.description, 'open · critical');
    const ours = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics().flatMap(([, l]) => l.filter((d) => d.source === 'AppSec'));
    assert.ok(ours().length > 0 && ours().every((d) => d.severity === vscode.DiagnosticSeverity.Error));

    // Clear Filters goes back to the defaults: open findings, whatever was narrowed.
    await vscode.commands.executeCommand('appsecFindings.clearFilters');
    assert.equal(f.api.trees.projectsView.description, 'open');
    assert.ok(f.api.app.diagnostics.current[0]?.findings.every((x) => x.status === 'open'));
    // Every status, asked for: fixed or ignored findings are listed but never problems.
    await vscode.commands.executeCommand('appsecFindings.filterFindings', {});
    assert.equal(f.api.trees.projectsView.description, undefined);
    const shown = f.api.app.diagnostics.current[0]?.findings ?? [];
    const closed = shown.filter((x) => ['fixed', 'ignored', 'provisionally_ignored'].includes(x.status));
    assert.ok(closed.length > 0, 'the unfiltered answer holds fixed or ignored findings');
    assert.equal(ours().length, shown.length - closed.length - shown.filter((x) => !x.location && !x.sca).length, 'Problems holds the open ones only');

    // A branch the platform never scanned: said so, not shown as clean; back to the primary.
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, 'first-hour-branch');
    // The status bar counts Problems (the branch checked out), and says the tree shows another.
    assert.match(f.api.statusBar.tooltip, new RegExp(`on ${f.project.primary_branch}\\b.*The Projects view shows first-hour-branch`));
    // Never shown clean: "checking" while the platform is asked, then "no scan", for every kind.
    for (const kind of [/^Code findings/, /^Supply-chain findings/, /^Secrets/]) {
      const first = labels((await issueTypeNode(f, kind, 3))?.children);
      assert.ok(
        first.every((l) => !/^No (open )?findings/.test(l)),
        first.join(' | '),
      );
      await waitFor(
        async () => labels((await issueTypeNode(f, kind, 3))?.children).some((l) => l.startsWith('first-hour-branch has no scan')),
        10_000,
        `${kind.source} says the branch has no scan`,
      );
    }
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, f.project.primary_branch);

    // Sign out, and in again.
    await vscode.commands.executeCommand('appsecFindings.signOut');
    assert.deepEqual(await snapshotTree(f.api.trees.projects, 1), []);
    assert.equal(f.api.trees.projectsView.description, undefined);
    await signIn(f);
    await signedIn();
    assert.equal(((await snapshotTree(f.api.trees.projects, 1)) as Snap[])[0]?.label, f.project.name);
  });
});
