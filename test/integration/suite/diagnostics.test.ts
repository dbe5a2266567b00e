// Findings of the open repository become diagnostics on the right branch and the right line, and
// follow the platform, the branch and the filters.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, fixture, git, issueTypeNode, serverFindings, type Fixture, signedIn } from './fixture';
import { hoverAt, readWindow, restoreAfterEach, waitFor, screenshotHandshake } from './helpers';
import { PLAN_SLICE } from '../../../src/diagnostics/drawing-plan';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { firstFindingNode, snapshotTree } from './tree-snapshot';

function ours(): [vscode.Uri, readonly vscode.Diagnostic[]][] {
  return vscode.languages
    .getDiagnostics()
    .map(([uri, list]): [vscode.Uri, vscode.Diagnostic[]] => [uri, list.filter((d) => d.source === 'AppSec')])
    .filter(([, list]) => list.length > 0);
}

function count(): number {
  return ours().reduce((n, [, list]) => n + list.length, 0);
}

function lineOf(d: vscode.Diagnostic): number {
  return d.range.start.line;
}

async function codeFindingsOn(f: Fixture, ref: string, extra: Record<string, string | string[]> = {}) {
  return serverFindings(f, 'sast', { repos: f.project.name, ref, status: 'open', dedup: 'true', ...extra });
}

