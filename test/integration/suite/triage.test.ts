// Acting on findings in the editor: triage shows everywhere at once (tree, Problems, status bar,
// details) without a reload and rolls back when refused; tickets; the quick fixes carry their
// edits; the hover links to the actions; the details panel shows the whole finding under a
// strict CSP and follows a triage.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import type { FindingNode } from '../../../src/views/tree-nodes';
import { findingNodes, git, issueTypeNode, signedIn, type Fixture } from './fixture';
import { hoverAt, notificationTexts, putDocumentBack, readWindow, restoreAfterEach, screenshotsInThemes, waitFor } from './helpers';
import { firstFindingNode, walkTree } from './tree-snapshot';

function ours(f: Fixture): { uri: vscode.Uri; diagnostic: FindingDiagnostic }[] {
  const out: { uri: vscode.Uri; diagnostic: FindingDiagnostic }[] = [];
  f.api.app.diagnostics.collection.forEach((uri, list) => {
    for (const d of list as readonly FindingDiagnostic[]) if (d.finding) out.push({ uri, diagnostic: d });
  });
  return out;
}

const inProblems = (f: Fixture, id: number): boolean => ours(f).some((d) => d.diagnostic.finding.id === id);
const findingRequests = (f: Fixture, mark: number): number => f.server.requests.slice(mark).filter((r) => r.path.endsWith('/findings')).length;

/** An open code finding in Problems, with the assistant's fix in the platform's data. */
function openCodeFinding(f: Fixture, withFix = false): { uri: vscode.Uri; diagnostic: FindingDiagnostic } {
  const fixable = new Set(f.data.sast.filter((x) => x.assistant?.autofix?.fix_code).map((x) => x.id));
  const hit = ours(f).find(
    (d) =>
      d.diagnostic.finding.issueType === 'sast' &&
      d.diagnostic.finding.status === 'open' &&
      !d.diagnostic.drift?.changed &&
      (!withFix || fixable.has(d.diagnostic.finding.id)),
  );
  assert.ok(hit, 'Problems shows an open code finding');
  return hit;
}

/**
 * The quick fixes VS Code offers at a range once they include `expected`: the menu lists what the
 * window's markers there carry (a redraw, after a triage say, reaches the window a moment after
 * the extension host has it), and the suggested fix once the platform's detail has arrived (the
 * menu waits 3 s for it; on a busy machine it comes with the next opening).
 */
async function quickFixes(uri: vscode.Uri, range: vscode.Range, expected: RegExp): Promise<vscode.CodeAction[]> {
  let actions: vscode.CodeAction[] = [];
  await waitFor(
    async () => {
      actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
      return actions.some((a) => expected.test(a.title));
    },
    15_000,
    () => `a quick fix ${String(expected)} at ${uri.fsPath}:${range.start.line + 1} (offered: ${actions.map((a) => a.title).join(' | ')})`,
  );
  return actions;
}

/**
 * Resolves once Problems shows a change in which `holds` is true: the change every listener of
 * Problems (the new-findings notice among them, subscribed at activation, so before this) has
 * been told of. Listen before acting, so the change cannot come first.
 */
function nextProblemsChange(f: Fixture, holds: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listening = f.api.app.diagnostics.onDidChange(() => {
      if (!holds()) return;
      listening.dispose();
      resolve();
    });
  });
}

