// Helpers for integration tests. Screenshots are taken only where a launcher listens (code-server,
// which sets the APPSEC_TEST_* variables); reading or acting in the window needs one: a test that
// does fails under @vscode/test-electron with that said, rather than passing without its check.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';

/** How many diagnostics of ours VS Code holds, over every file (what Problems counts). */
export function appsecDiagnosticCount(): number {
  return vscode.languages.getDiagnostics().reduce((n, [, list]) => n + list.filter((d) => d.source === 'AppSec').length, 0);
}

/**
 * Polls `predicate` every 100 ms until it is true; rejects with `message` after `timeoutMs`
 * (a function: what was seen last, read when it fails).
 */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs: number, message: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${typeof message === 'string' ? message : message()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Registers, in the calling `describe`, an `afterEach` that runs the steps queued during the test,
 * the last queued first, whether the test passed, failed an assertion or timed out (a `finally`
 * in the test would run after the next test started, on a timeout). Returns the function that
 * queues a step: call it as soon as the test changes what others share (the platform's data, a
 * setting, a branch), before asserting anything. Every step runs; the first that failed fails the hook.
 */
export function restoreAfterEach(): (step: () => unknown) => void {
  const steps: (() => unknown)[] = [];
  afterEach(async function () {
    this.timeout(60_000);
    let failed: Error | undefined;
    for (const step of steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failed ??= error instanceof Error ? error : new Error(String(error));
      }
    }
    if (failed) throw failed;
  });
  return (step) => void steps.push(step);
}

/**
 * Writes a request for the launcher whole: it polls for the file, and a request it found created
 * but not yet written read as an empty one (a screenshot, answered with an empty file, which the
 * reader of the window then failed to parse: one bench:host run lost that way).
 */
function askLauncher(ready: string, request: string): void {
  writeFileSync(`${ready}.part`, request);
  renameSync(`${ready}.part`, ready);
}

/**
 * Asks the launcher for a screenshot of the workbench as it is now, and waits until it is taken.
 * It has to happen mid-test: once the suite ends the extension host (and the page state) is gone.
 * The launcher saves `<host>.png`, or `<host>-<label>.png` when a label is given, so a test may
 * call this several times. A no-op where no launcher listens (test-electron, a plain desktop run).
 */
export async function screenshotHandshake(label = ''): Promise<void> {
  const ready = process.env.APPSEC_TEST_SCREENSHOT_READY;
  const done = process.env.APPSEC_TEST_SCREENSHOT_DONE;
  if (!ready || !done) return;
  rmSync(done, { force: true });
  askLauncher(ready, label);
  await waitFor(() => existsSync(done), 30_000, `the launcher did not take screenshot "${label || 'default'}"`);
  rmSync(done, { force: true });
}

/**
 * What the window (not the extension host) shows for `selector`: each match's accessible label
 * and text, read by the launcher from the page. Throws where no launcher listens.
 */
export function readWindow(selector: string): Promise<{ label: string; text: string }[]> {
  return askWindow(`read:${selector}`);
}

/**
 * The same inside the window's webviews (each a document of its own): each match's label and
 * text, and `document`, which changes when its webview's document is reloaded. Throws where no
 * launcher listens.
 */
export function readWebviews(selector: string): Promise<{ label: string; text: string; document: number }[]> {
  return askWindow(`read-frames:${selector}`) as Promise<{ label: string; text: string; document: number }[]>;
}

/**
 * Acts in the window as a user does: `press:<key>` (Playwright's names: `Escape`, `Shift+F10`),
 * `click:<selector>`, `rightclick:<selector>`, `hover:<selector>` or `type:<text>` (typed where the focus is); resolves once done, rejects when it could not be
 * (no element to click within 10 s). What it opens (a context menu, a modal dialog) the extension
 * host cannot open or close. Throws where no launcher listens.
 */
export async function actInWindow(request: `${'press' | 'click' | 'rightclick' | 'hover' | 'type'}:${string}`): Promise<void> {
  await askWindow(request);
}

/** Where no launcher listens, a test that reads or acts in the window fails, saying so. */
const NO_LAUNCHER = 'this test reads the window: run it through test/integration/launch/run-code-server.mjs';

async function askWindow(request: string): Promise<{ label: string; text: string }[]> {
  const ready = process.env.APPSEC_TEST_SCREENSHOT_READY;
  const done = process.env.APPSEC_TEST_SCREENSHOT_DONE;
  if (!ready || !done) throw new Error(`${NO_LAUNCHER} (no launcher answers "${request}")`);
  rmSync(done, { force: true });
  askLauncher(ready, request);
  await waitFor(() => existsSync(done), 30_000, `the launcher did not answer "${request}"`);
  const answer = JSON.parse(readFileSync(done, 'utf8')) as { label: string; text: string }[] | { error: string };
  rmSync(done, { force: true });
  if (!Array.isArray(answer)) throw new Error(`"${request}" in the window failed: ${answer.error}`);
  return answer;
}

/**
 * How many problems the window's status bar counts (errors, warnings and infos of every source):
 * what reached the window, which can be less than the extension host holds.
 */
