// The extension in another display language (issue 48), run alone by a locale run:
// `node test/integration/launch/run-code-server.mjs --host newest --locale de|ja` (the launcher
// installs a language pack and starts code-server with `--locale`; index.ts loads only this file).
// Every expected word is read from the running language's bundle and package.nls file in the
// installed extension, never written here: the tree, a toast, the filter picker, Problems and the
// details panel say what the bundle says. Pictures (light and dark): the tree with the filter
// picker open, Problems, the details panel. In the pseudo locale (`--locale qps-ploc`) each of
// these surfaces must also show pseudo text and no English (pseudo-checks.ts), a toast is pictured,
// and pseudo-surfaces.ts reads and pictures the rest.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, signedIn, type Fixture, type Snap } from './fixture';
import {
  closePickersAndEditors,
  inEachTheme,
  notificationTexts,
  readWindow,
  restoreAfterEach,
  screenshotHandshake,
  screenshotsInThemes,
  waitFor,
} from './helpers';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { PSEUDO_LOCALE, PseudoSurfaces, htmlTexts, paneRows } from './pseudo-checks';
import { pseudoSurfaceTests } from './pseudo-surfaces';
import { snapshotTree } from './tree-snapshot';

const language = process.env.APPSEC_IT_LOCALE ?? '';

/** The installed extension's words for the running language: runtime bundle and package.nls. */
function words(): { bundle: Record<string, string>; nls: Record<string, string> } {
  const root = vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath;
  assert.ok(root, `${EXTENSION_ID} is installed`);
  const read = (file: string): Record<string, string> => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, string>;
  return { bundle: read(join('l10n', `bundle.l10n.${language}.json`)), nls: read(`package.nls.${language}.json`) };
}

