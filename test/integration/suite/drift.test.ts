// Findings follow the code: on a copy that moved on since the scanned commit (lines inserted and
// deleted above, a renamed file, a finding's own line edited or deleted, unsaved typing, a branch
// without a scan, the scanned commit missing until fetched), each finding is where its code is.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { findingNodes, git, issueTypeNode, pinScannedCommit, serverFindings, signedIn, type Fixture } from './fixture';
import { hoverAt, restoreAfterEach, screenshotHandshake, waitFor } from './helpers';

interface Target {
  id: number;
  path: string;
  line: number;
}

/** Open code findings of the primary branch, one per file, in files whose findings all sit below line 12. */
async function targets(f: Fixture): Promise<Target[]> {
  const all = await serverFindings(f, 'sast', { repos: f.project.name, ref: f.project.primary_branch, status: 'open', dedup: 'true' });
  const perFile = new Map<string, Target[]>();
  for (const x of all) if (x.path && x.line) perFile.set(x.path, [...(perFile.get(x.path) ?? []), { id: x.id, path: x.path, line: x.line }]);
  // The supply-chain findings of these files would move too; keep files only code findings point at.
  const sca = new Set(
    (await serverFindings(f, 'sca', { repos: f.project.name, ref: f.project.primary_branch, status: 'open', dedup: 'true' })).map((x) => x.path),
  );
  return [...perFile.values()].filter((list) => list.every((t) => t.line > 12) && !sca.has(list[0].path)).map((list) => list[0]);
}

function uriOf(f: Fixture, path: string): vscode.Uri {
  return vscode.Uri.joinPath(f.folder.uri, path);
}

/** Our diagnostic of a finding, wherever it is drawn. */
function diagnosticOf(f: Fixture, id: number): { uri: vscode.Uri; diagnostic: FindingDiagnostic } | undefined {
  let found: { uri: vscode.Uri; diagnostic: FindingDiagnostic } | undefined;
  f.api.app.diagnostics.collection.forEach((uri, list) => {
    const hit = (list as readonly FindingDiagnostic[]).find((d) => d.finding?.id === id);
    if (hit) found = { uri, diagnostic: hit };
  });
  return found;
}

async function expectAt(f: Fixture, id: number, path: string, line: number, what: string): Promise<FindingDiagnostic> {
  await waitFor(
    () => {
      const at = diagnosticOf(f, id);
      return !!at && at.uri.fsPath === uriOf(f, path).fsPath && at.diagnostic.range.start.line === line - 1;
    },
    15_000,
    `${what}: finding ${id} at ${path}:${line} (it is at ${whereIs(f, id)}; ${f.api.app.places.drift.summary()})`,
  );
  return diagnosticOf(f, id)!.diagnostic;
}

function whereIs(f: Fixture, id: number): string {
  const at = diagnosticOf(f, id);
  return at ? `${vscode.workspace.asRelativePath(at.uri)}:${at.diagnostic.range.start.line + 1}` : 'nowhere';
}

function edit(f: Fixture, path: string, change: (lines: string[]) => string[]): void {
  const file = join(f.folder.uri.fsPath, path);
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, change(lines).join('\n'));
}

/** Back to the scanned commit: no changes, no untracked files, every editor closed. */
async function restore(f: Fixture): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const root = f.folder.uri.fsPath;
  git(root, 'checkout', '-q', '-f', f.project.primary_branch);
  git(root, 'reset', '-q', '--hard');
  git(root, 'clean', '-qfd');
  await waitFor(
    () => f.api.app.repos.repos()[0]?.branch === f.project.primary_branch && f.api.app.repos.repos()[0]?.commit === git(root, 'rev-parse', 'HEAD'),
    15_000,
    'git reports the primary branch again',
  );
  await vscode.commands.executeCommand('appsecFindings.refresh');
}

