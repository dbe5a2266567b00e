// A policy rule's mode, set in the Policy Rules view: automation that names the rule changes it
// on the platform and the rule moves to its new mode group; a role that may not change policies
// sees the rule go back and a message naming the role; wrong arguments, unknown policies and the
// mode a rule already has send nothing. The rule's context menu has the Set Mode submenu.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { modeLabel } from '../../../src/core/services/rule-modes';
import { shortRuleName } from '../../../src/views/finding-presentation';
import type { Node, PolicyNode, RuleNode } from '../../../src/views/tree-nodes';
import type { WireRule } from '../../platform/wire';
import { signedIn, type Fixture, type Snap } from './fixture';
import { actInWindow, inEachTheme, notificationTexts, readWindow, screenshotHandshake, screenshotsInThemes, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

interface Outcome {
  policyId: string;
  rulePath: string;
  mode: string;
  previousMode: string;
  refused?: string;
}

describe('rule modes', () => {
  let f: Fixture;
  /** Each rule changed here and its mode before, put back on the platform after. */
  const changed = new Map<WireRule, string | undefined>();

  before(async () => {
    f = await signedIn();
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
  });
  afterEach(async () => {
    f.server.setReadOnly(false);
    f.server.faults.clear();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
  });
  after(() => {
    for (const [rule, mode] of changed) rule.policyMode = mode;
    f.api.app.policies.expire();
  });

  const tree = () => f.api.trees.policies;
  const setRuleMode = (arg: unknown): Thenable<Outcome | undefined> => vscode.commands.executeCommand<Outcome | undefined>('appsecFindings.setRuleMode', arg);
  const puts = (mark: number) => f.server.requests.slice(mark).filter((r) => r.method === 'PUT' && r.path.includes('/policies/'));
  const wireRule = (policyId: string, path: string): WireRule => {
    const rule = f.data.rulesByPolicyId.get(policyId)?.find((r) => r.path === path);
    assert.ok(rule, `${path} is in policy ${policyId}`);
    return rule;
  };
  /** A rule of the deployment's last policy (never only the first) whose mode is not `mode`, remembered to be put back. */
  const ruleToChange = (notIn: string, skip = 0): { policyId: string; rule: WireRule } => {
    const policy = f.data.policies.at(-1);
    assert.ok(policy?.id);
    const rule = f.data.rulesByPolicyId.get(policy.id)?.filter((r) => r.policyMode !== notIn)[skip];
    assert.ok(rule?.path);
    if (!changed.has(rule)) changed.set(rule, rule.policyMode);
    return { policyId: policy.id, rule };
  };

  /** The view's node of a rule, found through the nodes VS Code is given (every page and mode group). */
  async function ruleNode(policyId: string, path: string): Promise<RuleNode | undefined> {
    const search = async (nodes: readonly Node[]): Promise<RuleNode | undefined> => {
      for (const node of nodes) {
        if (node.kind === 'rule' && node.rule.path === path) return node;
        if (node.kind === 'ruleMode' || node.kind === 'page') {
          const found = await search(await tree().getChildren(node));
          if (found) return found;
        }
      }
      return undefined;
    };
    const policy = (await tree().getChildren()).find((n): n is PolicyNode => n.kind === 'policy' && n.entry.policy.id === policyId);
    return policy && search(await tree().getChildren(policy));
  }
  /** The mode group the view shows the rule in ("Block", …). */
  const groupInView = async (policyId: string, path: string): Promise<string | undefined> => {
    const node = await ruleNode(policyId, path);
    const group = node?.parent.kind === 'page' ? node.parent.parent : node?.parent;
    return group?.kind === 'ruleMode' ? group.mode : undefined;
  };

  it('the view lists every policy of the deployment, each once, with its rules grouped by mode (Disabled too)', async () => {
    const roots = (await snapshotTree(tree(), 2)) as Snap[];
    const names = roots.filter((n) => n.contextValue === 'policy').map((n) => n.label);
    for (const policy of f.data.policies) assert.equal(names.filter((n) => n === policy.name).length, 1, `${policy.name ?? ''} in ${JSON.stringify(names)}`);
    assert.ok(f.data.policies.length > 1, 'the fixture has several policies');
    const groups = roots.flatMap((n) => n.children ?? []).map((c) => c.label);
    assert.ok(groups.includes('Disabled'), `a Disabled group among ${JSON.stringify([...new Set(groups)])}`);
  });

  it("automation: the platform and the view take the new mode (the policy's rules loaded first when they were not)", async () => {
    const { policyId, rule } = ruleToChange('MODE_BLOCK');
    const path = rule.path ?? '';
    const previous = rule.policyMode;
    f.api.app.policies.expire();
    const mark = f.server.requests.length;
    const outcome = await setRuleMode({ policyId, rulePath: path, mode: 'block' });
    assert.deepEqual(outcome, { policyId, rulePath: path, mode: 'MODE_BLOCK', previousMode: previous });
    assert.equal(puts(mark).length, 1, 'one change sent');
    assert.equal(wireRule(policyId, path).policyMode, 'MODE_BLOCK', 'the platform holds it');
    assert.equal(await groupInView(policyId, path), 'MODE_BLOCK', 'the rule is in the Block group');
    const policyName = f.data.policies.find((p) => p.id === policyId)?.name;
    const snapshot = ((await snapshotTree(tree(), 4)) as Snap[]).find((n) => n.label === policyName);
    const block = snapshot?.children?.find((c) => c.label === 'Block');
    const shown = block?.children?.find((r) => r.label === shortRuleName(path));
    assert.ok(
      shown && (shown.description ?? '').startsWith('block') && /\brule\b/.test(shown.contextValue ?? ''),
      `the Block group lists it in block mode: ${JSON.stringify(block)}`,
    );

    const node = await ruleNode(policyId, path);
    assert.ok(node);
    await f.api.trees.policiesView.reveal(node, { select: true, focus: true, expand: true });
    await screenshotsInThemes('rule-modes-view');
  });

  it('refused (a role that may not change policies): shown at once, then back in its old mode, with a message naming the role', async () => {
    const { policyId, rule } = ruleToChange('MODE_DISABLED', 1);
    const path = rule.path ?? '';
    const previous = rule.policyMode;
    f.server.setReadOnly(true);
    f.server.faults.inject({ kind: 'delay', ms: 1500 }, { method: 'PUT' });
    const mark = f.server.requests.length;
    const pending = setRuleMode({ policyId, rulePath: path, mode: 'disabled' });
    await waitFor(async () => (await groupInView(policyId, path)) === 'MODE_DISABLED', 5_000, 'the view shows the new mode before the platform answers');
    const outcome = await pending;
    assert.equal(outcome?.mode, previous, 'resolved with the mode the rule kept');
    assert.match(outcome?.refused ?? '', /token's role does not allow changing the mode of .* \(403\)/);
    assert.equal(puts(mark).length, 1);
    assert.equal(wireRule(policyId, path).policyMode, previous, 'nothing changed on the platform');
    assert.equal(await groupInView(policyId, path), previous, 'the view shows the old mode again');
    const said = `stays in ${modeLabel(previous ?? '')} mode. The token's role does not allow changing the mode of ${path} (403)`;
    const texts = await notificationTexts();
    assert.ok(
      texts.some((t) => t.includes(said)),
      JSON.stringify(texts),
    );
    // The rule where it stays, and the message opened out in full.
    const node = await ruleNode(policyId, path);
    assert.ok(node);
    await f.api.trees.policiesView.reveal(node, { select: true, focus: false, expand: true });
    await vscode.commands.executeCommand('notifications.showList');
    await vscode.commands.executeCommand('notification.expand');
    await waitFor(
      async () => (await readWindow('.notifications-center.visible .notification-list-item-message')).some((r) => r.text.includes(said)),
      10_000,
      'the notification centre shows the message',
    );
    await screenshotHandshake('rule-modes-refused');
    await vscode.commands.executeCommand('notifications.hideList');
  });

  it('nothing is sent for a wrong argument (the field is named), an unknown policy or rule, or the mode the rule has', async () => {
    const { policyId, rule } = ruleToChange('', 2);
    const path = rule.path ?? '';
    const mark = f.server.requests.length;
    const same = rule.policyMode?.replace('MODE_', '').toLowerCase();
    // Each call and what it says (read one at a time: the notification centre draws only the rows it shows).
    const calls: [unknown, RegExp][] = [
      [{ policyId: 12, rulePath: path, mode: 'block' }, /Changing the rule's mode failed\. policyId must be text/],
      [{ policyId, rulePath: path, mode: 'loud' }, /mode must be one of monitor, comment, block, disabled/],
      [{ policyId, rulePath: path, mode: 'block', note: 'x' }, /setRuleMode has no option "note"/],
      [{ policyId: '999999', rulePath: path, mode: 'block' }, /no policy 999999/],
      [{ policyId, rulePath: 'no.such.rule', mode: 'block' }, /has no rule no\.such\.rule/],
      [{ policyId, rulePath: path, mode: same }, /is already in .* mode in .*; nothing was changed/],
    ];
    for (const [i, [arg, said]] of calls.entries()) {
      const outcome = await setRuleMode(arg);
      if (i < 3) assert.equal(f.server.requests.length, mark, 'a wrong argument: no request at all');
      if (i === calls.length - 1) assert.deepEqual(outcome, { policyId, rulePath: path, mode: rule.policyMode, previousMode: rule.policyMode });
      else assert.equal(outcome, undefined, JSON.stringify(arg));
      const texts = await notificationTexts();
      assert.ok(
        texts.some((t) => said.test(t)),
        `${String(said)} in ${JSON.stringify(texts)}`,
      );
      await vscode.commands.executeCommand('notifications.clearAll');
    }
    assert.equal(puts(mark).length, 0, 'no change sent');
  });

  it("a rule's context menu has Set Mode with the four modes; from a rule without a mode, the modes are offered, the current one marked", async () => {
    const contributes = (vscode.extensions.getExtension('appsec-findings.appsec-findings')?.packageJSON as { contributes: Contributes }).contributes;
    assert.equal(contributes.submenus.find((s) => s.id === 'appsecFindings.ruleMode')?.label, 'Set Mode');
    const entry = contributes.menus['view/item/context']?.find((m) => m.submenu === 'appsecFindings.ruleMode');
    assert.ok(entry?.when?.includes('view == appsecFindings.policies'), entry?.when);
    assert.deepEqual(
      contributes.menus['appsecFindings.ruleMode']?.map((m) => m.command),
      ['appsecFindings.setRuleModeMonitor', 'appsecFindings.setRuleModeComment', 'appsecFindings.setRuleModeBlock', 'appsecFindings.setRuleModeDisabled'],
    );
    const { policyId, rule } = ruleToChange('', 3);
    const node = await ruleNode(policyId, rule.path ?? '');
    assert.ok(node);
    const viewItem = /viewItem =~ \/(.*)\/$/.exec(entry?.when ?? '')?.[1];
    assert.ok(viewItem && new RegExp(viewItem).test(tree().getTreeItem(node).contextValue ?? ''), "the menu's condition holds for a rule node");

    await f.api.trees.policiesView.reveal(node, { select: true, focus: true, expand: true });
    const mark = f.server.requests.length;
    const asked = setRuleMode(node);
    const offered = async (): Promise<string> =>
      (await readWindow('.quick-input-widget:visible .quick-input-list .monaco-list-row')).map((r) => `${r.label} ${r.text}`).join(' | ');
    let seen = '';
    await waitFor(
      async () => {
        seen = await offered();
        return ['Monitor', 'Comment', 'Block', 'Disabled'].every((m) => seen.includes(m));
      },
      10_000,
      () => `the picker offers the four modes (shows: ${seen})`,
    );
    await screenshotsInThemes('rule-modes-pick');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await asked, undefined, 'dismissed: nothing chosen');
    assert.equal(puts(mark).length, 0, 'nothing sent');
  });

  it("the context menu's Set Mode → Block, clicked in the window, sends nothing without a confirmation (menu screenshots)", async function () {
    this.timeout(60_000);
    // A rule no other test changes: of the first policy, which the others leave alone.
    const policyId = f.data.policies[0]?.id ?? '';
    const rule = f.data.rulesByPolicyId.get(policyId)?.find((r) => r.policyMode === 'MODE_MONITOR' && !changed.has(r));
    assert.ok(rule?.path, 'a rule in monitor mode');
    const node = await ruleNode(policyId, rule.path);
    assert.ok(node);
    const menuLabels = async (): Promise<string[]> => (await readWindow('.context-view .action-label')).map((m) => (m.text || m.label).trim());
    const openSubmenu = async (): Promise<void> => {
      await f.api.trees.policiesView.reveal(node, { select: true, focus: true });
      await actInWindow('press:Shift+F10');
      await waitFor(async () => (await menuLabels()).includes('Set Mode'), 5_000, "the rule's context menu lists Set Mode");
      await actInWindow('click:.context-view .action-label:text-is("Set Mode")');
      await waitFor(
        async () => {
          const labels = await menuLabels();
          return ['Monitor', 'Comment', 'Block', 'Disabled'].every((m) => labels.includes(m));
        },
        5_000,
        'the submenu lists the four modes',
      );
      const greyed = (await readWindow('.context-view .action-item.disabled .action-label')).map((m) => (m.text || m.label).trim()).filter(Boolean);
      assert.deepEqual(greyed, ['Monitor'], "the submenu greys out the rule's current mode");
    };
    // The test workbench shows no modal dialog: it refuses it, and the command reports (and logs)
    // that refusal quoting the question. The log line is the command's end: had it not asked, it
    // would have sent the change by then.
    let clicks = 0;
    const chooseBlock = async (): Promise<void> => {
      const marker = `[RuleModesTest] Block clicked (${++clicks})`;
      f.api.app.logger('RuleModesTest').info(marker.slice('[RuleModesTest] '.length));
      await actInWindow('click:.context-view .action-label:text-is("Block")');
      const refused = (): boolean => {
        const lines = f.api.app.log.recent();
        return lines
          .slice(lines.lastIndexOf(marker) + 1)
          .some((line) => line.startsWith('[Commands]') && line.includes('refused to show dialog') && line.includes(rule.path ?? ''));
      };
      await waitFor(refused, 10_000, 'the command asked for a confirmation (refused by the test workbench) and ended');
    };
    const mark = f.server.requests.length;
    // Checked in the theme as it is; then pictures of the same in each theme (where a launcher takes them).
    await openSubmenu();
    await chooseBlock();
    await vscode.commands.executeCommand('notifications.clearAll');
    await inEachTheme(['light', 'dark'], async (theme) => {
      await openSubmenu();
      await screenshotHandshake(`rule-modes-menu-${theme}`);
      await chooseBlock();
      await screenshotHandshake(`rule-modes-confirm-asked-${theme}`);
      await vscode.commands.executeCommand('notifications.clearAll');
    });
    assert.equal(puts(mark).length, 0, 'not confirmed: nothing sent');
    assert.equal(rule.policyMode, 'MODE_MONITOR', 'the platform keeps the mode');
    assert.equal(await groupInView(policyId, rule.path), 'MODE_MONITOR', 'the view keeps the mode');
  });
});

interface Contributes {
  submenus: { id: string; label: string }[];
  menus: Record<string, { command?: string; submenu?: string; when?: string }[] | undefined>;
}
