// A finding's context menu narrows the views to its rule or its file, and shows its rule in the
// Policy Rules view; each works from the palette on the selected item too (keyboard).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Finding } from '../../../src/core/model/types';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { findingNodes, issueTypeNode, signedIn, type Fixture } from './fixture';
import { waitFor } from './helpers';
import { walkTree } from './tree-snapshot';

function shownInProblems(f: Fixture): FindingDiagnostic[] {
  const out: FindingDiagnostic[] = [];
  f.api.app.diagnostics.collection.forEach((_uri, list) => {
    for (const d of list as readonly FindingDiagnostic[]) if (d.finding) out.push(d);
  });
  return out;
}

describe('context menus of findings', () => {
  let f: Fixture;
  let before: ReturnType<Fixture['api']['app']['viewState']['selection']>;
  beforeEach(async () => {
    f = await signedIn();
    before = f.api.app.viewState.selection();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('appsecFindings.filterFindings', before);
  });

  it('Show Only This Rule: the code findings of that rule, in the tree and Problems; other filters stay', async () => {
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.location);
    assert.ok(finding);
    await vscode.commands.executeCommand('appsecFindings.filterByRule', { finding });
    assert.deepEqual(f.api.app.viewState.selection().rules, [finding.ruleName]);
    assert.equal(f.api.app.viewState.selection().status, before.status, 'the other filters stay');
    const code = shownInProblems(f).filter((d) => d.finding.issueType === 'sast');
    assert.ok(code.length > 0 && code.every((d) => d.finding.ruleName === finding.ruleName), 'Problems: that rule only');
    const tree = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    assert.ok(tree.length > 0 && tree.length === new Set(code.map((d) => d.finding.id)).size, `the tree lists the same ${code.length} code findings`);
    assert.match(f.api.trees.projectsView.description ?? '', new RegExp(finding.ruleName.replace(/\./g, '\\.')));
  });

  it('Show Only This File: the findings of that file (a supply-chain finding by its usage), decided without a request', async () => {
    const finding = f.api.app.diagnostics.current[0]?.findings.find((x) => x.issueType === 'sast' && x.location);
    assert.ok(finding?.location);
    const path = finding.location.filePath;
    const requests = f.server.requests.length;
    await vscode.commands.executeCommand('appsecFindings.filterByFile', { finding });
    assert.deepEqual(f.api.app.viewState.selection().paths, [path]);
    await waitFor(
      () => shownInProblems(f).length > 0 && shownInProblems(f).every((d) => (d.finding.sca?.usage?.filePath ?? d.finding.location?.filePath) === path),
      10_000,
      'Problems: that file only',
    );
    assert.equal(f.server.requests.slice(requests).filter((r) => r.path.includes('/findings')).length, 0, 'the platform was not asked again');
    const tree = findingNodes(await issueTypeNode(f, /^Code findings/, 6));
    assert.ok(
      tree.length > 0 && tree.every((n) => (n.description ?? '').startsWith(path)),
      `the tree lists that file only (${tree.map((n) => n.description).join(' | ')})`,
    );
    assert.equal(
      f.api.trees.projectsView.badge?.value,
      shownInProblems(f).filter((d) => d.finding.status === 'open').length,
      'the badge counts what Problems shows',
    );
  });

  it('Show Rule in Policy Rules selects the rule under its policy and mode; from the palette it acts on the selected finding', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    let withPolicy: { finding: Finding; id: string } | undefined;
    for (const finding of f.api.app.diagnostics.current[0]?.findings.filter((x) => x.issueType === 'sast') ?? []) {
      const found = await f.api.trees.policies.findRule(finding.ruleName);
      if (found) {
        withPolicy = { finding, id: found.id };
        break;
      }
    }
    assert.ok(withPolicy, 'a shown code finding has its rule in a policy');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showRule', { finding: withPolicy.finding }), true);
    await waitFor(() => f.api.trees.policiesView.selection[0]?.id === withPolicy.id, 5_000, 'the rule is selected in Policy Rules');

    // From the palette: the finding selected in the tree, whose rule a policy has. Policy Rules'
    // selection moves away first, so only the palette's run can put it back on the rule.
    const policy = (await f.api.trees.policies.getChildren())[0];
    assert.ok(policy, 'a policy');
    await f.api.trees.policiesView.reveal(policy, { select: true, focus: false });
    await waitFor(() => f.api.trees.policiesView.selection[0]?.id === policy.id, 5_000, 'the policy is selected');
    const node = (await walkTree(f.api.trees.projects, 6, 400)).map((w) => w.node).find((n) => n.kind === 'finding' && n.finding.id === withPolicy.finding.id);
    assert.ok(node, 'that finding in the tree');
    await f.api.trees.projectsView.reveal(node, { select: true, focus: true });
    await waitFor(() => f.api.trees.projectsView.selection[0]?.id === node.id, 5_000, 'the finding is selected');
    assert.equal(await vscode.commands.executeCommand<boolean>('appsecFindings.showRule'), true, 'shown: a policy has the rule');
    await waitFor(() => f.api.trees.policiesView.selection[0]?.id === withPolicy.id, 5_000, 'the rule is selected in Policy Rules');
    const unknown = await vscode.commands.executeCommand<boolean>('appsecFindings.showRule', 'no.such.rule');
    assert.equal(unknown, false, 'a rule no policy has is said, not pretended');
  });
});