describe('drift: findings where their code is today', () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  // What a test queued is put back first (the platform's scanned commit, a remote), then the copy.
  const undo = restoreAfterEach();
  afterEach(async () => restore(f));

  it('on a copy changed since the scan: moved by lines inserted and deleted above, renamed with its file, its edited code said, its deleted code not in Problems but in the tree', async () => {
    const [inserted, deleted, renamed, ownLine, gone] = await targets(f);
    assert.ok(gone, 'the fixture has five files with code findings');
    edit(f, inserted.path, (lines) => [...Array.from({ length: 7 }, (_, i) => `import ${i}`), ...lines]);
    edit(f, deleted.path, (lines) => [...lines.slice(0, 2), ...lines.slice(5)]);
    git(f.folder.uri.fsPath, 'mv', renamed.path, `${renamed.path}.moved`);
    edit(f, ownLine.path, (lines) => lines.map((l, i) => (i === ownLine.line - 1 ? `${l} # edited` : l)));
    edit(f, gone.path, (lines) => lines.filter((_, i) => i !== gone.line - 1));
    await vscode.commands.executeCommand('appsecFindings.refresh');

    await expectAt(f, inserted.id, inserted.path, inserted.line + 7, '7 lines inserted at the top');
    await expectAt(f, deleted.id, deleted.path, deleted.line - 3, '3 lines deleted above');
    await expectAt(f, renamed.id, `${renamed.path}.moved`, renamed.line, 'renamed file');
    assert.equal(vscode.languages.getDiagnostics(uriOf(f, renamed.path)).filter((d) => d.source === 'AppSec').length, 0, 'nothing on the old name');
    const changed = await expectAt(f, ownLine.id, ownLine.path, ownLine.line, 'own line edited');
    assert.match(changed.message, /\(the code here changed since the scan\)$/);
    await waitFor(() => !diagnosticOf(f, gone.id), 10_000, 'a finding whose code was deleted is not in Problems');

    const hoverText = await hoverAt(uriOf(f, ownLine.path), changed.range.start);
    assert.match(hoverText, /changed since the scan of commit [0-9a-f]{7}/, 'the hover names the scanned commit');

    const tree = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    const descriptions = tree.map((n) => n.description ?? '');
    // The line ends the text, or is followed by more facts (" · …"); "src/a.py:17" must not match ":170".
    const moved = `${inserted.path}:${inserted.line + 7}`;
    assert.ok(
      descriptions.some((d) => d === moved || d.startsWith(`${moved} `)),
      `the tree shows today's line (${descriptions.slice(0, 5).join(' | ')})`,
    );
    assert.ok(
      descriptions.some((d) => d.startsWith(`${gone.path} · no longer in this copy`)),
      'the tree still lists the deleted one, marked',
    );

    // What the user sees: the edited file open at the moved finding, Problems and the tree.
    await vscode.window.showTextDocument(uriOf(f, ownLine.path), { selection: changed.range });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await screenshotHandshake('drift');
  });

  it('unsaved typing moves the findings of that document at once; revert puts them back', async () => {
    const [target] = await targets(f);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    await expectAt(f, target.id, target.path, target.line, 'before typing');
    const editor = await vscode.window.showTextDocument(uriOf(f, target.path));
    await editor.edit((b) => b.insert(new vscode.Position(target.line - 3, Number.MAX_SAFE_INTEGER), '\nnew line one\nnew line two'));
    await expectAt(f, target.id, target.path, target.line + 2, 'two lines typed above');
    await editor.edit((b) => b.insert(new vscode.Position(target.line + 1, 2), 'x'));
    const typedOn = await expectAt(f, target.id, target.path, target.line + 2, 'typing on its line');
    assert.match(typedOn.message, /changed since the scan/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await expectAt(f, target.id, target.path, target.line, 'after revert');
    await waitFor(
      () => !/changed since the scan/.test(diagnosticOf(f, target.id)?.diagnostic.message ?? 'x'),
      10_000,
      'after revert the code is the scanned code again',
    );
  });

  it("a branch without a scan shows the primary branch's findings on this branch's code", async () => {
    const [target] = await targets(f);
    const root = f.folder.uri.fsPath;
    undo(async () => {
      await restore(f);
      git(root, 'branch', '-q', '-D', 'drift-no-scan');
    });
    git(root, 'checkout', '-q', '-B', 'drift-no-scan');
    edit(f, target.path, (lines) => ['# header', '# header', '# header', '# header', ...lines]);
    git(root, 'commit', '-qam', 'four lines on top');
    const head = git(root, 'rev-parse', 'HEAD');
    await waitFor(
      () => f.api.app.repos.repos()[0]?.branch === 'drift-no-scan' && f.api.app.repos.repos()[0]?.commit === head,
      15_000,
      'git reports the branch and its new commit',
    );
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(f.api.app.diagnostics.current[0]?.usedFallback, true);
    await expectAt(f, target.id, target.path, target.line + 4, 'primary branch findings on the new branch');
  });

  it('the scanned commit missing here: scanned lines and a notice; Fetch Scanned Commit fetches it and maps again', async () => {
    const [target] = await targets(f);
    const root = f.folder.uri.fsPath;
    // Another clone has a commit this copy lacks: two lines inserted above the finding. It was "scanned".
    const other = mkdtempSync(join(tmpdir(), 'appsec-drift-remote-'));
    undo(() => rmSync(other, { recursive: true, force: true }));
    execFileSync('git', ['clone', '-q', root, other]);
    git(other, 'config', 'user.email', 'test@example.invalid');
    git(other, 'config', 'user.name', 'Test');
    const file = join(other, target.path);
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [...lines.slice(0, 2), 'scan-only a', 'scan-only b', ...lines.slice(2)].join('\n'));
    git(other, 'commit', '-qam', 'scanned, not fetched');
    const scanned = git(other, 'rev-parse', 'HEAD');
    undo(() => {
      git(root, 'remote', 'remove', 'scanner');
      pinScannedCommit(f.data, f.project.name, git(root, 'rev-parse', 'HEAD'));
    });
    git(root, 'remote', 'add', 'scanner', other);
    pinScannedCommit(f.data, f.project.name, scanned);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    // At the scanned commit the finding is two lines lower than in this copy.
    const unmapped = await expectAt(f, target.id, target.path, target.line, 'at its scanned line while the commit is missing');
    const hoverText = await hoverAt(uriOf(f, target.path), unmapped.range.start);
    assert.match(
      hoverText,
      new RegExp(`Placed at its line in the scan of commit ${scanned.slice(0, 7)}; this copy is at commit [0-9a-f]{7}`),
      'the hover does not claim precision',
    );
    await waitFor(() => f.api.app.places.drift.missingCommits().some((m) => m.commit === scanned), 10_000, 'the missing commit is known');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.fetchScannedCommit', { commit: scanned }), true);
    await expectAt(f, target.id, target.path, target.line - 2, 'mapped after the fetch (two lines that this copy does not have)');
  });
});
