// A project's settings on the platform, from the editor: its tags (added and removed), its primary
// branch (what "new on this branch" compares with) and its managed scans. Through the automation
// arguments each shows in the tree, Problems or the tooltip and on the platform; refused (a role
// that may not write), the very same project shows again and the notification names the role.
// Pictures: the tags picker opened again from a refused edit, the primary-branch picker and the
// managed scans picker, light and dark.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ManagedScans, Project } from '../../../src/core/model/types';
import { findingNodes, issueTypeNode, signedIn, type Fixture, type Snap } from './fixture';
import { notificationTexts, readWindow, screenshotsInThemes, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

const run = <T>(command: string, ...args: unknown[]): Thenable<T | undefined> =>
  vscode.commands.executeCommand<T | undefined>(`appsecFindings.${command}`, ...args);
/** The rows of the quick input the window shows. */
const pickerRows = (selector = ''): Promise<{ label: string; text: string }[]> =>
  readWindow(`.quick-input-widget:visible .quick-input-list .monaco-list-row${selector}`);

describe("a project's settings", () => {
  let f: Fixture;
  let name: string;
  let original: { tags: string[]; primary: string; scans: { diff: boolean; full: boolean } };
  before(async () => {
    f = await signedIn();
    name = f.project.name;
    const c = f.project.managed_scan_config;
    original = { tags: [...f.project.tags], primary: f.project.primary_branch, scans: { diff: c.diff_scan.enabled, full: c.full_scan.enabled } };
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
  });
  afterEach(async () => {
    f.server.restoreProducts();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    // What "new on this branch" compares with: the tests after this one count on the primary branch.
    if (f.project.primary_branch !== original.primary) await run('setPrimaryBranch', name, original.primary);
  });
  after(async () => {
    // Put back through the commands: the platform and the extension agree again.
    const now = f.project.tags;
    await run('editTags', name, { add: original.tags.filter((t) => !now.includes(t)), remove: now.filter((t) => !original.tags.includes(t)) });
    await run('setPrimaryBranch', name, original.primary);
    await run('setManagedScans', name, { diffScan: original.scans.diff, fullScan: original.scans.full });
    assert.deepEqual([...f.project.tags].sort(), [...original.tags].sort());
    assert.equal(f.project.primary_branch, original.primary);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  /** The project's row in the Projects view. */
  async function projectRow(): Promise<Snap | undefined> {
    const roots = (await snapshotTree(f.api.trees.projects, 1)) as Snap[];
    return roots.find((p) => p.label === name);
  }
  const shownTags = async (): Promise<string> => (await projectRow())?.description ?? '';

  /** The project's tooltip as the tree resolves it on hover (its details: managed scans). */
  async function tooltip(): Promise<string> {
    const provider = f.api.trees.projects;
    const node = provider.getChildren().find((n) => provider.getTreeItem(n).label === name);
    assert.ok(node, 'the project is in the tree');
    const resolved = await provider.resolveTreeItem(provider.getTreeItem(node), node, new vscode.CancellationTokenSource().token);
    return resolved.tooltip instanceof vscode.MarkdownString ? resolved.tooltip.value.replace(/\\([!-/:-@[-`{-~])/g, '$1') : String(resolved.tooltip);
  }

  async function roleNamed(what: RegExp): Promise<void> {
    const texts = await notificationTexts();
    assert.ok(
      texts.some((t) => /The token's role does not allow/.test(t) && what.test(t)),
      `the role is named: ${texts.join(' | ')}`,
    );
  }

  it('Edit Tags with { add, remove }: the tree and the platform have the new tags, without a prompt', async () => {
    await run('editTags', name, { add: ['legacy-x'] });
    const mark = f.server.requests.length;
    const updated = await run<Project>('editTags', name, { add: ['team-a', 'pci-dss'], remove: ['legacy-x'] });
    assert.ok(updated?.tags.includes('team-a') && updated.tags.includes('pci-dss') && !updated.tags.includes('legacy-x'), JSON.stringify(updated?.tags));
    assert.ok(f.project.tags.includes('team-a') && f.project.tags.includes('pci-dss') && !f.project.tags.includes('legacy-x'), 'the platform has them');
    const writes = f.server.requests
      .slice(mark)
      .filter((r) => r.path.endsWith('/tags'))
      .map((r) => r.method);
    assert.deepEqual(writes, ['PUT', 'DELETE']);
    await waitFor(async () => /team-a/.test(await shownTags()) && !/legacy-x/.test(await shownTags()), 5_000, 'the tree shows the new tags');
    assert.match(await tooltip(), /Tags: .*team-a/, 'and the tooltip');
  });

  it('Edit Tags refused: the same project shows, the role is named; Edit Again opens the picker as it was left (screenshot)', async function () {
    this.timeout(60_000);
    await run('editTags', name, { add: ['legacy-y'] });
    const before = f.api.app.projects.find(name);
    f.server.setReadOnly(true);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.equal(await run('editTags', name, { add: ['team-b', 'tier-2'], remove: ['legacy-y'] }), undefined, 'refused: reported, not thrown');
    assert.equal(f.api.app.projects.find(name), before, 'the very same project object');
    assert.ok(f.project.tags.includes('legacy-y') && !f.project.tags.includes('team-b'), 'the platform is unchanged');
    assert.match(await shownTags(), /legacy-y/);
    assert.doesNotMatch(await shownTags(), /team-b/);
    await roleNamed(/removing tags|tagging project/);
    f.server.setReadOnly(false);

    // The message's first button, as a click on it: the picker with legacy-y to be removed and the text typed.
    await vscode.commands.executeCommand('notification.acceptPrimaryAction');
    let rows: { label: string; text: string }[] = [];
    await waitFor(
      async () => (rows = await pickerRows()).some((r) => /team-b, tier-2/.test(r.label + r.text)),
      10_000,
      () => `the picker opens again with the text typed (shows: ${JSON.stringify(rows)})`,
    );
    assert.ok(
      rows.some((r) => /team-b, tier-2/.test(r.label + r.text) && /Add: team-b, tier-2/.test(r.label + r.text)),
      `the text typed is the first row: ${JSON.stringify(rows)}`,
    );
    const removed = rows.filter((r) => /removed when you save/.test(r.text)).map((r) => r.text.trim());
    assert.ok(
      removed.some((n) => n.startsWith('legacy-y')),
      `legacy-y is to be removed: ${JSON.stringify(rows)}`,
    );
    assert.equal(removed.length, 1, `the others are kept: ${JSON.stringify(rows)}`);
    await screenshotsInThemes('edit-tags');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await waitFor(
      () => f.project.tags.includes('team-b') && f.project.tags.includes('tier-2') && !f.project.tags.includes('legacy-y'),
      10_000,
      'accepted again: the platform has the change',
    );
    await waitFor(async () => /team-b/.test(await shownTags()) && !/legacy-y/.test(await shownTags()), 5_000, 'and the tree');
  });

  /** The ids of the workspace branch's findings that `primary` lacks (by match_based_id). */
  function newAgainst(branch: string, primary: string): Set<number> {
    const ofProject = [...f.data.sast, ...f.data.sca].filter((x) => x.repository?.name === name);
    const onPrimary = new Set(ofProject.filter((x) => x.ref === primary).map((x) => x.match_based_id));
    return new Set(
      ofProject
        .filter((x) => x.ref === branch && !onPrimary.has(x.match_based_id))
        .map((x) => x.id)
        .filter((id): id is number => id !== undefined),
    );
  }

  it('Set Primary Branch: "new on this branch" follows the new primary branch without a reload; resolves once it does', async function () {
    this.timeout(60_000);
    const workspaceBranch = f.api.app.repos.repos()[0]?.branch;
    assert.equal(workspaceBranch, original.primary, 'the workspace is on the primary branch: nothing is new');
    assert.equal(f.api.app.diagnostics.current[0]?.novelty, undefined);
    const updated = await run<Project>('setPrimaryBranch', name, f.featureRef);
    assert.equal(updated?.primaryBranch, f.featureRef);
    assert.equal(f.project.primary_branch, f.featureRef, 'the platform has it');
    assert.equal(f.api.app.baselines.comparedWith(name), f.featureRef, "resolved once the new primary branch's findings are loaded");
    await waitFor(() => f.api.app.diagnostics.current[0]?.novelty?.primary === f.featureRef, 10_000, 'Problems compares with the new primary branch');
    const folder = f.api.app.diagnostics.current[0];
    const expected = newAgainst(workspaceBranch, f.featureRef);
    const marked = folder.findings.filter((x) => folder.novelty!.isNew(x)).map((x) => x.id);
    assert.ok(marked.length > 0 && marked.length < folder.findings.length, `some new, some not (${marked.length} of ${folder.findings.length})`);
    assert.deepEqual(
      new Set(marked),
      new Set(folder.findings.map((x) => x.id).filter((id) => expected.has(id))),
      'new exactly when the new primary branch lacks them',
    );
    const code = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    assert.equal(
      code.filter((n) => (n.description ?? '').startsWith('new on this branch · ')).length,
      folder.findings.filter((x) => x.issueType === 'sast' && folder.novelty!.isNew(x)).length,
      'the tree marks them too',
    );
    assert.match(await tooltip(), new RegExp(`Primary branch: ${f.featureRef}`));

    const back = await run<Project>('setPrimaryBranch', name, original.primary);
    assert.equal(back?.primaryBranch, original.primary);
    await waitFor(() => f.api.app.diagnostics.current[0]?.novelty === undefined, 10_000, 'back on the primary branch: nothing new');
  });

  it('Set Primary Branch refused: the same project shows, nothing new is marked, the role is named', async () => {
    const before = f.api.app.projects.find(name);
    f.server.setReadOnly(true);
    assert.equal(await run('setPrimaryBranch', name, f.featureRef), undefined);
    assert.equal(f.api.app.projects.find(name), before, 'the very same project object');
    assert.equal(f.project.primary_branch, original.primary);
    assert.equal(f.api.app.diagnostics.current[0]?.novelty, undefined);
    await roleNamed(/primary branch/);
  });

  it('the Set Primary Branch picker lists the branches with scans, the primary one marked (screenshot)', async function () {
    this.timeout(60_000);
    const picked = run('setPrimaryBranch', name);
    await waitFor(async () => (await pickerRows()).some((r) => (r.label + r.text).includes(f.featureRef)), 10_000, 'the scanned branches are listed');
    const texts = (await pickerRows()).map((r) => r.text);
    assert.ok(
      texts.some((t) => t.includes('The default branch')),
      JSON.stringify(texts),
    );
    assert.ok(
      texts.some((t) => t.includes(original.primary) && t.includes('primary now')),
      JSON.stringify(texts),
    );
    await screenshotsInThemes('set-primary-branch');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await picked, undefined, 'dismissed: nothing changes');
    assert.equal(f.project.primary_branch, original.primary);
  });

  it('Managed Scans with { diffScan }: the tooltip and the platform show it; the other setting is kept', async () => {
    const wasDiff = f.project.managed_scan_config.diff_scan.enabled;
    const wasFull = f.project.managed_scan_config.full_scan.enabled;
    const scans = await run<ManagedScans>('setManagedScans', name, { diffScan: !wasDiff });
    assert.deepEqual(scans, { diffScanEnabled: !wasDiff, fullScanEnabled: wasFull });
    assert.deepEqual(f.project.managed_scan_config, { diff_scan: { enabled: !wasDiff }, full_scan: { enabled: wasFull } }, 'the platform has it');
    const tip = await tooltip();
    assert.match(tip, new RegExp(`Managed diff scans: ${!wasDiff ? 'enabled' : 'disabled'}`));
    assert.match(tip, new RegExp(`Managed full scans: ${wasFull ? 'enabled' : 'disabled'}`));
  });

  it('Managed Scans refused: the same details show in the tooltip, the role is named', async () => {
    const details = await f.api.app.projects.loadDetails(name);
    const before = f.api.app.projects.find(name);
    const tipBefore = await tooltip();
    f.server.setReadOnly(true);
    assert.equal(await run('setManagedScans', name, { diffScan: !details.managedScanConfig?.diffScanEnabled }), undefined);
    assert.equal(await f.api.app.projects.loadDetails(name), details, 'the very same details');
    assert.equal(f.api.app.projects.find(name), before);
    assert.equal(await tooltip(), tipBefore);
    await roleNamed(/managed scans/);
  });

  it('the Managed Scans picker: the two settings ticked as they are (screenshot)', async function () {
    this.timeout(60_000);
    await run('setManagedScans', name, { diffScan: true, fullScan: false });
    const c = f.project.managed_scan_config;
    const picked = run('setManagedScans', name);
    await waitFor(async () => (await pickerRows()).some((r) => r.text.includes('Full scans of the repository')), 10_000, 'the settings are listed once loaded');
    const ticked = await pickerRows('[aria-checked="true"]');
    const expected = [c.diff_scan.enabled ? 'Diff-aware scans of pull requests' : '', c.full_scan.enabled ? 'Full scans of the repository' : ''].filter(
      Boolean,
    );
    assert.deepEqual(
      ticked.map((r) => expected.find((e) => r.text.includes(e)) ?? r.text),
      expected,
      'ticked as they are now',
    );
    await screenshotsInThemes('managed-scans');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await picked, undefined, 'dismissed: nothing changes');
  });
});
