// Tagging and the copy commands (SBOM exports: sbom.test.ts), end to end against the local platform.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fixture, signedIn } from './fixture';
import { restoreAfterEach, waitFor } from './helpers';
import { firstFindingNode, snapshotTree } from './tree-snapshot';

describe('commands', () => {
  /** The filters before a test that changes them: put back after it, even when it failed midway. */
  let filtersBefore: object | undefined;
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  afterEach(async () => {
    if (filtersBefore) await vscode.commands.executeCommand('appsecFindings.filterFindings', filtersBefore);
    filtersBefore = undefined;
  });
  const undo = restoreAfterEach();

  it('tags a project: trimmed, de-duplicated, merged by the platform, shown in the tree', async () => {
    const f = await fixture();
    const before = [...f.project.tags];
    // The tags added taken off again, through the command, so the platform and the tree agree.
    undo(async () => {
      const added = f.project.tags.filter((t) => !before.includes(t));
      if (added.length > 0) await vscode.commands.executeCommand('appsecFindings.editTags', f.project.name, { remove: added });
      assert.deepEqual([...f.project.tags].sort(), [...before].sort(), "the project's tags are put back");
    });
    const updated = await vscode.commands.executeCommand<{ tags: string[] } | undefined>('appsecFindings.tagProject', f.project.name, ' team-x, pci ,team-x ');
    assert.ok(updated);
    assert.deepEqual([...updated.tags].sort(), [...new Set([...before, 'team-x', 'pci'])].sort());
    const put = f.server.requests.filter((r) => r.method === 'PUT').pop();
    assert.deepEqual(JSON.parse(put?.body ?? '{}'), { tags: ['team-x', 'pci'] });
    const projects = (await snapshotTree(f.api.trees.projects, 1)) as { label: string; description?: string }[];
    assert.match(projects.find((p) => p.label === f.project.name)?.description ?? '', /team-x/);
  });

  it('refuses invalid tags without calling the platform', async () => {
    const f = await fixture();
    const before = f.server.requests.length;
    const result = await vscode.commands.executeCommand('appsecFindings.tagProject', f.project.name, 'ok, <script>');
    assert.equal(result, undefined);
    assert.equal(f.server.requests.slice(before).filter((r) => r.method === 'PUT').length, 0);
  });

  it('copies a finding id and a rule id', async () => {
    const f = await fixture();
    const finding = f.api.app.diagnostics.current[0]?.findings[0];
    assert.ok(finding);
    assert.equal(await vscode.commands.executeCommand('appsecFindings.copyFindingId', { finding }), String(finding.id));
    assert.equal(await vscode.env.clipboard.readText(), String(finding.id));
    assert.equal(await vscode.commands.executeCommand('appsecFindings.copyRuleId', { finding }), finding.ruleName);
  });

  it('from the keyboard: with a finding selected in the tree, the palette commands act on it', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const node = await firstFindingNode(f.api.trees.projects);
    await f.api.trees.projectsView.reveal(node, { select: true, focus: true });
    await waitFor(() => f.api.trees.projectsView.selection[0]?.id === node.id, 5_000, 'the finding is selected in the tree');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.copyFindingId'), String(node.finding.id), 'no argument: the selected finding');
    assert.equal(await vscode.env.clipboard.readText(), String(node.finding.id));
    assert.equal(await vscode.commands.executeCommand('appsecFindings.copyRuleId'), node.finding.ruleName);
  });

  it("copies a finding's platform link, and shows only a finding's severity from its context menu", async () => {
    const f = await fixture();
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.severity === 'medium');
    assert.ok(finding);
    const link = await vscode.commands.executeCommand<string>('appsecFindings.copyLink', { finding });
    assert.equal(link, `${f.server.url}/orgs/${f.data.deployment.slug}/findings/${finding.id}`);
    assert.equal(await vscode.env.clipboard.readText(), link);
    const before = f.api.app.viewState.selection();
    filtersBefore = before;
    const news = (): number => f.api.app.log.recent().filter((line) => line.includes('New findings:')).length;
    const newsBefore = news();
    await vscode.commands.executeCommand('appsecFindings.filterBySeverity', { finding });
    assert.deepEqual(f.api.app.viewState.selection().severities, ['medium']);
    assert.equal(f.api.app.viewState.selection().status, before.status, 'the other filters stay');
    const shown = f.api.app.diagnostics.current[0]?.findings ?? [];
    assert.ok(shown.length > 0 && shown.every((x) => x.severity === 'medium'), 'Problems shows that severity only');
    await vscode.commands.executeCommand('appsecFindings.filterFindings', before);
    assert.equal(news(), newsBefore, 'findings a filter change shows again are not announced as new');
  });

  it('opens a finding in the editor at its range', async () => {
    const f = await fixture();
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.location);
    assert.ok(finding?.location);
    assert.equal(await vscode.commands.executeCommand('appsecFindings.openFinding', { finding }), 'editor');
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor?.document.uri.fsPath.endsWith(finding.location.filePath));
    assert.equal(editor?.selection.start.line, finding.location.line - 1);
  });
});
