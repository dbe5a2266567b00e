// A new user's fourth hour, as a script: the smaller defects a user met in the demo, each reached
// as the user reached it and read from what the window draws.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { branchName } from '../../../src/core/model/refs';
import type { Node } from '../../../src/views/tree-nodes';
import { git, pinScannedCommit, serverFindings, signedIn, type Fixture } from './fixture';
import { actInWindow, closePickersAndEditors, notificationTexts, readWebviews, readWindow, restoreAfterEach, screenshotsInThemes, waitFor } from './helpers';
import type { FilterSelection } from '../../../src/core/services/filters';
import { walkTree } from './tree-snapshot';

describe("a new user's fourth hour", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(closePickersAndEditors);
  const undo = restoreAfterEach();

  it('the details panel redraws in place: its document, and so its stylesheet, stays while the finding changes under it', async function () {
    this.timeout(60_000);
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.status === 'open');
    assert.ok(finding, 'an open code finding');
    undo(() => vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [finding.id], issueType: 'sast', state: 'reopened' }));
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    const main = `main[data-finding="sast:${finding.id}"]`;
    const shown = async (): Promise<{ text: string; document: number } | undefined> => (await readWebviews(`${main} .badge.status`))[0];
    await waitFor(async () => (await shown()) !== undefined, 15_000, 'the panel draws the finding');
    const before = await shown();

    // The triage changes what the panel shows: its status, its actions, and its activity.
    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [finding.id], issueType: 'sast', state: 'reviewing' });
    await waitFor(
      async () => (await shown())?.text !== before?.text,
      15_000,
      () => `the panel shows the new status (still "${before?.text}")`,
    );
    const after = await shown();
    assert.equal(after?.document, before?.document, 'the same document, redrawn: a document set again is drawn unstyled while its stylesheet loads');
    const styled = await readWebviews(`${main} h1`);
    assert.equal(styled.length, 1, 'one heading, in the same document');
    await screenshotsInThemes('details-redrawn');
  });

  it('a finding whose code is only on another local branch reads "not in this copy yet", and its click opens the file as it is there, read-only', async function () {
    this.timeout(90_000);
    const root = f.folder.uri.fsPath;
    const primary = f.project.primary_branch;
    const feature = branchName(f.featureRef);
    const start = git(root, 'rev-parse', 'HEAD');
    const onFeature = await serverFindings(f, 'sast', { repos: f.project.name, ref: f.featureRef, status: 'open', dedup: 'true' });
    const target = onFeature.find((x) => x.path && x.line && x.line > 2);
    assert.ok(target?.path && target.line, 'an open code finding of the feature branch');
    const { path, line } = target as { path: string; line: number };
    undo(async () => {
      git(root, 'checkout', '-q', '-f', primary);
      git(root, 'reset', '-q', '--hard', start);
      git(root, 'branch', '-q', '-D', feature);
      pinScannedCommit(f.data, f.project.name, start);
      await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, primary);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    // The branch the platform scanned holds the file; the checkout, on the primary branch, does not.
    git(root, 'checkout', '-q', '-B', feature);
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    const text = Array.from({ length: line + 3 }, (_, i) => `line ${i + 1} of ${feature}`).join('\n');
    writeFileSync(file, text);
    git(root, 'add', path);
    git(root, '-c', 'user.email=test@example.invalid', '-c', 'user.name=Test', 'commit', '-qm', 'on the feature branch only');
    const scanned = git(root, 'rev-parse', 'HEAD');
    git(root, 'checkout', '-q', primary);
    // The primary branch moved on without the file: it does not include the feature branch's commit.
    if (existsSync(file)) {
      git(root, 'rm', '-q', path);
      git(root, '-c', 'user.email=test@example.invalid', '-c', 'user.name=Test', 'commit', '-qm', 'without it on the primary branch');
    }
    assert.equal(existsSync(file), false, 'the primary branch has no such file');
    pinScannedCommit(f.data, f.project.name, scanned);
    await waitFor(() => f.api.app.repos.repos()[0]?.branch === primary, 15_000, 'git reports the primary branch');
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, feature);
    // The platform's links now name the feature branch's commit: read again, as after a new scan.
    await vscode.commands.executeCommand('appsecFindings.refresh');

    // The tree's row of it, as the user sees it and clicks it.
    const row = async (): Promise<{ node: Node; description: string } | undefined> => {
      const walked = await walkTree(f.api.trees.projects, 6, 400);
      const hit = walked.find((w) => w.node.kind === 'finding' && w.node.finding.id === target.id);
      return hit && { node: hit.node, description: typeof hit.item.description === 'string' ? hit.item.description : '' };
    };
    let said = '';
    await waitFor(
      async () => {
        said = (await row())?.description ?? '(no row)';
        return said.includes('not in this copy yet');
      },
      20_000,
      () => `the row says the code is not here yet (it says "${said}"; ${f.api.app.places.drift.summary()})`,
    );
    const shown = await row();
    // After "new on this branch" when the primary branch lacks it.
    assert.ok(shown?.description.endsWith(`${path} · not in this copy yet: it is on ${feature}`), shown?.description);
    assert.ok(shown, 'the row');
    const click = f.api.trees.projects.getTreeItem(shown.node).command;
    assert.ok(click, 'a click on the row runs a command');
    const opened = await vscode.commands.executeCommand(click.command, ...((click.arguments ?? []) as unknown[]));
    assert.equal(opened, 'editor', "opened in the editor, not on the code host's site");
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.getText(), text, 'the file as it is on the feature branch');
    assert.equal(editor?.selection.start.line, line - 1, "at the finding's line");
    assert.equal(vscode.workspace.fs.isWritableFileSystem(editor.document.uri.scheme), undefined, 'read-only: no file system writes it');
    await waitFor(
      async () => (await notificationTexts()).some((n) => n.includes(`not in this copy yet (it is on ${feature})`)),
      10_000,
      'the notification says why',
    );
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await screenshotsInThemes('not-in-this-copy-yet');
  });

  it('Create Jira Ticket from a click asks first, as the fix pull request does: refused, nothing is created', async function () {
    this.timeout(60_000);
    const walked = await walkTree(f.api.trees.projects, 5, 50);
    const node = walked.find((w) => w.node.kind === 'finding' && w.node.finding.issueType === 'sast' && !w.node.finding.ticket)?.node;
    assert.ok(node?.kind === 'finding', 'a code finding without a ticket in the tree');
    const mark = f.server.requests.length;
    // As the row's context menu runs it: the row, and the selection. The smoke-test host refuses
    // every dialog, as a user's Cancel would.
    const result = await vscode.commands.executeCommand('appsecFindings.createTicket', node, [node]);
    assert.equal(result, undefined, 'not confirmed: nothing done');
    assert.deepEqual(
      f.server.requests.slice(mark).filter((r) => r.path.endsWith('/tickets')),
      [],
      'no ticket was asked for',
    );
    assert.equal(f.api.app.findings.finding(f.data.deployment.slug, 'sast', node.finding.id)?.ticket, undefined);
  });

  it('Check Connection\'s notification names each product\'s result, not only "Connection OK"', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('notifications.clearAll');
    const report = await vscode.commands.executeCommand<{ ok: boolean; products?: { product: string; state: string }[] }>('appsecFindings.checkConnection');
    assert.equal(report.ok, true);
    const products = report.products ?? [];
    assert.ok(products.length > 1 && products.every((p) => p.state === 'available'), 'the local platform has every product');
    let said = '';
    await waitFor(
      async () => {
        said = (await notificationTexts()).find((n) => n.includes('Connection OK')) ?? '';
        return said !== '';
      },
      10_000,
      'the notification',
    );
    for (const { product } of products) assert.ok(said.includes(product), `${product} is named in: ${said}`);
    await screenshotsInThemes('check-connection');
  });

  it('a group the user opened, emptied by Ignore and brought back by Undo, comes back open', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const groups = async (): Promise<Extract<Node, { kind: 'group' }>[]> =>
      (await walkTree(f.api.trees.projects, 4, 50))
        .map((w) => w.node)
        .filter((n): n is Extract<Node, { kind: 'group' }> => n.kind === 'group' && n.group.findings.every((x) => x.issueType === 'sast'));
    const group = (await groups()).sort((a, b) => a.group.findings.length - b.group.findings.length)[0];
    assert.ok(group, 'a group of code findings');
    const ids = group.group.findings.map((x) => x.id);
    undo(() => vscode.commands.executeCommand('appsecFindings.triage', { findingIds: ids, issueType: 'sast', state: 'reopened' }));
    await f.api.trees.projectsView.reveal(group, { expand: true, select: false, focus: false });
    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: ids, issueType: 'sast', state: 'ignored', reason: 'acceptable_risk' });
    await waitFor(async () => !(await groups()).some((g) => g.id === group.id), 15_000, 'the group leaves the tree with its last finding');
    // What Undo sends: the findings back to where they were.
    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: ids, issueType: 'sast', state: 'reopened' });
    let back: Extract<Node, { kind: 'group' }> | undefined;
    await waitFor(async () => (back = (await groups()).find((g) => g.id === group.id)) !== undefined, 15_000, 'the group is back');
    assert.ok(back);
    assert.equal(f.api.trees.projects.getTreeItem(back).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'open, as the user left it');
  });

  it("Show Findings of Branch… on another branch says, on the project's row and in the status bar, that Problems shows the checked-out one", async function () {
    this.timeout(60_000);
    const primary = f.project.primary_branch;
    const feature = branchName(f.featureRef);
    undo(() => vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, primary));
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, feature);
    const rows = (await walkTree(f.api.trees.projects, 1, 50)).filter((w) => w.node.kind === 'project' && w.node.project.name === f.project.name);
    assert.equal(rows.length, 1, "the workspace's project");
    assert.match(
      String(rows[0]?.item.description ?? ''),
      new RegExp(`^${feature.replace(/[/.]/g, '\\$&')} \\(checked out: ${primary}\\)`),
      'first, as the narrow view cuts the rest',
    );
    assert.match(f.api.statusBar.tooltip, new RegExp(`The Projects view shows ${feature.replace(/[/.]/g, '\\$&')}`));
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await screenshotsInThemes('branch-shown-not-checked-out');
  });

  it('the filter picker by keyboard: Space ticks a value, Enter confirms the ticks, and the next Enter applies', async function () {
    this.timeout(60_000);
    const rows = async (): Promise<string[]> => (await readWindow('.quick-input-widget .quick-input-list .monaco-list-row')).map((r) => `${r.label} ${r.text}`);
    undo(() => vscode.commands.executeCommand('appsecFindings.clearFilters'));
    const picked = Promise.resolve(vscode.commands.executeCommand<FilterSelection | undefined>('appsecFindings.filterFindings'));
    await waitFor(async () => (await rows()).some((r) => r.includes('Severity')), 10_000, 'the filters are listed');
    // Apply, Back to the defaults, Status, Severity.
    for (let i = 0; i < 3; i++) await actInWindow('press:ArrowDown');
    await actInWindow('press:Enter');
    await waitFor(async () => (await rows()).some((r) => /^critical\b/i.test(r)), 10_000, 'the severities are listed');
    await actInWindow('press:ArrowDown');
    await actInWindow('press:Space');
    await actInWindow('press:Enter');
    let seen: string[] = [];
    await waitFor(
      async () => (seen = await rows()).some((r) => r.includes('Apply') && /critical/i.test(r)),
      10_000,
      () => `Enter confirms the ticks: back at the filters (${seen.slice(0, 4).join(' | ')})`,
    );
    await actInWindow('press:Enter');
    assert.deepEqual((await picked)?.severities, ['critical'], 'the next Enter applies');
  });

  it('the hover of a finding shows its whole link row in the window', async function () {
    this.timeout(60_000);
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.location && x.status === 'open');
    assert.ok(finding?.location);
    const uri = vscode.Uri.joinPath(f.folder.uri, finding.location.filePath);
    const at = new vscode.Position(finding.location.line - 1, Math.max(0, (finding.location.column ?? 1) - 1));
    await vscode.window.showTextDocument(uri, { selection: new vscode.Range(at, at) });
    await vscode.commands.executeCommand('editor.action.showHover');
    let links: string[] = [];
    await waitFor(
      async () => (links = (await readWindow('.monaco-hover a')).map((a) => a.text)).some((text) => text === 'Show Details'),
      10_000,
      'the hover shows its links',
    );
    await screenshotsInThemes('finding-hover');
    for (const title of ['Show Details', 'Fix with Agent', 'Open in Platform']) assert.ok(links.includes(title), `${title} in ${links.join(' | ')}`);
  });
});