export async function windowProblemCount(): Promise<number> {
  const found = await readWindow('[id="status.problems"]');
  const label = found.map((f) => f.label).join(' ');
  if (/no problems/i.test(label)) return 0;
  const numbers = [...label.matchAll(/\d+/g)].map((m) => Number(m[0]));
  if (numbers.length === 0) throw new Error(`the status bar's Problems item reads "${label}"`);
  return numbers.reduce((a, b) => a + b, 0);
}

/** VS Code's built-in themes, by the label a screenshot gets. */
export const THEMES = {
  light: 'Default Light Modern',
  dark: 'Default Dark Modern',
  'high-contrast': 'Default High Contrast',
  'high-contrast-light': 'Default High Contrast Light',
} as const;

const THEME_KINDS: Record<keyof typeof THEMES, vscode.ColorThemeKind> = {
  light: vscode.ColorThemeKind.Light,
  dark: vscode.ColorThemeKind.Dark,
  'high-contrast': vscode.ColorThemeKind.HighContrast,
  'high-contrast-light': vscode.ColorThemeKind.HighContrastLight,
};

/** The class the workbench's element carries in each theme (the launcher waits for it). */
const WORKBENCH_THEME_CLASS: Record<keyof typeof THEMES, string> = {
  light: 'vs',
  dark: 'vs-dark',
  'high-contrast': 'hc-black',
  'high-contrast-light': 'hc-light',
};

/**
 * One screenshot per theme (`<host>-<label>-<theme>.png`), the user's theme put back after. Nothing
 * where no launcher takes screenshots (a picture is all it does), so a plain run does not wait for repaints.
 */
export async function screenshotsInThemes(label: string, themes: readonly (keyof typeof THEMES)[] = ['light', 'dark']): Promise<void> {
  if (!process.env.APPSEC_TEST_SCREENSHOT_READY) return;
  await inEachTheme(themes, (theme) => screenshotHandshake(`${label}-${theme}`));
}

/**
 * Runs `body` once in each theme, once the workbench has repainted in it (`body` opens what a
 * theme change would close, a menu or a dialog, and takes its shots), the user's theme put back
 * after. Where no launcher takes screenshots, `body` still runs, once, in the theme as it is: what
 * it checks is checked, and what it asks of the window fails, saying so, instead of being skipped.
 */
export async function inEachTheme(themes: readonly (keyof typeof THEMES)[], body: (theme: keyof typeof THEMES) => Promise<void>): Promise<void> {
  const [first] = themes;
  if (!process.env.APPSEC_TEST_SCREENSHOT_READY) return first === undefined ? undefined : body(first);
  // Messages left by earlier tests would cover what the picture is of.
  await vscode.commands.executeCommand('notifications.clearAll');
  const config = vscode.workspace.getConfiguration('workbench');
  const before = config.inspect<string>('colorTheme')?.globalValue;
  try {
    for (const theme of themes) {
      await config.update('colorTheme', THEMES[theme], vscode.ConfigurationTarget.Global);
      await waitFor(() => vscode.window.activeColorTheme.kind === THEME_KINDS[theme], 10_000, `the ${theme} theme is applied`);
      // The workbench repaints its parts, and its webviews hear of the theme, after the change.
      await askWindow(`painted:${WORKBENCH_THEME_CLASS[theme]}`);
      await body(theme);
    }
  } finally {
    await config.update('colorTheme', before, vscode.ConfigurationTarget.Global);
  }
}

/**
 * The messages in the notification centre (toasts land there too, and the test driver hides
 * toasts): read from the window, the centre closed again. Throws where no launcher listens.
 */
export async function notificationTexts(): Promise<string[]> {
  await vscode.commands.executeCommand('notifications.showList');
  try {
    // The centre draws its rows when it is marked visible.
    await waitFor(async () => (await readWindow('.notifications-center.visible')).length > 0, 10_000, 'the notification centre opens');
    const rows = await readWindow('.notifications-center.visible .notification-list-item-message');
    return rows.map((r) => r.text || r.label);
  } finally {
    await vscode.commands.executeCommand('notifications.hideList');
  }
}

/** The hovers at a place, as the user reads them: Markdown's backslash escapes taken out. */
export async function hoverAt(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  const source = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))).join('\n');
  return source.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** Puts back what a test of the pickers leaves: no quick input open, the default filters, no editors. */
export async function closePickersAndEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/**
 * Puts an edited document back as it was, on disk too. The web workbench auto-saves a second
 * after an edit, so a revert may find the edit already saved (and a file written behind the
 * document's back waits on the file watcher): the document is set to its old text and saved,
 * which leaves both as they were whatever auto-save did meanwhile.
 */
export async function putDocumentBack(document: vscode.TextDocument, original: string): Promise<void> {
  if (document.getText() !== original) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
    assert.ok(await vscode.workspace.applyEdit(edit), `${document.uri.path} takes its old text back`);
  }
  // save() answers false when auto-save took the document between the check and the call; what
  // matters is that the document ends clean with its old text on disk.
  if (document.isDirty) await document.save();
  await waitFor(
    async () => !document.isDirty && new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri)) === original,
    10_000,
    `${document.uri.path} is saved as it was`,
  );
}
