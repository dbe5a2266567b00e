// The pseudo locale's own tests, added to language.test.ts's run in `--locale qps-ploc`: the
// Projects tree and its Dependencies rows, the Policy Rules view and the details panel's sections,
// each read (the tree and the views in the window and from their providers) and pictured light and
// dark; then the report of English left on every surface (pseudo-checks.ts).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import type { Fixture, Snap } from './fixture';
import { actInWindow, inEachTheme, readWindow, screenshotHandshake, screenshotsInThemes, waitFor } from './helpers';
import { htmlTexts, paneRows, treeRows, type PseudoSurfaces } from './pseudo-checks';
import { snapshotTree } from './tree-snapshot';

/** What the language tests set up: the fixture, the checks and the pseudo package.nls (the views' titles). */
interface Context {
  f: Fixture;
  pseudo: PseudoSurfaces | undefined;
  nls: Record<string, string>;
}

export function pseudoSurfaceTests(context: () => Context): void {
  const checks = (): Context & { pseudo: PseudoSurfaces } => {
    const { pseudo, ...rest } = context();
    assert.ok(pseudo, "the pseudo locale's checks are set up");
    return { ...rest, pseudo };
  };

  it('the Projects tree and its Dependencies rows: pseudo text from the provider and in the window (screenshots)', async function () {
    this.timeout(120_000);
    const { f, pseudo, nls } = checks();
    const projects = (await snapshotTree(f.api.trees.projects, 5)) as Snap[];
    const project = projects.find((p) => p.label === f.project.name);
    assert.ok(project, 'the workspace project is listed');
    const rows = treeRows([project]);
    const provider = f.api.trees.projects;
    const projectNode = provider.getChildren().find((n) => provider.getTreeItem(n).label === f.project.name);
    assert.ok(projectNode, 'the project node');
    const dependencies = provider.getChildren(projectNode).find((n) => n.kind === 'dependencies');
    assert.ok(dependencies, 'the project has its Dependencies node');
    await vscode.commands.executeCommand('workbench.actions.treeView.appsecFindings.projects.collapseAll');
    await f.api.trees.projectsView.reveal(dependencies, { expand: 2, select: true, focus: false });
    const title = nls['view.projects.name'] ?? '';
    let shown: string[] = [];
    await waitFor(
      async () => {
        shown = (await readWindow(paneRows(title))).map((r) => r.text);
        return shown.length > 4;
      },
      10_000,
      () => `the window shows the Dependencies rows (it shows: ${shown.join(' | ')})`,
    );
    await screenshotsInThemes('dependencies');
    // A window row belongs to the Dependencies rows when a node under Dependencies starts it.
    const underDependencies = (row: string): boolean => rows.dependencyLabels.some((label) => row.startsWith(label));
    pseudo.see('dependencies rows', [...rows.dependencies, ...shown.filter(underDependencies)]);
    pseudo.see('tree', [...rows.tree, ...shown.filter((row) => !underDependencies(row))]);
  });

  it('the Policy Rules view: pseudo text from the provider and in the window (screenshots)', async function () {
    this.timeout(120_000);
    const { f, pseudo, nls } = checks();
    await vscode.commands.executeCommand('appsecFindings.policies.focus');
    const policies = (await snapshotTree(f.api.trees.policies, 3)) as Snap[];
    assert.ok(policies.length > 0, 'the Policy Rules view lists policies');
    const [first] = await f.api.trees.policies.getChildren();
    if (first) await f.api.trees.policiesView.reveal(first, { expand: 2, select: true, focus: false });
    const title = nls['view.policies.name'] ?? '';
    let shown: string[] = [];
    await waitFor(
      async () => {
        shown = (await readWindow(paneRows(title))).map((r) => r.text);
        return shown.length > 1;
      },
      10_000,
      () => `the window shows the Policy Rules rows (it shows: ${shown.join(' | ')})`,
    );
    await screenshotsInThemes('policy-rules');
    pseudo.see('Policy Rules view', [title, ...treeRows(policies).tree, ...shown]);
  });

  it("the details panel's sections of a code finding, once its details are read (screenshots, scrolled to its end)", async function () {
    this.timeout(60_000);
    const { f, pseudo } = checks();
    let finding: KnownFindingDiagnostic['finding'] | undefined;
    f.api.app.diagnostics.collection.forEach((_uri, list) => {
      finding ??= (list as readonly KnownFindingDiagnostic[]).find((d) => d.finding?.issueType === 'sast')?.finding;
    });
    assert.ok(finding, 'a code finding in Problems');
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    const panel = f.api.detailsPanel;
    await waitFor(() => panel.shownHtml.includes('</header>') && !panel.shownHtml.includes('class="loading"'), 15_000, "the panel shows the finding's details");
    await vscode.commands.executeCommand('workbench.action.closePanel');
    // The sections below the header: the panel focused and scrolled to its end, as a user's End key does.
    await inEachTheme(['light', 'dark'], async (theme) => {
      await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      await actInWindow('press:End');
      await screenshotHandshake(`details-sections-${theme}`);
    });
    const html = panel.shownHtml;
    pseudo.see('details sections', htmlTexts(html.slice(html.indexOf('</header>'))));
  });

  it('English left: none on any surface read, every surface read', () => {
    const { pseudo } = checks();
    console.log(`English left in the pseudo locale:\n${pseudo.report()}`);
  });
}