describe(`the extension in the display language (${language})`, () => {
  let f: Fixture;
  let bundle: Record<string, string>;
  let nls: Record<string, string>;
  /** The bundle's words for an English key, its placeholders filled; a key it lacks or leaves English fails. */
  const tr = (english: string, ...args: (string | number)[]): string => {
    const said = bundle[english];
    assert.ok(said !== undefined, `the ${language} bundle has "${english}"`);
    assert.notEqual(said, english, `the ${language} bundle translates "${english}"`);
    return said.replace(/\{(\d+)\}/g, (whole, i: string) => (args[Number(i)] === undefined ? whole : String(args[Number(i)])));
  };
  /** The longest fixed part of a translated message with placeholders (what every such message contains). */
  const fragment = (english: string): string =>
    tr(english)
      .split(/\{\d+\}/)
      .map((s) => s.trim())
      .sort((a, b) => b.length - a.length)[0] ?? '';
  const undo = restoreAfterEach();
  /** The pseudo locale's checks; undefined in a real language. */
  let pseudo: PseudoSurfaces | undefined;
  /** Markdown as the user reads it: its backslash escapes taken out. */
  const unescaped = (markdown: string): string => markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1');

  before(async function () {
    this.timeout(60_000);
    assert.equal(vscode.env.language, language, 'the host runs in the language the launcher asked for');
    ({ bundle, nls } = words());
    f = await signedIn();
    if (language === PSEUDO_LOCALE) pseudo = new PseudoSurfaces(f, [...Object.values(bundle), ...Object.values(nls)]);
    await vscode.commands.executeCommand('workbench.view.extension.appsecFindings');
  });
  afterEach(closePickersAndEditors);

  it("the Projects view: its title in the window, the project's tooltip, the issue-type nodes", async () => {
    const title = nls['view.projects.name'];
    assert.ok(title && title !== 'Projects', `package.nls.${language}.json names the Projects view`);
    let headers = '';
    await waitFor(
      async () => {
        headers = (await readWindow('.pane-header')).map((h) => `${h.label} ${h.text}`).join(' | ');
        return headers.includes(title);
      },
      10_000,
      () => `the window's view headers name "${title}" (they read: ${headers})`,
    );

    const projects = (await snapshotTree(f.api.trees.projects, 2)) as Snap[];
    const project = projects.find((p) => p.label === f.project.name);
    assert.ok(project, 'the workspace project is listed');
    const kinds = (project.children ?? []).map((c) => c.label);
    for (const kind of ['Code findings', 'Supply-chain findings']) assert.ok(kinds.includes(tr(kind)), `${tr(kind)} in ${kinds.join(' | ')}`);

    const provider = f.api.trees.projects;
    const node = provider.getChildren().find((n) => provider.getTreeItem(n).label === f.project.name);
    assert.ok(node, 'the project node');
    const resolved = await provider.resolveTreeItem(provider.getTreeItem(node), node, new vscode.CancellationTokenSource().token);
    const tooltip = unescaped(resolved.tooltip instanceof vscode.MarkdownString ? resolved.tooltip.value : String(resolved.tooltip));
    for (const words of ['Primary branch', 'Open in this window: its findings are in Problems.'])
      assert.ok(tooltip.includes(tr(words)), `${tr(words)} in the tooltip: ${tooltip}`);
    if (pseudo) {
      // The window's texts, not its accessible labels: those add VS Code's own words ("Section").
      const shown = (await readWindow(`.pane-header, ${paneRows(title)}`)).map((r) => r.text);
      pseudo.see('tree', [...shown, `${project.description ?? ''}`, ...kinds, ...tooltip.split('\n')]);
    }
  });

  it('a refused change is said in a toast in the language', async () => {
    undo(async () => {
      f.server.setReadOnly(false);
      await vscode.commands.executeCommand('notifications.clearAll');
    });
    await vscode.commands.executeCommand('notifications.clearAll');
    f.server.setReadOnly(true);
    const primary = f.project.primary_branch;
    assert.equal(
      await vscode.commands.executeCommand('appsecFindings.setPrimaryBranch', f.project.name, f.featureRef),
      undefined,
      'refused: reported, not thrown',
    );
    const expected = tr('The primary branch of {0} is still {1}', f.project.name, primary);
    let texts: string[] = [];
    await waitFor(
      async () => {
        texts = await notificationTexts();
        return texts.some((t) => t.includes(expected));
      },
      10_000,
      () => `the notification says "${expected}" (it reads: ${texts.join(' | ')})`,
    );
    if (!pseudo) return;
    // Toasts are hidden while a test drives the window: the notification centre shows the message.
    await inEachTheme(['light', 'dark'], async (theme) => {
      await vscode.commands.executeCommand('appsecFindings.setPrimaryBranch', f.project.name, f.featureRef);
      await vscode.commands.executeCommand('notifications.showList');
      await waitFor(
        async () => (await readWindow('.notifications-center.visible .notification-list-item-message')).length > 0,
        10_000,
        'the notification centre shows the toast',
      );
      await screenshotHandshake(`toast-${theme}`);
      await vscode.commands.executeCommand('notifications.hideList');
    });
    pseudo.see('toast', texts);
  });

  it('every agent tool answers in English, a product the deployment lacks included, and the log is English', async function () {
    this.timeout(60_000);
    undo(async () => {
      f.server.setProduct('secrets', undefined);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    f.server.setProduct('secrets', 404);
    await vscode.commands.executeCommand('appsecFindings.refresh');
    let shown: KnownFindingDiagnostic | undefined;
    f.api.app.diagnostics.collection.forEach((_uri, list) => {
      shown ??= (list as readonly KnownFindingDiagnostic[]).find((d) => d.finding?.issueType === 'sast');
    });
    assert.ok(shown, 'Problems shows a code finding');
    const ask = async (name: string, input: object): Promise<string> => {
      const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    };
    const answers = {
      findings: await ask('appsecFindings_findings', { issueTypes: ['sast', 'secrets'] }),
      finding: await ask('appsecFindings_finding', { id: shown.finding.id }),
      dependencies: await ask('appsecFindings_dependencies', { package: 'lodash' }),
      triage: await ask('appsecFindings_triage', { findingIds: [shown.finding.id], issueType: 'sast', state: 'nonsense' }),
    };
    assert.match(
      answers.findings,
      /Secrets findings: not available for this deployment \(404\)/,
      `the missing product, said in English: ${answers.findings.slice(0, 800)}`,
    );
    assert.match(answers.finding, new RegExp(`#${shown.finding.id}`));
    assert.match(answers.triage, /state takes/, 'a refusal, in English');
    // Every phrase the language's bundle says differently from English, of some length: none may be there.
    const translated = Object.entries(bundle)
      .filter(([english, said]) => said !== english)
      .flatMap(([, said]) => said.split(/\{\d+\}/).map((part) => part.trim()))
      .filter((part) => part.length >= 16 && !Object.keys(bundle).some((english) => english.includes(part)));
    assert.ok(translated.length > 100, `the ${language} bundle has phrases of its own to look for (${translated.length})`);
    const log = f.api.app.log.recent();
    assert.ok(log.length > 0, 'the log has lines');
    for (const [where, text] of [...Object.entries(answers), ...log.map((line, i) => [`log line ${i + 1}`, line] as const)]) {
      const found = translated.find((part) => text.includes(part));
      assert.equal(found, undefined, `${where} is in English: it holds "${found ?? ''}"`);
    }
  });

  it('the filter picker: its title and items in the window, beside the tree (screenshots)', async function () {
    this.timeout(90_000);
    // A project opened in the tree behind the picker.
    const first = f.api.trees.projects.getChildren()[0];
    if (first) await f.api.trees.projectsView.reveal(first, { expand: 2, select: true, focus: false });
    const picked = vscode.commands.executeCommand('appsecFindings.filterFindings');
    const title = tr('AppSec: Filter Findings');
    let seen = '';
    await waitFor(
      async () => {
        seen = (await readWindow('.quick-input-widget:visible .quick-input-title')).map((t) => t.text.trim()).join(' | ');
        return seen === title;
      },
      10_000,
      () => `the picker "${title}" is shown (the window shows "${seen}")`,
    );
    const shown = await readWindow('.quick-input-widget:visible .quick-input-list .monaco-list-row');
    const rows = shown.map((r) => `${r.label} ${r.text}`);
    for (const item of ['Apply', 'Back to the defaults'])
      assert.ok(
        rows.some((r) => r.includes(tr(item))),
        `${tr(item)} in ${rows.join(' | ')}`,
      );
    await screenshotsInThemes('tree-filter-picker');
    const placeholder = (await readWindow('.quick-input-widget:visible .quick-input-box input')).map((i) => i.label);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await picked;
    pseudo?.see('filter picker', [seen, ...shown.map((r) => r.text), ...placeholder]);
  });

  it('Problems: a supply-chain finding says its reachability or its fix in the language; the source stays AppSec (screenshots)', async function () {
    this.timeout(60_000);
    const pieces = [fragment('{0} (unreachable from your code): {1}'), fragment('{0} Fixed in {1}.')];
    const ours = vscode.languages.getDiagnostics().flatMap(([uri, list]) => list.filter((d) => d.source === 'AppSec').map((d) => ({ uri, d })));
    const sca = ours.filter(({ d }) => pieces.some((p) => d.message.includes(p)));
    assert.ok(
      sca.length > 0,
      `a diagnostic says "${pieces.join('" or "')}" (of ${ours.length}; e.g. ${ours
        .slice(0, 3)
        .map(({ d }) => d.message)
        .join(' | ')})`,
    );
    const [{ uri }] = sca;
    await vscode.window.showTextDocument(uri, { preview: true });
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    // Problems shows the lockfile's problems alone (the supply-chain ones), then as it was.
    const toggle = (): Thenable<unknown> => vscode.commands.executeCommand('workbench.actions.workbench.panel.markers.view.toggleActiveFile');
    await toggle();
    undo(toggle);
    let rows = '';
    let shown: string[] = [];
    await waitFor(
      async () => {
        const found = await readWindow('.markers-panel .monaco-list-row');
        shown = found.map((r) => r.text);
        rows = found.map((r) => `${r.label} ${r.text}`).join('\n');
        return pieces.some((p) => rows.includes(p));
      },
      10_000,
      () => `the window's Problems panel shows "${pieces.join('" or "')}" (it shows: ${rows.slice(0, 400)})`,
    );
    assert.ok(rows.includes('AppSec'), 'the source stays AppSec in the window');
    await screenshotsInThemes('problems');
    pseudo?.see('Problems', shown);
  });

  it('the details panel: its actions in the language (screenshots)', async function () {
    this.timeout(60_000);
    let finding: KnownFindingDiagnostic['finding'] | undefined;
    f.api.app.diagnostics.collection.forEach((_uri, list) => {
      finding ??= (list as readonly KnownFindingDiagnostic[]).find((d) => d.finding)?.finding;
    });
    assert.ok(finding, 'a finding in Problems');
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    const panel = f.api.detailsPanel;
    await waitFor(() => panel.shownHtml.includes(`aria-label="${tr('Actions')}"`), 15_000, `the panel's actions are labelled "${tr('Actions')}"`);
    for (const action of ['Add Note…', 'Copy Rule ID', 'Open in Platform']) assert.ok(panel.shownHtml.includes(tr(action)), `the action ${tr(action)}`);
    await waitFor(async () => (await readWindow('iframe.webview.ready')).length > 0, 10_000, 'the panel is drawn');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await screenshotsInThemes('details');
    pseudo?.see('details header and actions', htmlTexts(panel.shownHtml.slice(0, panel.shownHtml.indexOf('</header>'))));
  });

  if (language === PSEUDO_LOCALE) pseudoSurfaceTests(() => ({ f, pseudo, nls }));
});