describe('acting on findings', () => {
  let f: Fixture;
  /** Findings a test triaged or ticketed, put back after it (open, no ticket) even when it failed midway. */
  const touched = new Map<string, Finding>();
  const touch = (...findings: Finding[]): void => {
    for (const finding of findings) touched.set(`${finding.issueType}:${finding.id}`, finding);
  };
  const undo = restoreAfterEach();
  /** Documents a test edited and files it wrote: reverted and removed after it. */
  const edited: vscode.Uri[] = [];
  const written: string[] = [];
  before(async () => {
    f = await signedIn();
  });
  afterEach(async () => {
    f.server.faults.clear();
    f.server.setTicketing(true);
    const slug = f.data.deployment.slug;
    for (const { issueType, id } of touched.values()) {
      const now = f.api.app.findings.finding(slug, issueType, id);
      if (now?.ticket) await vscode.commands.executeCommand('appsecFindings.unlinkTicket', { finding: now });
      if (now && now.status !== 'open') await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [id], issueType, state: 'reopened' });
    }
    touched.clear();
    for (const uri of edited.splice(0)) {
      // The web workbench may have auto-saved the edit already: the file goes back to the
      // commit's text on disk, and the document is read from it again.
      const relative = vscode.workspace.asRelativePath(uri, false);
      try {
        git(f.folder.uri.fsPath, 'checkout', '-q', '--', relative);
      } catch {
        // Not a file of the commit (one the test wrote, removed below).
      }
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (!document) continue;
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    for (const file of written.splice(0)) rmSync(file, { force: true });
    await vscode.commands.executeCommand('hideCodeActionWidget');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('triage (automation form): Problems, the tree and the status bar change at once without a reload; Reopen brings it back', async () => {
    const { diagnostic } = openCodeFinding(f);
    const target = diagnostic.finding;
    const statusBefore = f.api.statusBar.text;
    const news = (): number => f.api.app.log.recent().filter((line) => line.includes('New findings:')).length;
    const newsBefore = news();
    const treeBefore = findingNodes(await issueTypeNode(f, /^Code findings/, 6)).length;
    const mark = f.server.requests.length;
    touch(target);
    const outcome = await vscode.commands.executeCommand<{ ids: number[] }>('appsecFindings.triage', {
      findingIds: [String(target.id)],
      issueType: 'sast',
      state: 'ignored',
      reason: 'false_positive',
      note: 'checked: test data',
    });
    assert.ok(outcome?.ids.includes(target.id), "resolves with the platform's answer");
    assert.equal(inProblems(f, target.id), false, 'an ignored finding leaves Problems');
    assert.notEqual(f.api.statusBar.text, statusBefore, 'the status bar counts one fewer');
    const treeAfter = findingNodes(await issueTypeNode(f, /^Code findings/, 6)).length;
    assert.equal(treeAfter, treeBefore - 1, 'the tree (open findings) lists one fewer');
    assert.equal(findingRequests(f, mark), 0, 'no findings were loaded again');
    const wire = f.data.sast.find((x) => x.id === target.id);
    assert.equal(wire?.status, 'ignored', 'the platform has it ignored');
    assert.equal(wire?.triage_comment, 'checked: test data');

    const reopenedShown = nextProblemsChange(f, () => inProblems(f, target.id));
    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [target.id], issueType: 'sast', state: 'reopened' });
    assert.equal(inProblems(f, target.id), true, 'reopened: back in Problems');
    assert.equal(f.api.statusBar.text, statusBefore);
    // Once Problems has told its listeners of the reopened finding, the notice has judged it.
    await reopenedShown;
    assert.equal(news(), newsBefore, 'a reopened finding is not announced as new');
  });

  it('refused by the platform: rolled back everywhere; bad input is refused before any request', async () => {
    const { diagnostic } = openCodeFinding(f);
    const target = diagnostic.finding;
    touch(target);
    f.server.faults.inject({ kind: 'status', status: 400, body: '{"error":"not allowed for the test"}' }, { pathIncludes: '/triage' }, 1);
    const refused = await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [target.id], issueType: 'sast', state: 'fixing' });
    assert.equal(refused, undefined, 'the command reports the refusal instead of a result');
    assert.equal(inProblems(f, target.id), true);
    assert.equal(f.api.app.findings.finding(f.data.deployment.slug, 'sast', target.id)?.status, 'open', 'rolled back');

    const mark = f.server.requests.length;
    for (const bad of [
      { findingIds: [target.id], issueType: 'sast', note: 'x'.repeat(3001) },
      { findingIds: [target.id], issueType: 'sast', state: 'reviewing', reason: 'false_positive' },
      { findingIds: ['twelve'], issueType: 'sast', state: 'fixing' },
      { findingIds: [target.id], issueType: 'dast', state: 'fixing' },
    ]) {
      assert.equal(await vscode.commands.executeCommand('appsecFindings.triage', bad), undefined, JSON.stringify(bad).slice(0, 80));
    }
    assert.equal(f.server.requests.slice(mark).filter((r) => r.path.endsWith('/triage')).length, 0, 'nothing was sent');
  });

  it('several findings selected in the tree are triaged together', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const tree = f.api.trees.projects;
    const first = await firstFindingNode(tree);
    const siblings = tree
      .getChildren(first.parent)
      .filter((n): n is typeof first => n.kind === 'finding')
      .slice(0, 2);
    assert.equal(siblings.length, 2, 'a group with two findings');
    touch(...siblings.map((n) => n.finding));
    await vscode.commands.executeCommand('appsecFindings.markReviewing', siblings[0], siblings);
    const slug = f.data.deployment.slug;
    assert.ok(siblings.every((n) => f.api.app.findings.finding(slug, 'sast', n.finding.id)?.status === 'reviewing'));
  });

  it('quick fixes: the suggested fix and its edit, Ignore…, Show Details, Open in Platform, Copy Rule ID; an upgrade edits package.json', async () => {
    const { uri, diagnostic } = openCodeFinding(f, true);
    await vscode.window.showTextDocument(uri, { selection: diagnostic.range });
    const actions = await quickFixes(uri, diagnostic.range, /^Apply suggested fix/);
    const titles = actions.map((a) => a.title);
    for (const expected of [/^Apply suggested fix for /, /^Ignore .*…$/, /^Show details of /, /^Open (.+ )?in Platform$/, /^Copy Rule ID/]) {
      assert.ok(
        titles.some((t) => expected.test(t)),
        `${String(expected)} in ${titles.join(' | ')}`,
      );
    }
    const fix = actions.find((a) => a.title.startsWith('Apply suggested fix'));
    const entries = fix?.edit?.entries() ?? [];
    assert.equal(entries.length, 1);
    const [[editUri, edits]] = entries;
    assert.equal(editUri.toString(), uri.toString());
    const wire = f.data.sast.find((x) => x.id === diagnostic.finding.id);
    assert.equal(edits[0]?.newText, wire?.assistant?.autofix?.fix_code?.replace(/\n$/, ''), "the assistant's code");
    assert.equal(edits[0]?.range.start.line, diagnostic.range.start.line, "on the finding's lines");
    // The edit as offered applies at once (an edit that asks for confirmation would wait in the
    // refactor preview, unticked, and change nothing).
    edited.push(editUri);
    const applied = await Promise.race([
      vscode.workspace.applyEdit(fix!.edit!),
      new Promise<string>((resolve) => setTimeout(() => resolve('waiting for a preview'), 5_000)),
    ]);
    assert.equal(applied, true, 'the suggested fix applies without a preview');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.lineAt(diagnostic.range.start.line).text, edits[0].newText.split('\n')[0]);

    // Supply chain: a direct dependency pinned in the package.json beside its lockfile.
    const sca = ours(f).find(
      (d) => d.diagnostic.finding.sca?.package && d.diagnostic.finding.sca.fixVersions?.length && d.diagnostic.finding.sca.transitivity !== 'transitive',
    );
    assert.ok(sca, 'a direct supply-chain finding with a fix');
    const { finding } = sca.diagnostic;
    const lockfile = finding.location!.filePath;
    const manifest = join(f.folder.uri.fsPath, dirname(lockfile), 'package.json');
    mkdirSync(dirname(manifest), { recursive: true });
    written.push(manifest);
    writeFileSync(manifest, JSON.stringify({ name: 'app', dependencies: { [finding.sca!.package!]: `^${finding.sca!.version ?? '1.0.0'}` } }, null, 2));
    // A whole-line diagnostic ends at the largest character; the command takes only real positions.
    const lockDocument = await vscode.workspace.openTextDocument(sca.uri);
    const scaActions = await quickFixes(sca.uri, lockDocument.validateRange(sca.diagnostic.range), /^Upgrade /);
    const upgrade = scaActions.find((a) => a.title === `Upgrade ${finding.sca!.package!} to ${finding.sca!.fixVersions![0]}`);
    assert.ok(upgrade, scaActions.map((a) => a.title).join(' | '));
    const [[manifestUri, manifestEdits]] = upgrade.edit!.entries();
    assert.equal(manifestUri.fsPath, manifest);
    assert.equal(manifestEdits[0]?.newText, `^${finding.sca!.fixVersions![0]}`);
    edited.push(manifestUri);
    assert.equal(await vscode.workspace.applyEdit(upgrade.edit!), true, 'the upgrade applies without a preview');
    assert.match((await vscode.workspace.openTextDocument(manifestUri)).getText(), new RegExp(`"\\^${finding.sca!.fixVersions![0].replace(/\./g, '\\.')}"`));
    assert.match(upgrade.command?.command ?? '', /\bopen$/, 'and then shows the manifest it changed');
  });

  it('after the suggested fix, its message says the file\'s real state: where auto-save writes it, not "not saved yet"', async () => {
    const { uri, diagnostic } = openCodeFinding(f, true);
    const original = readFileSync(uri.fsPath, 'utf8');
    const files = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('files');
    undo(async () => {
      await files().update('autoSave', undefined, vscode.ConfigurationTarget.Global);
      // Auto-save wrote the fix to disk: the file is put back as it was.
      writeFileSync(uri.fsPath, original);
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (document?.isDirty) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
    });
    // As the web workbench (code-server) has it by default.
    await files().update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    // The test before put this file back on disk: the document is made to hold that text, saved,
    // before a fix is computed against it, or VS Code refuses the edit as made for a version since replaced.
    await putDocumentBack(await vscode.workspace.openTextDocument(uri), original);
    await vscode.window.showTextDocument(uri, { selection: diagnostic.range });
    const fix = (await quickFixes(uri, diagnostic.range, /^Apply suggested fix/)).find((a) => a.title.startsWith('Apply suggested fix'));
    assert.ok(fix?.edit && fix.command);
    assert.equal(await vscode.workspace.applyEdit(fix.edit), true);
    // What VS Code runs right after a quick fix's edit.
    await vscode.commands.executeCommand(fix.command.command, ...((fix.command.arguments ?? []) as unknown[]));
    let texts: string[] = [];
    await waitFor(
      async () => (texts = await notificationTexts()).some((t) => t.includes('Applied the suggested fix')),
      10_000,
      () => `the fix is said: ${texts.join(' | ')}`,
    );
    const said = texts.find((t) => t.includes('Applied the suggested fix')) ?? '';
    assert.match(said, /auto-save saves the file/);
    assert.doesNotMatch(said, /not saved yet/);
  });

  it('the hover links to Show Details, Ignore… and Open in Platform, and names the finding', async () => {
    const { uri, diagnostic } = openCodeFinding(f);
    const text = await hoverAt(uri, diagnostic.range.start);
    for (const command of ['appsecFindings.showDetails', 'appsecFindings.ignore', 'appsecFindings.openInPlatform'])
      assert.match(text, new RegExp(`\\(command:${command.replace('.', '\\.')}\\?`));
    assert.match(text, new RegExp(diagnostic.finding.severity));
  });

  it('details: the whole finding under a strict CSP, following a triage; tickets appear on it', async function () {
    this.timeout(60_000);
    const { uri, diagnostic } = openCodeFinding(f, true);
    const finding: Finding = diagnostic.finding;
    touch(finding);
    await vscode.window.showTextDocument(uri, { selection: diagnostic.range });
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding }), true);
    const panel = f.api.detailsPanel;
    const html = panel.shownHtml;
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
    assert.ok(
      tags.every((tag) => !/\son[a-z]+\s*=/i.test(tag) && !/\sstyle\s*=/i.test(tag)),
      'no inline handlers or styles in any tag',
    );
    const wire = f.data.sast.find((x) => x.id === finding.id)!;
    const facts = [wire.rule?.cweNames?.[0], wire.assistant?.guidance?.summary, wire.assistant?.autotriage?.reason].filter((x): x is string => x !== undefined);
    assert.ok(facts.length > 0, "the finding has a CWE or the assistant's guidance to show");
    for (const shown of facts) {
      assert.ok(
        html.includes(shown.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')) ||
          html.includes(shown),
        `shows ${shown}`,
      );
    }
    await screenshotsInThemes('details');

    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [finding.id], issueType: 'sast', state: 'reviewing' });
    await waitFor(() => /reviewing/i.test(panel.shownHtml) && panel.shownFinding?.status === 'reviewing', 5_000, 'the details follow the triage');

    const created = await vscode.commands.executeCommand<{ succeeded: { ids: number[]; url?: string }[] }[]>('appsecFindings.createTicket', {
      findingIds: [finding.id],
      issueType: 'sast',
    });
    assert.ok(
      created?.[0]?.succeeded.some((t) => t.ids.includes(finding.id)),
      'a ticket was created for it',
    );
    await waitFor(() => /atlassian\.net\/browse\/SEC-/.test(panel.shownHtml), 5_000, 'the ticket shows in the details');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.unlinkTicket', { finding }), 1);
    f.server.setTicketing(false);
    const refused = await vscode.commands.executeCommand('appsecFindings.createTicket', { findingIds: [finding.id], issueType: 'sast' });
    assert.equal(refused, undefined, 'no ticketing integration: reported, nothing created');
    assert.equal(f.api.app.findings.finding(f.data.deployment.slug, 'sast', finding.id)?.ticket, undefined);
  });

  it('details follow the code and the tree: a fix applied takes Apply away, Undo gives it back; another finding selected is shown', async function () {
    this.timeout(60_000);
    const { uri, diagnostic } = openCodeFinding(f, true);
    const finding: Finding = diagnostic.finding;
    const panel = f.api.detailsPanel;
    // The web workbench auto-saves by default: here the fix is to wait for a save, Save offered.
    undo(() => vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global));
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    // The panel the test before closed has told the extension it is gone (that news comes late).
    await waitFor(() => panel.shownFinding === undefined, 10_000, 'no details panel open');
    await vscode.window.showTextDocument(uri, { selection: diagnostic.range });
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding }), true);
    const offersApply = (): boolean => panel.shownHtml.includes('data-action="applyFix"');
    await waitFor(offersApply, 10_000, 'Apply is offered on the scanned code');
    const [fix] = (await quickFixes(uri, diagnostic.range, /^Apply suggested fix/)).filter((a) => a.title.startsWith('Apply suggested fix'));
    assert.ok(fix?.edit, 'the suggested fix as a quick fix');
    edited.push(uri);
    // The code stays in its own group, beside the panel (as Open Finding puts it).
    const editor = await vscode.window.showTextDocument(uri, { viewColumn: vscode.ViewColumn.One, preserveFocus: true });
    assert.equal(await vscode.workspace.applyEdit(fix.edit), true);
    // What VS Code runs after the quick fix's edit: the user is told, with Undo and Save.
    assert.equal(fix.command?.command, 'appsecFindings.fixApplied');
    assert.equal(await vscode.commands.executeCommand(fix.command.command, ...((fix.command.arguments ?? []) as unknown[])), true);
    await waitFor(
      async () => (await notificationTexts()).some((t) => t.includes('Applied the suggested fix for') && t.includes('not saved yet')),
      10_000,
      'the user is told the fix was applied',
    );
    await waitFor(
      () => !offersApply() && panel.shownHtml.includes('The suggested fix is in the code here'),
      10_000,
      'the panel sees the fix in the code: Apply is gone',
    );
    await vscode.window.showTextDocument(editor.document, { viewColumn: vscode.ViewColumn.One });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => !editor.document.isDirty, 5_000, 'the fix is undone');
    await waitFor(
      () => offersApply() && !panel.shownHtml.includes('The suggested fix is in the code here'),
      10_000,
      'after Undo, the panel offers Apply again',
    );

    // A click on another finding in the tree: the open panel shows it, without a command.
    // One that is not selected already (an earlier test may have selected one): selecting it is a change.
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const selected = new Set(f.api.trees.projectsView.selection.map((n) => n.id));
    const other = (await walkTree(f.api.trees.projects, 6, 6))
      .map((w) => w.node)
      .find((n): n is FindingNode => n.kind === 'finding' && n.finding.id !== finding.id && !selected.has(n.id));
    assert.ok(other, 'another finding in the tree');
    await f.api.trees.projectsView.reveal(other, { select: true, focus: true });
    await waitFor(() => f.api.trees.projectsView.selection[0]?.id === other.id, 10_000, 'the finding is selected in the tree');
    await waitFor(() => panel.shownFinding?.id === other.finding.id, 10_000, 'the panel shows the finding selected in the tree');
  });

  it('the quick-fix menu on a finding lists its actions, and the window shows them (screenshot)', async () => {
    const { uri, diagnostic } = openCodeFinding(f, true);
    const at = diagnostic.range.start;
    await vscode.window.showTextDocument(uri, { selection: new vscode.Selection(at, at) });
    const actions = await quickFixes(uri, new vscode.Range(at, at), /^Apply suggested fix/);
    const titles = actions.map((a) => a.title);
    for (const expected of [/^Apply suggested fix/, /^Ignore .*…$/, /^Show details of /])
      assert.ok(
        titles.some((t) => expected.test(t)),
        `${String(expected)} at the cursor: ${titles.join(' | ')}`,
      );
    await vscode.commands.executeCommand('editor.action.quickFix');
    // What the user sees: the menu open in the window with our actions.
    let rows: { label: string; text: string }[] = [];
    await waitFor(
      async () => {
        rows = await readWindow('.action-widget .monaco-list-row');
        return rows.some((r) => /Ignore /.test(`${r.label} ${r.text}`));
      },
      10_000,
      () => `the quick-fix menu shows Ignore… (shows: ${rows.map((r) => r.text).join(' | ')})`,
    );
    assert.ok(
      rows.some((r) => /Show details of /.test(`${r.label} ${r.text}`)),
      rows.map((r) => r.text).join(' | '),
    );
    await screenshotsInThemes('quick-fix', ['light']);
  });
});
