// Every menu entry of package.json, run the way a click runs it: a tree item's context menu passes
// the node and the selection, its inline icon the node alone, a view's title bar its focused row
// and selection (or nothing), the palette nothing (title-clicks.test.ts clicks the icons
// themselves). A refusal of those arguments, or any other failure the command reports, fails the
// test; a dialog that waits for a person is closed, which the command must take as "cancelled".
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, signIn, signedIn, type Fixture } from './fixture';
import { walkTree } from './tree-snapshot';

interface MenuEntry {
  readonly command?: string;
  readonly submenu?: string;
  readonly when?: string;
  readonly group?: string;
}
interface Walked {
  readonly view: string;
  readonly node: unknown;
  readonly contextValue: string;
}

const VIEWS = { projects: 'appsecFindings.projects', policies: 'appsecFindings.policies' } as const;

/** Whether a `when` clause holds for a view and an item's contextValue. Context keys of our own count as set. */
function holds(when: string | undefined, view: string | undefined, contextValue: string | undefined): boolean {
  if (!when) return true;
  return when
    .split('&&')
    .map((part) => part.trim())
    .every((part) => {
      if (part === 'false') return false;
      const isView = /^view == (\S+)$/.exec(part);
      if (isView) return isView[1] === view;
      const item = /^viewItem =~ \/(.*)\/$/.exec(part);
      if (item) return contextValue !== undefined && new RegExp(item[1]).test(contextValue);
      return true;
    });
}

