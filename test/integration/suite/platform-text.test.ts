// Platform text is data, never a command. A refusal's body, an SBOM job's reason and a failing
// kind's error reach notifications inside our sentences; a proxy's page, a look-alike base URL or
// a rule message built from scanned code can put `[label](command:…)` or `file:` links there.
// Each flow is walked as the user meets it: the notification is read as the window draws it,
// every link in it is clicked, and no command runs. A control notification with a real
// `command:` link proves the test sees and clicks a link when there is one.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { signIn, signedIn, type Fixture } from './fixture';
import { actInWindow, inEachTheme, readWindow, restoreAfterEach, screenshotHandshake, waitFor } from './helpers';

const PWNED = 'appsecTest.platformTextRan';
const HOSTILE = 'Refused: [Open details](command:appsecTest.platformTextRan) and [read this](file:///etc/passwd), or [the portal](https://evil.example/login)';
const MESSAGES = '.notifications-center.visible .notification-list-item-message';

describe('platform text is data, never a command', () => {
  let f: Fixture;
  let ran = 0;
  const undo = restoreAfterEach();

  let registered: vscode.Disposable | undefined;
  before(async () => {
    f = await signedIn();
    registered = vscode.commands.registerCommand(PWNED, () => {
      ran++;
    });
  });
  after(() => {
    registered?.dispose();
  });
  afterEach(async () => {
    f.server.faults.clear();
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  /**
   * Opens the notification centre until one of its messages contains `words`; returns its links
   * as the window draws them, after clicking each. The centre stays open for a picture.
   */
  async function linksOfNotification(words: string, click = true): Promise<{ links: number; text: string }> {
    let seen: { label: string; text: string }[] = [];
    await waitFor(
      async () => {
        await vscode.commands.executeCommand('notifications.showList');
        seen = await readWindow(MESSAGES);
        return seen.some((m) => m.text.includes(words));
      },
      20_000,
      () => `a notification saying "${words}": ${seen.map((m) => m.text).join(' | ')}`,
    );
    const index = seen.findIndex((m) => m.text.includes(words));
    const links = `${MESSAGES} >> nth=${index} >> a`;
    const found = await readWindow(links);
    if (click) for (let i = 0; i < found.length; i++) await actInWindow(`click:${links} >> nth=${i}`);
    return { links: found.length, text: seen[index]?.text ?? '' };
  }

  /** The hostile words must be read, with no link to click, and nothing run. */
  async function assertInert(words: string): Promise<void> {
    const before = ran;
    const { links, text } = await linksOfNotification(words);
    assert.equal(links, 0, `no link in "${text}"`);
    assert.match(text, /Open details/, "the platform's words are still read");
    assert.equal(ran, before, 'no command ran');
  }

  it('a control notification with a real command link shows a link the test clicks, and it runs', async () => {
    const before = ran;
    void vscode.window.showInformationMessage(`AppSec test control: [run it](command:${PWNED})`);
    const { links } = await linksOfNotification('AppSec test control');
    assert.equal(links, 1, "the window draws the control's link");
    await waitFor(() => ran === before + 1, 10_000, 'the clicked control link ran its command');
  });

  it('a rule-mode change refused with a hostile 403', async () => {
    const policy = f.data.policies.at(-1);
    const rule = policy?.id ? f.data.rulesByPolicyId.get(policy.id)?.find((r) => r.policyMode !== 'MODE_DISABLED') : undefined;
    assert.ok(policy?.id && rule?.path);
    const refuse = async (): Promise<void> => {
      f.server.faults.inject({ kind: 'status', status: 403, body: HOSTILE }, { method: 'PUT', pathIncludes: '/policies/' });
      await vscode.commands.executeCommand('appsecFindings.setRuleMode', { policyId: policy.id, rulePath: rule.path, mode: 'disabled' });
    };
    await refuse();
    await assertInert('the rule stays in');
    // The refusal as the user reads it, in the notification centre, in both themes.
    await inEachTheme(['light', 'dark'], async (theme) => {
      await refuse();
      await linksOfNotification('the rule stays in', false);
      await vscode.commands.executeCommand('notification.expand');
      await screenshotHandshake(`platform-text-refused-${theme}`);
    });
  });

  it('a tag change refused with a hostile 403', async () => {
    f.server.faults.inject({ kind: 'status', status: 403, body: HOSTILE }, { method: 'PUT', pathIncludes: '/tags' });
    await vscode.commands.executeCommand('appsecFindings.editTags', f.project.name, { add: ['platform-text-q'] });
    await assertInert('403');
  });

  it('a primary-branch change refused with a hostile 403', async () => {
    f.server.faults.inject({ kind: 'status', status: 403, body: HOSTILE }, { method: 'PATCH' });
    await vscode.commands.executeCommand('appsecFindings.setPrimaryBranch', f.project.name, f.featureRef);
    await assertInert('403');
  });

  it('a triage refused with a hostile 403', async () => {
    const finding = f.data.sast.find((x) => x.repository?.name === f.project.name && x.status === 'open');
    assert.ok(finding);
    f.server.faults.inject({ kind: 'status', status: 403, body: HOSTILE }, { method: 'POST', pathIncludes: '/triage' });
    await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: [finding.id], issueType: 'sast', state: 'reviewing' });
    await assertInert('403');
  });

  it('an SBOM job that fails with a hostile reason', async () => {
    const failed = JSON.stringify({ status: 'SBOM_EXPORT_STATUS_FAILED', errorMessage: HOSTILE });
    f.server.faults.inject({ kind: 'status', status: 200, body: failed }, { method: 'GET', pathIncludes: '/sbom/export/' }, 20);
    await vscode.commands.executeCommand('appsecFindings.exportSbom', f.project.name, {
      ref: f.project.primary_branch,
      outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
      cycloneDxVersion: '1.6',
      componentType: 'LIBRARY',
    });
    await assertInert('SBOM');
  });

  it('a refresh whose supply-chain list answers a hostile 500', async () => {
    undo(async () => {
      f.server.faults.clear();
      if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    f.server.faults.inject({ kind: 'status', status: 500, body: HOSTILE }, { pathIncludes: 'issue_type=sca' }, 100);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    await assertInert('500');
  });
});
