// On a feature branch the platform scanned, every place says the same thing: Problems, the status
// bar, the Projects tree and the agent's findings tool. A filter that keeps nothing of the branch
// shows nothing and says so in the filters' words; only a branch never scanned shows its primary
// branch's findings, said plainly.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FilterSelection } from '../../../src/core/services/filters';
import { TOOL_NAMES } from '../../../src/core/agent/tool-names';
import { git, issueTypeNode, signedIn, type Fixture, type Snap } from './fixture';
import { appsecDiagnosticCount, screenshotsInThemes, waitFor } from './helpers';
import { walkTree } from './tree-snapshot';

/** The agent's findings tool, asked as an agent would for the same filters (it takes its own). */
async function agentSays(input: object = {}): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL_NAMES.findings.lm, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('what each place says of the branch checked out', () => {
  let f: Fixture;
  /** Changes made to the platform's data, put back after each test. */
  let undo: (() => void)[] = [];
  before(async () => {
    f = await signedIn();
  });
  afterEach(async () => {
    for (const step of undo.reverse()) step();
    undo = [];
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    await checkout(f.project.primary_branch);
  });

  async function checkout(branch: string): Promise<void> {
    git(f.folder.uri.fsPath, 'checkout', '-q', '-B', branch);
    await waitFor(() => f.api.app.repos.repos()[0]?.branch === branch, 15_000, `git reports ${branch}`);
    await vscode.commands.executeCommand('appsecFindings.refresh');
  }

  const onBranch = () => [...f.data.sast, ...f.data.sca].filter((x) => x.repository?.name === f.project.name && x.ref === f.featureRef);
  const change = <T extends object>(items: readonly T[], to: Partial<T>): void => {
    const before = items.map((item) => ({ item, was: Object.fromEntries(Object.keys(to).map((k) => [k, item[k as keyof T]])) }));
    undo.push(() => before.forEach(({ item, was }) => Object.assign(item, was)));
    for (const item of items) Object.assign(item, to);
  };

  /** What the code findings node of the workspace's project says, children included. */
  async function treeSays(): Promise<string> {
    const node = await issueTypeNode(f, /^Code findings/, 4);
    return [node?.description ?? '', ...(node?.children ?? []).map((c: Snap) => c.label)].join(' | ');
  }

  /** The workspace project's code findings node, expanded in the view, for a picture. */
  async function showCodeFindingsNode(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    const walked = await walkTree(f.api.trees.projects, 2, 10);
    const code = walked.find(
      (w) =>
        /^Code findings/.test(typeof w.item.label === 'string' ? w.item.label : (w.item.label?.label ?? '')) && JSON.stringify(w.node).includes(f.project.name),
    );
    assert.ok(code, 'the code findings node');
    await f.api.trees.projectsView.reveal(code.node, { expand: true, select: false, focus: false });
  }

  /** On the feature branch with `filters`, the four places say: nothing of main, no "has no scan". */
  /** `treeWords`: with only the default filters on, the tree has no filter to blame (nothing to clear). */
  async function allSayTheBranchIsClean(filters: FilterSelection | object, words: RegExp, agentInput: object, treeWords = /match the filters/): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'appsec-sarif-clean-'));
    await checkout(f.featureRef);
    await vscode.commands.executeCommand('appsecFindings.filterFindings', filters);
    await waitFor(() => appsecDiagnosticCount() === 0, 15_000, 'Problems shows nothing: the filters keep nothing of the branch');
    const folder = f.api.app.diagnostics.current[0];
    assert.equal(folder?.ref, f.featureRef, 'Problems follows the branch checked out');
    assert.equal(folder?.usedFallback, false, "none of the primary branch's findings");
    assert.match(f.api.statusBar.text, words, 'the status bar says the filters kept nothing');
    assert.doesNotMatch(f.api.statusBar.tooltip, /has no scan/);
    assert.match(f.api.statusBar.tooltip, new RegExp(`on ${f.featureRef}`));
    await waitFor(async () => treeWords.test(await treeSays()), 15_000, 'the tree says the filters keep nothing');
    assert.doesNotMatch(await treeSays(), /has no scan/);
    const agent = await agentSays(agentInput);
    assert.match(agent, new RegExp(`on ${f.featureRef}, `), agent);
    assert.doesNotMatch(agent, /has no scan/, agent);
    assert.match(agent, /None\./, agent);
    // SARIF does not fall back either: an empty log of the branch.
    const exported = await vscode.commands.executeCommand<{ results: number; ref?: string; branchWithoutScan?: string }>(
      'appsecFindings.exportSarif',
      f.project.name,
      { saveTo: join(dir, 'findings.sarif') },
    );
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual([exported.results, exported.ref, exported.branchWithoutScan], [0, f.featureRef, undefined], 'no finding, of the branch itself');
    assert.equal(await sbomRefExported(), f.featureRef, 'the SBOM of the branch itself');
  }

  /** The ref an SBOM export of the workspace's project asks for when given none (only started). */
  async function sbomRefExported(): Promise<string | undefined> {
    const started = await vscode.commands.executeCommand<{ ref?: string } | undefined>('appsecFindings.exportSbom', f.project.name, { follow: false });
    return started?.ref;
  }

  it("the branch's last open finding ignored: no open finding anywhere, and none of main's", async function () {
    this.timeout(90_000);
    change(onBranch(), { status: 'ignored', triage_state: 'ignored', state: 'muted' });
    await allSayTheBranchIsClean({ status: 'open' }, /No findings \(open\)/, {}, new RegExp(`No open findings on ${f.featureRef.replace(/[/.]/g, '\\$&')}`));
  });

  it('a severity filter that keeps nothing of the branch: "No findings (open · critical)", everywhere alike', async function () {
    this.timeout(90_000);
    change(
      onBranch().filter((x) => x.severity === 'critical'),
      { severity: 'high' },
    );
    await allSayTheBranchIsClean({ status: 'open', severities: ['critical'] }, /No findings \(open · critical\)/, { severities: ['critical'] });
    await showCodeFindingsNode();
    await screenshotsInThemes('scanned-branch-filter-keeps-nothing');
  });

  it('a status filter that keeps nothing of the branch ("fixed")', async function () {
    this.timeout(90_000);
    change(
      onBranch().filter((x) => x.status === 'fixed'),
      { status: 'open' },
    );
    await allSayTheBranchIsClean({ status: 'fixed' }, /No findings \(fixed\)/, { status: 'fixed' });
  });

  it("a branch never scanned shows the primary branch's findings, and every place says so", async function () {
    this.timeout(90_000);
    await checkout('never-scanned-here');
    await waitFor(() => f.api.app.diagnostics.current[0]?.usedFallback === true, 15_000, 'Problems falls back to the primary branch');
    assert.ok(appsecDiagnosticCount() > 0, "the primary branch's findings are shown");
    assert.match(f.api.statusBar.tooltip, /the current branch never-scanned-here has no scan; showing/);
    assert.match(f.api.statusBar.text, new RegExp(` · on ${f.project.primary_branch}$`), 'the count says whose findings it counts');
    await waitFor(async () => /never-scanned-here has no scan/.test(await treeSays()), 15_000, 'the tree says the branch has no scan');
    assert.match(await agentSays(), /the branch never-scanned-here has no scan; these are the primary branch's/);
    // SARIF writes what Problems shows, with the primary branch in the log's provenance.
    const dir = mkdtempSync(join(tmpdir(), 'appsec-sarif-unscanned-'));
    const saveTo = join(dir, 'findings.sarif');
    const exported = await vscode.commands.executeCommand<{ results: number; ref?: string; branchWithoutScan?: string }>(
      'appsecFindings.exportSarif',
      f.project.name,
      { saveTo },
    );
    const log = JSON.parse(readFileSync(saveTo, 'utf8')) as {
      runs: { results: unknown[]; versionControlProvenance?: { branch?: string }[]; properties?: Record<string, string> }[];
    };
    rmSync(dir, { recursive: true, force: true });
    assert.ok(exported.results > 0 && log.runs[0]?.results.length === exported.results, `the primary branch's findings are written (${exported.results})`);
    assert.equal(exported.ref, f.project.primary_branch);
    assert.equal(log.runs[0]?.versionControlProvenance?.[0]?.branch, f.project.primary_branch, 'the primary branch in the provenance');
    assert.equal(log.runs[0]?.properties?.['appsecFindings/branchWithoutScan'], 'never-scanned-here', 'and the branch asked for, without a scan');
    // The SBOM is of the primary branch too: the platform has no dependencies of a branch it never scanned.
    assert.equal(await sbomRefExported(), f.project.primary_branch);
    await showCodeFindingsNode();
    await screenshotsInThemes('scanned-branch-never-scanned');
  });
});