const DIALOG_REFUSED = 'DialogService: refused to show dialog in tests';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('every menu entry, run as its click runs it', function () {
  this.timeout(600_000);
  let f: Fixture;
  let menus: Record<string, MenuEntry[]>;
  let walked: Walked[];
  const saved: { data?: unknown } = {};
  let savedSelection: ReturnType<Fixture['api']['app']['viewState']['selection']>;

  before(async () => {
    f = await signedIn();
    menus = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { menus: Record<string, MenuEntry[]> } }).contributes.menus;
    // What the writes among the entries change (a triage, a mode) is put back after the test.
    saved.data = structuredClone({
      sast: f.data.sast,
      sca: f.data.sca,
      ai_sast: f.data.ai_sast,
      secrets: f.data.secrets,
      projects: f.data.projects,
      policies: f.data.policies,
      rules: f.data.rulesByPolicyId,
    });
    // Every status, so the entries for findings that are not open (Reopen) have nodes too.
    savedSelection = f.api.app.viewState.selection();
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { ...savedSelection, status: undefined });
    const projects = await walkTree(f.api.trees.projects, 7, 6);
    const policies = await walkTree(f.api.trees.policies, 4, 6);
    walked = [
      ...projects.map(({ node, item }) => ({ view: VIEWS.projects, node, contextValue: item.contextValue ?? '' })),
      ...policies.map(({ node, item }) => ({ view: VIEWS.policies, node, contextValue: item.contextValue ?? '' })),
    ];
    // The shared platform hosts its code on GitHub and GitLab only: one finding of a Bitbucket
    // repository stands for the other code hosts, drawn by the tree as any finding is.
    const finding = projects.map(({ node }) => node).find((n) => n.kind === 'finding');
    if (finding?.kind === 'finding') {
      const node = {
        ...finding,
        finding: { ...finding.finding, lineOfCodeUrl: 'https://bitbucket.org/acme/payments-api/src/0123456789abcdef0123456789abcdef01234567/app.py#lines-3' },
      };
      walked.push({ view: VIEWS.projects, node, contextValue: f.api.trees.projects.getTreeItem(node).contextValue ?? '' });
    }
  });

  after(async () => {
    const back = saved.data as {
      sast: typeof f.data.sast;
      sca: typeof f.data.sca;
      ai_sast: typeof f.data.ai_sast;
      secrets: typeof f.data.secrets;
      projects: typeof f.data.projects;
      policies: typeof f.data.policies;
      rules: typeof f.data.rulesByPolicyId;
    };
    f.data.sast.splice(0, Infinity, ...back.sast);
    f.data.sca.splice(0, Infinity, ...back.sca);
    f.data.ai_sast.splice(0, Infinity, ...back.ai_sast);
    f.data.secrets.splice(0, Infinity, ...back.secrets);
    // The very same project objects, their fields put back: the fixture's `f.project` is one of
    // them, and the files after this one read the platform's project through it.
    const projects = new Map(f.data.projects.map((p) => [p.id, p]));
    f.data.projects.splice(
      0,
      Infinity,
      ...back.projects.map((saved) => {
        const now = projects.get(saved.id);
        return now ? Object.assign(now, saved) : saved;
      }),
    );
    f.data.policies.splice(0, Infinity, ...back.policies);
    f.data.rulesByPolicyId.clear();
    for (const [id, rules] of back.rules) f.data.rulesByPolicyId.set(id, rules);
    if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
    await vscode.commands.executeCommand('appsecFindings.filterFindings', savedSelection);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /**
   * Runs the command as the click would, closing any quick input or dialog it opens, and returns
   * what it reported as failed (nothing, when it worked or was cancelled).
   */
  const clickTimes: { what: string; ms: number }[] = [];
  after(() => {
    // The log names where this file spends its time, so a slower suite says which command.
    const total = clickTimes.reduce((sum, c) => sum + c.ms, 0);
    console.log(
      `every menu entry: ${clickTimes.length} clicks in ${(total / 1000).toFixed(1)} s; the slowest: ${[...clickTimes]
        .sort((x, y) => y.ms - x.ms)
        .slice(0, 8)
        .map((c) => `${c.what} ${c.ms} ms`)
        .join(', ')}`,
    );
  });

  async function click(command: string, args: readonly unknown[]): Promise<string[]> {
    const started = Date.now();
    try {
      return await clickOnce(command, args);
    } finally {
      clickTimes.push({ what: `${command}(${args.length})`, ms: Date.now() - started });
    }
  }

  async function clickOnce(command: string, args: readonly unknown[]): Promise<string[]> {
    const marker = `menu test: ${command} ${Date.now()}`;
    f.api.app.logger('MenuTest').info(marker);
    let settled = false;
    let thrown: unknown;
    const running = Promise.resolve(vscode.commands.executeCommand(command, ...args)).then(
      () => {
        settled = true;
      },
      (error: unknown) => {
        settled = true;
        thrown = error;
      },
    );
    for (let i = 0; i < 60 && !settled; i++) {
      await Promise.race([running, sleep(250)]);
      if (!settled) await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
    if (!settled) return [`${command} did not finish within 15 s, with its dialogs closed`];
    const lines = f.api.app.log.recent();
    const after = lines.slice(lines.lastIndexOf(`[MenuTest] ${marker}`) + 1);
    // The test workbench refuses a modal dialog (a user's window would show it): the person's
    // answer is what cannot be given here, so that counts as cancelled.
    const reported = after.filter((line) => line.startsWith('[Commands]') && /\w*Error: /.test(line) && !line.includes(DIALOG_REFUSED));
    return thrown === undefined ? reported : [...reported, `${command} threw: ${thrown instanceof Error ? thrown.message : JSON.stringify(thrown)}`];
  }

  /** The tree entries of a menu, each with the nodes it shows for (one per distinct contextValue). */
  function treeRuns(menu: string): { entry: MenuEntry; target: Walked }[] {
    return (menus[menu] ?? []).flatMap((entry) => {
      const seen = new Set<string>();
      return walked
        .filter((w) => holds(entry.when, w.view, w.contextValue) && !seen.has(w.contextValue) && seen.add(w.contextValue))
        .map((target) => ({ entry, target }));
    });
  }

  it('view/item/context and view/item/inline: each entry on every kind of node it is shown for', async () => {
    const failures: string[] = [];
    const runs = treeRuns('view/item/context');
    // Each entry runs at least once: one the tree shows no node for is a gap in this test.
    const unrun = (menus['view/item/context'] ?? []).filter((entry) => !runs.some((r) => r.entry === entry));
    assert.deepEqual(
      unrun.map((e) => `${e.command ?? e.submenu ?? ''} (${e.when ?? ''})`),
      [],
      `the tree shows a node for every entry (${[...new Set(walked.map((w) => w.contextValue))].join(' | ')})`,
    );
    const withSelection = new Set<MenuEntry>();
    for (const { entry, target } of runs) {
      const inline = (entry.group ?? '').startsWith('inline');
      // A submenu's entries get what the submenu's item would have got.
      const commands = entry.submenu ? (menus[entry.submenu] ?? []).map((e) => e.command ?? '') : [entry.command ?? ''];
      // An inline icon and a context menu on one selected item pass the node; a context menu on
      // several selected items passes the selection too (tried once per entry).
      const severalSelected = !inline && !withSelection.has(entry) && withSelection.add(entry);
      const argumentLists = severalSelected ? [[target.node], [target.node, [target.node]]] : [[target.node]];
      for (const command of commands) {
        for (const args of argumentLists) {
          const problems = await click(command, args);
          failures.push(
            ...problems.map((p) => `${inline ? 'inline' : 'context'} ${command} on "${target.contextValue}" with ${args.length} argument(s): ${p}`),
          );
          if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
        }
      }
    }
    assert.deepEqual(failures, []);
  });

  it('view/title, editor/context and the command palette: each entry with what it passes', async () => {
    const failures: string[] = [];
    const run = async (where: string, command: string, args: readonly unknown[]): Promise<void> => {
      failures.push(...(await click(command, args)).map((p) => `${where} ${command}: ${p}`));
      if (f.api.app.session.state.kind !== 'signedIn') await signIn(f);
    };
    // A title-bar click passes the view's focused row and its selection (nothing when the view
    // has no focused row); the palette passes nothing.
    const row = walked.find((w) => w.view === VIEWS.projects && w.contextValue.includes('finding'))?.node;
    assert.ok(row, 'a finding row to have focused');
    for (const entry of menus['view/title'] ?? []) {
      if (!entry.command) continue;
      await run('view/title', entry.command, []);
      await run('view/title with a focused row', entry.command, [row, [row]]);
    }
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(f.folder.uri, 'package.json')).then(undefined, () => undefined);
    for (const entry of menus['editor/context'] ?? []) {
      assert.ok(document, 'a workspace file to run editor/context entries on');
      await vscode.window.showTextDocument(document);
      if (entry.command) await run('editor/context', entry.command, [document.uri]);
    }
    const contributed = (
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands.map((c) => c.command);
    const hidden = new Set((menus.commandPalette ?? []).filter((e) => e.when === 'false').map((e) => e.command));
    const inPalette = contributed.filter((command) => !hidden.has(command));
    assert.ok(inPalette.length > 30, `${inPalette.length} commands in the palette`);
    for (const command of inPalette) await run('palette', command, []);
    assert.deepEqual(failures, []);
  });
});