describe('diagnostics', () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  const undo = restoreAfterEach();

  it('shows the open code findings of the current branch at their 1-based lines, 0-based', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const expected = await codeFindingsOn(f, f.project.primary_branch);
    assert.ok(expected.length > 0);
    for (const finding of expected.slice(0, 25)) {
      if (!finding.path || !finding.line) continue;
      const uri = vscode.Uri.joinPath(f.folder.uri, finding.path);
      const lines = vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'AppSec')
        .map(lineOf);
      assert.ok(lines.includes(finding.line - 1), `${finding.path}:${finding.line} → line index ${finding.line - 1} (got ${lines.join(',')})`);
    }
    const sample = ours()[0]?.[1][0];
    assert.ok(sample);
    assert.equal(sample.source, 'AppSec');
    assert.equal(typeof (sample.code as { value: string }).value, 'string');
  });

  it('maps severities: critical/high → Error, medium → Warning, low → Information', async () => {
    const f = await fixture();
    const severities = await Promise.all(['critical', 'medium', 'low'].map((s) => codeFindingsOn(f, f.project.primary_branch, { severities: s })));
    const expect = [vscode.DiagnosticSeverity.Error, vscode.DiagnosticSeverity.Warning, vscode.DiagnosticSeverity.Information];
    severities.forEach((list, i) => {
      const finding = list.find((x) => x.path && x.line);
      assert.ok(finding, `the platform has an open ${['critical', 'medium', 'low'][i]} code finding with a place`);
      const diagnostics = vscode.languages
        .getDiagnostics(vscode.Uri.joinPath(f.folder.uri, finding.path!))
        .filter((d) => d.range.start.line === finding.line! - 1);
      assert.ok(
        diagnostics.some((d) => d.severity === expect[i]),
        `severity ${i} at ${finding.path}:${finding.line}`,
      );
    });
  });

  it('puts supply-chain findings at their usage, else at the lockfile line, with the other place related', async () => {
    const f = await fixture();
    const template = f.data.sca.find((x) => x.repository?.name === f.project.name)!;
    const lockUrl = `https://github.com/${f.project.name}/blob/0123abc/locks/poetry.lock#L5`;
    const base = { ...template, ref: f.project.primary_branch, status: 'open', relevant_since: new Date().toISOString() };
    const dependency = { ...template.found_dependency, package: 'leftpad', version: '1.0.0', lockfile_line_url: lockUrl };
    f.data.sca.push(
      {
        ...base,
        id: 990_010,
        syntactic_id: 'sca-used',
        found_dependency: dependency,
        usage: { location: { path: 'src/uses_dep.py', start_line: 12, start_col: 5, end_line: 12, end_col: 20 } },
      },
      {
        ...base,
        id: 990_011,
        syntactic_id: 'sca-unused',
        found_dependency: { ...dependency, lockfile_line_url: lockUrl.replace('#L5', '#L9') },
        usage: undefined,
      },
    );
    undo(() => (f.data.sca = f.data.sca.filter((x) => x.id !== 990_010 && x.id !== 990_011)));
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const atUsage = vscode.languages.getDiagnostics(vscode.Uri.joinPath(f.folder.uri, 'src/uses_dep.py'));
    assert.deepEqual(
      atUsage.map((d) => [d.range.start.line, d.range.start.character]),
      [[11, 4]],
    );
    const related = atUsage[0]?.relatedInformation?.[0];
    assert.equal(related?.location.uri.fsPath, vscode.Uri.joinPath(f.folder.uri, 'locks/poetry.lock').fsPath);
    assert.equal(related?.location.range.start.line, 4);
    assert.match(atUsage[0]?.message ?? '', /^leftpad 1\.0\.0 — /);
    const atLockfile = vscode.languages.getDiagnostics(vscode.Uri.joinPath(f.folder.uri, 'locks/poetry.lock')).map((d) => d.range.start.line);
    assert.deepEqual(atLockfile, [8], 'the unused one sits at its lockfile line');
  });

  it('follows the platform on refresh: new findings appear, a file that drops to zero is cleared', async () => {
    const f = await fixture();
    const template = f.data.sast.find((x) => x.repository?.name === f.project.name && x.ref === f.project.primary_branch && x.status === 'open')!;
    const path = 'src/added_by_test.py';
    f.data.sast.push({
      ...template,
      id: 990_001,
      syntactic_id: 'added-by-test',
      status: 'open',
      relevant_since: new Date().toISOString(),
      location: { file_path: path, line: 7, column: 3, end_line: 7, end_column: 9 },
    });
    undo(async () => {
      if (!f.data.sast.some((x) => x.id === 990_001)) return;
      f.data.sast = f.data.sast.filter((x) => x.id !== 990_001);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const added = vscode.languages.getDiagnostics(vscode.Uri.joinPath(f.folder.uri, path));
    assert.deepEqual(
      added.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character]),
      [[6, 2, 8]],
    );

    f.data.sast = f.data.sast.filter((x) => x.id !== 990_001);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(vscode.languages.getDiagnostics(vscode.Uri.joinPath(f.folder.uri, path)).length, 0, 'the emptied file lost its diagnostic');
  });

  it("a refresh of a copy at the scanned commit draws Problems once: mapping onto today's code finds nothing moved", async () => {
    const f = await fixture();
    assert.equal(git(f.folder.uri.fsPath, 'status', '--porcelain', '--untracked-files=no'), '', 'this copy is its scanned commit, saved');
    // The tracker logs "Drift: …" as a mapping ends, then tells its listeners (this one, then
    // Problems, which draws again when findings may have moved), all in one turn; a mapping asked
    // for while one runs is folded into it and told once, at its end. The refresh resolves once
    // drawn, its drawing having asked for the mapping: the next end told is that mapping's (one
    // told earlier may be of a mapping under way before the refresh).
    let refreshed = false;
    let mappingEnded = false;
    const listening = f.api.app.places.drift.onDidChange(() => {
      if (refreshed) mappingEnded = true;
    });
    undo(() => listening.dispose());
    await vscode.commands.executeCommand('appsecFindings.refresh');
    refreshed = true;
    await waitFor(() => mappingEnded, 10_000, "the findings are mapped onto today's code after the refresh");
    // A drawing of one slice is drawn in the turn it is asked for: had the mapping's end asked
    // for one, it would be logged by now.
    const shown = f.api.app.diagnostics.current.reduce((n, folder) => n + folder.findings.length, 0);
    assert.ok(shown > 0 && shown <= PLAN_SLICE, `the workspace's findings are drawn in one slice (${shown})`);
    // Every drawing logs "Diagnostics: …": none may follow the mapping's line.
    const lines = f.api.app.log.recent();
    const mappedAt = lines.map((line) => line.includes('Drift: ')).lastIndexOf(true);
    assert.ok(mappedAt >= 0, 'the mapping is logged');
    assert.deepEqual(
      lines.slice(mappedAt).filter((line) => line.includes('Diagnostics: ')),
      [],
      `nothing moved, so nothing is drawn again: ${lines.slice(-12).join(' | ')}`,
    );
  });

  it('the hover says how a place relates to the scan: nothing when exact, the scanned line when edits above moved it', async () => {
    await fixture();
    const [uri, list] = ours()[0] ?? [];
    assert.ok(uri && list?.[0]);
    const at = list[0].range.start;
    const hoverText = (position: vscode.Position): Promise<string> => hoverAt(uri, position);
    const editor = await vscode.window.showTextDocument(uri, { preview: false });
    // This copy is the scanned commit, saved: the place is exact and the hover claims nothing.
    assert.doesNotMatch(await hoverText(at), /AppSec:/);
    undo(async () => {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'two new lines\nabove\n'));
    const moved = at.translate(2);
    await waitFor(
      () => vscode.languages.getDiagnostics(uri).some((d) => d.source === 'AppSec' && d.range.start.isEqual(moved)),
      10_000,
      'the diagnostic follows the typing',
    );
    assert.match(await hoverText(moved), new RegExp(`AppSec: Scanned at line ${at.line + 1} of commit [0-9a-f]{7}; moved to where that code is now`));
  });

  it('refuses paths outside the workspace folder', async () => {
    const f = await fixture();
    const template = f.data.sast.find((x) => x.repository?.name === f.project.name && x.ref === f.project.primary_branch && x.status === 'open')!;
    f.data.sast.push({
      ...template,
      id: 990_002,
      syntactic_id: 'escape',
      relevant_since: new Date().toISOString(),
      location: { file_path: '../../outside.py', line: 1 },
    });
    undo(() => (f.data.sast = f.data.sast.filter((x) => x.id !== 990_002)));
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const escaped = vscode.languages.getDiagnostics().filter(([uri]) => !uri.fsPath.startsWith(f.folder.uri.fsPath));
    assert.equal(escaped.filter(([, list]) => list.some((d) => d.source === 'AppSec')).length, 0);
  });

  it("Show Finding Details from the editor shows the finding under the cursor, not the tree's selection", async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const selected = await firstFindingNode(f.api.trees.projects);
    await f.api.trees.projectsView.reveal(selected, { expand: true, select: true, focus: false });
    await waitFor(() => f.api.trees.projectsView.selection[0]?.id === selected.id, 5_000, 'a finding is selected in the tree');
    const drawn: { uri: vscode.Uri; d: KnownFindingDiagnostic }[] = [];
    f.api.app.diagnostics.collection.forEach((uri, list) => {
      for (const d of list as readonly KnownFindingDiagnostic[]) if (d.finding) drawn.push({ uri, d });
    });
    const other = drawn.find(({ d }) => d.finding.id !== selected.finding.id);
    assert.ok(other, 'Problems shows another finding');
    await vscode.window.showTextDocument(other.uri, { selection: other.d.range });
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails'), true);
    await waitFor(() => f.api.detailsPanel.shownFinding !== undefined, 10_000, 'the details are shown');
    assert.equal(f.api.detailsPanel.shownFinding?.id, other.d.finding.id, 'the finding under the cursor');
  });

  it('shows the tree and Problems (screenshot)', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const projects = (await snapshotTree(f.api.trees.projects, 1)) as { label: string }[];
    assert.ok(projects.length > 0);
    await f.api.trees.projectsView.reveal(await firstFindingNode(f.api.trees.projects), { expand: true, select: true, focus: false });
    const [uri] = ours()[0] ?? [];
    assert.ok(uri, 'Problems holds a file of ours');
    await vscode.window.showTextDocument(uri, { preview: true });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await waitFor(async () => (await readWindow('.markers-panel .monaco-list-row')).length > 0, 10_000, "the window's Problems panel lists the diagnostics");
    await screenshotHandshake();
  });

  it('follows a branch switch, and falls back to the primary branch when a branch has no scan', async () => {
    const f = await fixture();
    const root = f.folder.uri.fsPath;
    const onFeature = await codeFindingsOn(f, f.featureRef);
    undo(async () => {
      git(root, 'checkout', '-q', f.project.primary_branch);
      await waitFor(() => f.api.app.repos.repos()[0]?.branch === f.project.primary_branch, 15_000, 'back on the primary branch');
    });
    git(root, 'checkout', '-q', '-B', f.featureRef);
    await waitFor(() => f.api.app.repos.repos()[0]?.branch === f.featureRef, 15_000, 'git reports the new branch');
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const folder = f.api.app.diagnostics.current[0];
    assert.equal(folder?.ref, f.featureRef);
    assert.equal(folder?.findings.filter((x) => x.issueType === 'sast').length, onFeature.length);
    assert.match(f.api.statusBar.text, /\d/);

    git(root, 'checkout', '-q', '-B', 'no-scan-here');
    await waitFor(() => f.api.app.repos.repos()[0]?.branch === 'no-scan-here', 15_000, 'git reports the unscanned branch');
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const fallback = f.api.app.diagnostics.current[0];
    assert.equal(fallback?.ref, f.project.primary_branch);
    assert.equal(fallback?.usedFallback, true);
  });

  it('applies filters to the tree and Problems alike', async () => {
    const f = await fixture();
    const filtersBefore = f.api.app.viewState.selection();
    undo(() => vscode.commands.executeCommand('appsecFindings.filterFindings', filtersBefore));
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', severities: ['critical'] });
    const critical = await codeFindingsOn(f, f.project.primary_branch, { severities: 'critical' });
    const shown = f.api.app.diagnostics.current[0]?.findings.filter((x) => x.issueType === 'sast') ?? [];
    assert.equal(shown.length, critical.length);
    assert.ok(shown.every((x) => x.severity === 'critical'));
    assert.ok(
      ours()
        .flatMap(([, l]) => l)
        .every((d) => d.severity === vscode.DiagnosticSeverity.Error),
    );
    assert.match(f.api.trees.projectsView.description ?? '', /critical/);
    const treeCount = findingNodes(await issueTypeNode(f, /code/i)).length;
    assert.equal(treeCount, shown.length, 'the tree and Problems show the same findings');
    await vscode.commands.executeCommand('appsecFindings.clearFilters');
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    assert.ok(count() > 0);
  });
});
