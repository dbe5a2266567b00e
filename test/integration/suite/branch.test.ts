// New on this branch: on a branch with its own scan, the findings its primary branch does not have
// (by match_based_id) are marked in the tree, the hover and the status bar, and the filter "only
// new on this branch" leaves only them in Problems and the tree.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { findingNodes, git, issueTypeNode, signedIn, type Fixture } from './fixture';
import { hoverAt, screenshotsInThemes, waitFor } from './helpers';
import { firstFindingNode } from './tree-snapshot';

/** Every finding of ours in Problems. */
function ourDiagnostics(f: Fixture): { uri: vscode.Uri; diagnostic: FindingDiagnostic }[] {
  const out: { uri: vscode.Uri; diagnostic: FindingDiagnostic }[] = [];
  f.api.app.diagnostics.collection.forEach((uri, list) => {
    for (const d of list as readonly FindingDiagnostic[]) if (d.finding) out.push({ uri, diagnostic: d });
  });
  return out;
}

/** What the platform's data says: the ids of the project's findings on `ref` whose match_based_id main lacks. */
function newIdsOn(f: Fixture, ref: string): Set<number> {
  const ofProject = [...f.data.sast, ...f.data.sca].filter((x) => x.repository?.name === f.project.name);
  const onPrimary = new Set(ofProject.filter((x) => x.ref === f.project.primary_branch).map((x) => x.match_based_id));
  return new Set(
    ofProject
      .filter((x) => x.ref === ref && !onPrimary.has(x.match_based_id))
      .map((x) => x.id)
      .filter((id): id is number => id !== undefined),
  );
}

async function checkout(f: Fixture, branch: string): Promise<void> {
  const root = f.folder.uri.fsPath;
  git(root, 'checkout', '-q', '-B', branch);
  await waitFor(() => f.api.app.repos.repos()[0]?.branch === branch, 15_000, `git reports ${branch}`);
  await vscode.commands.executeCommand('appsecFindings.refresh');
}

describe('new on this branch', () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await checkout(f, f.project.primary_branch);
  });

  it('marks exactly the findings the primary branch lacks: tree, hover, status bar; the filter leaves only them', async function () {
    // Four branch switches, each with a refresh, and a screenshot per theme.
    this.timeout(60_000);
    const expected = newIdsOn(f, f.featureRef);
    const news = (): string[] => f.api.app.log.recent().filter((line) => line.includes('New findings:'));
    const newsBefore = news().length;
    await checkout(f, f.featureRef);
    await waitFor(() => f.api.app.diagnostics.current[0]?.novelty !== undefined, 15_000, 'the branch is compared with the primary branch');
    const folder = f.api.app.diagnostics.current[0];
    assert.equal(folder.usedFallback, false, 'the feature branch has its own scan');
    assert.equal(folder.novelty?.primary, f.project.primary_branch);
    const shown = folder.findings;
    const marked = shown.filter((x) => folder.novelty!.isNew(x));
    assert.ok(marked.length > 0 && marked.length < shown.length, `some new, some not (${marked.length} of ${shown.length})`);
    assert.deepEqual(
      new Set(marked.map((x) => x.id)),
      new Set(shown.filter((x) => expected.has(x.id)).map((x) => x.id)),
      'new exactly when main has no finding with its match_based_id',
    );

    const openNew = marked.filter((x) => x.status === 'open').length;
    assert.match(f.api.statusBar.text, new RegExp(`\\$\\(git-branch\\) ${openNew} new$`), 'the status bar counts them');
    assert.match(f.api.statusBar.tooltip, new RegExp(`${openNew} of them (is|are) new on this branch \\(${f.project.primary_branch} does not have`));

    const code = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    const newInTree = code.filter((n) => (n.description ?? '').startsWith('new on this branch · '));
    assert.equal(newInTree.length, marked.filter((x) => x.issueType === 'sast').length, 'the tree marks each new code finding');

    const newOne = ourDiagnostics(f).find((d) => folder.novelty!.isNew(d.diagnostic.finding));
    const oldOne = ourDiagnostics(f).find((d) => !folder.novelty!.isNew(d.diagnostic.finding));
    assert.ok(newOne && oldOne, 'Problems has new and old findings');
    const hoverOf = (at: { uri: vscode.Uri; diagnostic: FindingDiagnostic }): Promise<string> => hoverAt(at.uri, at.diagnostic.range.start);
    assert.match(await hoverOf(newOne), /new on this branch/i, 'the hover says it is new');
    assert.doesNotMatch(await hoverOf(oldOne), /new on this branch/i, 'and only when it is');

    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', newOnBranch: true });
    await waitFor(() => ourDiagnostics(f).every((d) => folder.novelty!.isNew(d.diagnostic.finding)), 15_000, 'Problems shows only new findings');
    assert.ok(ourDiagnostics(f).length > 0);
    assert.match(f.api.statusBar.text, / new$/);
    assert.equal(
      f.api.trees.projectsView.badge?.value,
      ourDiagnostics(f).filter((d) => d.diagnostic.finding.status === 'open').length,
      'the badge counts what Problems shows',
    );
    assert.equal(f.api.trees.projectsView.description, 'open · new on this branch');
    const filtered = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    assert.ok(filtered.length > 0 && filtered.every((n) => (n.description ?? '').startsWith('new on this branch · ')), 'the tree lists only new findings');

    await checkout(f, f.project.primary_branch);
    await checkout(f, f.featureRef);
    assert.deepEqual(news().slice(newsBefore), [], 'switching branches and filters is not news');

    await vscode.window.showTextDocument(newOne.uri, { selection: newOne.diagnostic.range });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    await f.api.trees.projectsView.reveal(await firstFindingNode(f.api.trees.projects), { expand: true, select: true, focus: false });
    await screenshotsInThemes('new-on-branch');
  });

  it('on the primary branch nothing is new, and the filter says why instead of showing an empty view', async () => {
    await checkout(f, f.project.primary_branch);
    assert.equal(f.api.app.diagnostics.current[0]?.novelty, undefined);
    assert.doesNotMatch(f.api.statusBar.text, /new/);
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', newOnBranch: true });
    await waitFor(() => ourDiagnostics(f).length === 0, 15_000, 'Problems empties: nothing is new on the primary branch');
    const node = await issueTypeNode(f, /^Code findings/, 3);
    const texts = (node?.children ?? []).map((c) => c.label);
    assert.deepEqual(texts, [`Nothing is new on ${f.project.primary_branch}: it is the primary branch`]);
    assert.match(f.api.statusBar.text, /Nothing new/);
  });
});
