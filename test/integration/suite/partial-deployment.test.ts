// A deployment that does not license every product: each kind of finding stands on its own.
// Secrets answering 404 and the AI analysis 400 leave code and supply-chain findings in Problems
// and the tree, with the Secrets node saying it is not available and no toast; Supply Chain and
// Secrets answering 403 keep the code findings; a product that comes back appears on the next
// refresh; a kind failing with 503 keeps what it showed, marked stale, with one notice.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { addAiAndSecrets } from '../../platform/secrets-and-ai';
import { issueTypeNode, signedIn, signIn, type Fixture, type Snap } from './fixture';
import { notificationTexts, screenshotsInThemes, waitFor } from './helpers';

/** The workspace's findings in Problems, by kind. */
function shownByKind(): Record<string, number> {
  const counts: Record<string, number> = { sast: 0, sca: 0, secrets: 0 };
  for (const [, list] of vscode.languages.getDiagnostics()) {
    for (const d of list as FindingDiagnostic[]) if (d.finding) counts[d.finding.issueType] = (counts[d.finding.issueType] ?? 0) + 1;
  }
  return counts;
}

const ours = (texts: string[]): string[] => texts.filter((t) => /AppSec/.test(t) || /findings/.test(t));
/** What would blame something: an error or a missing product said as a notification. */
const complaints = (texts: string[]): string[] => ours(texts).filter((t) => /fail|not available|could not|was not found|\b40[034]\b/i.test(t));

describe('a deployment without some products', () => {
  let f: Fixture;
  let full: Record<string, number>;
  before(async () => {
    f = await signedIn();
    addAiAndSecrets(f.data, 4, [f.project.name]);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    full = shownByKind();
    assert.ok(full.sast > 0 && full.sca > 0 && full.secrets > 0, JSON.stringify(full));
  });
  afterEach(async () => {
    f.server.restoreProducts();
    f.server.faults.clear();
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });
  after(async () => {
    // The other suites count findings: the fixture goes back to code and supply chain only.
    f.data.ai_sast.splice(0);
    f.data.secrets.splice(0);
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });

  it('secrets 404 and AI 400: code and supply-chain findings in Problems and the tree, Secrets says it is not available, no toast', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    f.server.setProduct('secrets', 404);
    f.server.setProduct('ai', 400);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const shown = shownByKind();
    assert.ok(shown.sast > 0 && shown.sca === full.sca, JSON.stringify(shown));
    assert.equal(shown.secrets, 0);
    assert.ok(shown.sast < full.sast, 'the AI findings are gone with the AI analysis, the other code findings stay');
    const secrets = await issueTypeNode(f, /^Secrets/, 3);
    assert.equal(secrets?.description, 'not available for this deployment (404)');
    // The node says it is not available; its one child says what to check, not the same again.
    assert.deepEqual(
      secrets?.children?.map((c: Snap) => c.label),
      ["What to check: whether the organization licenses Secrets, and the token's role. The next refresh asks again."],
    );
    const code = await issueTypeNode(f, /^Code findings/, 3);
    assert.ok(code?.children?.some((c: Snap) => c.label === 'AI analysis — not available for this deployment (400)'));
    assert.ok((await issueTypeNode(f, /^Supply-chain/, 3))?.children?.some((c: Snap) => /\bfindingGroup\b/.test(c.contextValue ?? '')));
    assert.match(f.api.statusBar.tooltip, /Secrets: not available for this deployment \(404\)/);
    assert.deepEqual(complaints(await notificationTexts()), [], 'a missing product is not announced');
    const report = await vscode.commands.executeCommand<{ products?: { product: string; state: string }[] }>('appsecFindings.checkConnection');
    assert.deepEqual(
      report?.products?.map((p) => `${p.product} ${p.state}`),
      ['Code available', 'AI analysis unavailable', 'Supply Chain available', 'Secrets unavailable', 'Policies available'],
    );
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
    // Check Connection's report in the panel below the tree.
    await vscode.commands.executeCommand('appsecFindings.showLogs');
    const tree = f.api.trees.projects;
    const project = tree.getChildren()[0];
    for (const node of project ? tree.getChildren(project) : []) await f.api.trees.projectsView.reveal(node, { expand: true, select: false, focus: false });
    await screenshotsInThemes('partial-deployment');
    await vscode.commands.executeCommand('workbench.action.closePanel');
  });

  it('signing in succeeds on a deployment without Secrets, and says nothing of the missing product', async () => {
    await vscode.commands.executeCommand('appsecFindings.signOut');
    await vscode.commands.executeCommand('notifications.clearAll');
    f.server.setProduct('secrets', 404);
    await signIn(f);
    await waitFor(() => shownByKind().sca === full.sca, 15_000, 'supply-chain findings in Problems after sign-in');
    assert.deepEqual(complaints(await notificationTexts()), [], 'no "Sign-in failed", no refresh failure');
  });

  it('supply chain and secrets 403: the code findings stay', async () => {
    f.server.setProduct('sca', 403);
    f.server.setProduct('secrets', 403);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const shown = shownByKind();
    assert.deepEqual(shown, { sast: full.sast, sca: 0, secrets: 0 });
    assert.equal((await issueTypeNode(f, /^Supply-chain/, 2))?.description, 'not available for this deployment (403)');
  });

  it('a product that comes back appears on the next refresh', async () => {
    f.server.setProduct('secrets', 404);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(shownByKind().secrets, 0);
    f.server.setProduct('secrets', undefined);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(shownByKind().secrets, full.secrets);
    assert.doesNotMatch((await issueTypeNode(f, /^Secrets/, 2))?.description ?? '', /not available/);
  });

  it('a kind failing with 503 after the retries keeps its earlier findings, marked stale, with one notice naming it', async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    f.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: 'issue_type=sca' }, 200);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.deepEqual(shownByKind(), full, 'every kind still shows, the failed one with what it showed before');
    assert.match(f.api.statusBar.tooltip, /Supply Chain: the last refresh failed \(showing findings from \d\d:\d\d\)/);
    await waitFor(
      async () => /stale/.test((await issueTypeNode(f, /^Supply-chain/, 2))?.description ?? ''),
      30_000,
      'the tree marks the supply-chain findings stale',
    );
    const notices = ours(await notificationTexts());
    assert.equal(notices.filter((t) => /Could not refresh the Supply Chain findings/.test(t)).length, 1, JSON.stringify(notices));
    assert.equal(notices.filter((t) => /Refresh failed/.test(t)).length, 0, 'no error toast on top');
  });
});
