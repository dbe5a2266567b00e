// The Projects and Policy Rules views show what the platform holds.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { findingNodes, fixture, groupNodes, issueTypeNode, serverFindings, type Fixture, type Snap, signedIn } from './fixture';
import { restoreAfterEach, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

const labelOf = (s: Snap): string => s.label;

describe('views', () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  const undo = restoreAfterEach();
  /** The tree shows the project's primary branch again (when a test left another). */
  const primaryAgain = (f: Fixture) => async (): Promise<void> => {
    if (f.api.app.viewState.refOverride(f.project.name) !== undefined)
      await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, f.project.primary_branch);
  };

  it('lists every project, the workspace one first and marked', async () => {
    const f = await fixture();
    await waitFor(() => f.api.app.repos.repos().length > 0, 15_000, 'the workspace folder is matched to its project through its git remote');
    const projects = (await snapshotTree(f.api.trees.projects, 1)) as Snap[];
    assert.equal(projects.length, f.data.projects.length);
    assert.equal(projects[0]?.label, f.project.name);
    assert.match(projects[0]?.description ?? '', new RegExp(f.project.primary_branch));
    assert.match(projects[0]?.contextValue ?? '', /\bproject\b/);
    assert.deepEqual(new Set(projects.map(labelOf)), new Set(f.data.projects.map((p) => p.name)));
  });

  it('shows the code findings of the primary branch, deduplicated, with counts', async () => {
    const f = await fixture();
    const expected = await serverFindings(f, 'sast', { repos: f.project.name, ref: f.project.primary_branch, dedup: 'true', status: 'open' });
    const code = await issueTypeNode(f, /code/i);
    assert.ok(code, 'a Code findings node');
    const shown = findingNodes(code);
    assert.equal(shown.length, expected.length, 'every open finding of the primary branch, no more');
    assert.match(code.description ?? '', new RegExp(String(expected.length)));
    // Grouped by severity, most severe first.
    const order = ['critical', 'high', 'medium', 'low'];
    const groupRanks = groupNodes(code).map((g) => order.findIndex((s) => g.label.toLowerCase().startsWith(s)));
    assert.ok(
      groupRanks.length > 1 && groupRanks.every((r) => r >= 0),
      `severity groups: ${groupNodes(code)
        .map((g) => g.label)
        .join(', ')}`,
    );
    assert.deepEqual(
      groupRanks,
      [...groupRanks].sort((a, b) => a - b),
    );
  });

  it('shows supply-chain findings with package, version and advisory', async () => {
    const f = await fixture();
    const first = findingNodes(await issueTypeNode(f, /supply/i))[0];
    assert.ok(first, 'a supply-chain finding');
    assert.match(first.label, /^\S+ \S+ — (CVE|GHSA|MAL)-/, 'package, version and advisory, as people name them');
    assert.match(first.description ?? '', /reachable|unknown|malicious|fix /, 'reachability or the fix, not the advisory again');
  });

  it('a branch the platform never scanned is not shown as clean: it says so and offers the primary branch', async () => {
    const f = await fixture();
    undo(primaryAgain(f));
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, 'never-scanned');
    // "Checking…" while the platform is asked (any finding of the branch at all, then its scan
    // list); the tree hears the answer and says it.
    let said: string[] = [];
    await waitFor(
      async () =>
        (said = (await issueTypeNode(f, /^Code findings/, 3))?.children?.map((c) => c.label) ?? []).some((text) => /^never-scanned has no scan/.test(text)),
      15_000,
      () => `the tree says the branch has no scan (it says: ${said.join(' | ')})`,
    );
    assert.ok(!said.some((text) => /match the filters/.test(text)));
  });

  it('groups by rule when asked', async () => {
    const f = await fixture();
    const groupedBy = f.api.app.viewState.groupBy();
    undo(() => vscode.commands.executeCommand('appsecFindings.groupBy', groupedBy));
    await vscode.commands.executeCommand('appsecFindings.groupBy', 'rule');
    const code = await issueTypeNode(f, /code/i, 3);
    const ruleNames = new Set(f.data.sast.map((x) => x.rule_name ?? '?'));
    assert.ok(groupNodes(code).length > 0);
    // A code rule reads as its last segment, the rest of its id beside it: together, the whole id.
    for (const group of groupNodes(code)) {
      const rest = /^\d+ · (.+)$/.exec(group.description ?? '')?.[1];
      assert.ok(ruleNames.has(rest ? `${rest}.${group.label}` : group.label), `${group.label} (${group.description ?? ''}) is a rule`);
    }
    // A supply-chain rule reads as its package and advisory, never its ssc- id.
    const supply = groupNodes(await issueTypeNode(f, /supply/i, 3));
    assert.ok(supply.length > 0 && supply.every((g) => / — (CVE|GHSA|MAL)-/.test(g.label) && !/ssc-/.test(g.label)), supply.map((g) => g.label).join(', '));
  });

  it('shows another branch when asked, and the primary branch again on an empty answer', async () => {
    const f = await fixture();
    const onFeature = await serverFindings(f, 'sast', { repos: f.project.name, ref: f.featureRef, dedup: 'true', status: 'open' });
    undo(primaryAgain(f));
    assert.equal(await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, f.featureRef), f.featureRef);
    assert.equal(findingNodes(await issueTypeNode(f, /code/i)).length, onFeature.length);
    // An empty answer: the primary branch again.
    await vscode.commands.executeCommand('appsecFindings.chooseRef', f.project.name, '');
    const onPrimary = await serverFindings(f, 'sast', { repos: f.project.name, ref: f.project.primary_branch, dedup: 'true', status: 'open' });
    assert.equal(findingNodes(await issueTypeNode(f, /code/i)).length, onPrimary.length);
  });

  it('lists policies with their rules and modes', async () => {
    const f = await fixture();
    const policies = (await snapshotTree(f.api.trees.policies, 3)) as Snap[];
    for (const policy of f.data.policies)
      assert.ok(
        policies.some((p) => p.label.includes(policy.name ?? '?')),
        `policy ${policy.name}`,
      );
    const text = JSON.stringify(policies);
    assert.match(text, /block/i);
    assert.match(text, /monitor/i);
    const policy = f.data.policies[0];
    const rules = f.data.rulesByPolicyId.get(policy.id ?? '') ?? [];
    const firstPolicy = policies.find((p) => p.label.includes(policy.name ?? '?'));
    const shownRules = (firstPolicy?.children ?? []).flatMap((g) => g.children ?? []).filter((r) => /\brule\b/.test(r.contextValue ?? ''));
    assert.equal(shownRules.length, rules.length, 'every rule of the policy, all cursor pages');
  });
});
