// Runs the bundled suite once inside one code-server host, against the installed .vsix, the way
// shared/real-vscode-host.md describes: code-server + Debian's Chromium driven by playwright-core.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { chromium } from 'playwright-core';
import { startCodeServer, tail } from './code-server.mjs';
import { HOSTS, entryJs } from './hosts.mjs';
import { installLanguagePack } from './language-pack.mjs';

/** How every script here starts Chromium: as root, headless, and never reaching the internet on its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const REFUSED_DIALOG_WARNING = 'DialogService: Dialog requested during smoke test.';

/** Settings the workbench reads once at load: nothing may pop up over what the tests look at. */
const SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  // Keep the screenshot about the extension: no chat panel beside it.
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/**
 * @param {'newest'|'oldest'} host
 * @param {{ vsix: string, extensionId: string, version: string, suite: string, resultsDir: string, timeoutMs: number, locale?: string, part?: string }} options
 *   `locale`: the display language (de, ja): a language pack is installed, code-server starts with
 *   `--locale`, the suite runs language.test.ts alone (APPSEC_IT_LOCALE), and the screenshots and
 *   log are named with the language and kept beside the English ones.
 *   `part`: `k/n`, the k-th of n parts of the suite's files (APPSEC_IT_PART, suite/index.ts); the
 *   log is named with it.
 * @returns {Promise<{ passed: number, failed: number, failures: {title: string, error: string}[], tests: {title: string, ms: number, timeoutMs: number}[], files: {name: string, ms: number}[], error?: string, seconds: number }>}
 */
export async function runHost(host, { vsix, extensionId, version, suite, resultsDir, timeoutMs, locale, part }) {
  const started = Date.now();
  const tag = [host, locale, part].filter(Boolean).join(' ');
  const say = (line) => console.log(`[${tag}] ${line}`);
  const logName = `${[host, locale, part && `part${part.replace('/', '-of-')}`].filter(Boolean).join('-')}-code-server.log`;
  const runDir = mkdtempSync(join(tmpdir(), `appsec-it-${host}-`));
  const workspace = mkdtempSync(join(tmpdir(), `appsec-it-workspace-${host}-`));
  // Tests that read git remotes need a repository; each host gets a fresh one.
  spawnSync('git', ['init', '-q', workspace], { stdio: 'inherit' });
  const files = {
    results: join(runDir, 'results.json'),
    ready: join(runDir, 'screenshot.ready'),
    done: join(runDir, 'screenshot.done'),
  };
  let server;
  let browser;
  let poller;
  let outcome;
  let refusedDialogs = 0;
  try {
    const extensionDir = installVsix(host, vsix, runDir, `${extensionId}-${version}`);
    say(`VS Code ${HOSTS[host].vscode}: installed ${vsix} → ${extensionDir}`);
    if (locale) {
      const pack = installLanguagePack(runDir, locale, extensionDir);
      say(`language pack ${locale} ${pack.how} → ${pack.folder}`);
    }
    server = await startCodeServer(host, runDir, {
      settings: SETTINGS,
      testDriver: true,
      locale,
      // The extension host inherits code-server's environment: this is how the tests get them.
      env: {
        APPSEC_TEST_HOST: host,
        APPSEC_TEST_WORKSPACE: workspace,
        APPSEC_TEST_RESULTS: files.results,
        APPSEC_TEST_SCREENSHOT_READY: files.ready,
        APPSEC_TEST_SCREENSHOT_DONE: files.done,
        ...(locale ? { APPSEC_IT_LOCALE: locale } : {}),
        ...(part ? { APPSEC_IT_PART: part } : {}),
      },
    });
    say(`code-server listening on 127.0.0.1:${server.port}`);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    let exited;
    const exitCalled = new Promise((r) => (exited = r));
    await page.exposeFunction('codeAutomationExit', (code) => exited(code));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const text = Array.isArray(args) ? format(...args) : format(args);
      // The smoke-test driver (the newest host's `enable-smoke-test-driver`) warns of every dialog
      // asked for, and the workbench refuses each at once, as the oldest host does without the
      // warning: they are counted, not printed one by one.
      if (text === REFUSED_DIALOG_WARNING) return void refusedDialogs++;
      for (const line of text.split('\n')) console.log(`[${tag}${type === 'info' ? '' : ` ${type}`}] ${line}`);
    });
    poller = pollScreenshots(page, files, join(resultsDir, locale ? 'languages' : 'screenshots'), locale ? `${host}-${locale}` : host, say);
    const authority = `127.0.0.1:${server.port}`;
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://${authority}${extensionDir}`],
      ['extensionTestsPath', `vscode-remote://${authority}${resolve(suite)}`],
      ['skipWelcome', 'true'],
    ];
    const url = `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    let timer;
    const timedOut = new Promise((r) => (timer = setTimeout(() => r({ error: `timed out after ${timeoutMs / 1000} s` }), timeoutMs)));
    await page.goto(url);
    // A hang or a crashed extension host never calls codeAutomationExit: race it.
    outcome = await Promise.race([
      exitCalled.then((code) => ({ code })),
      server.exited.then((code) => ({ error: `code-server exited (code ${code}) before the suite finished` })),
      new Promise((r) => page.once('crash', () => r({ error: 'the workbench page crashed' }))),
      timedOut,
    ]);
    clearTimeout(timer);
  } catch (err) {
    outcome = { error: err.message };
  } finally {
    clearInterval(poller);
    await browser?.close().catch(() => {});
    await server?.stop();
    if (server) copyFileSync(server.logFile, join(resultsDir, logName));
  }

  const results = existsSync(files.results) ? JSON.parse(readFileSync(files.results, 'utf8')) : undefined;
  if (!outcome.error && outcome.code !== 0) outcome.error = `the workbench reported exit code ${outcome.code}`;
  if (!outcome.error && !results) outcome.error = 'the suite wrote no results file';
  if (refusedDialogs > 0) say(`${refusedDialogs} dialogs asked for were refused by the test workbench ("${REFUSED_DIALOG_WARNING}")`);
  if (outcome.error && server) say(`code-server log (${logName}), last lines:\n${tail(join(resultsDir, logName), 20)}`);
  rmSync(runDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  return {
    passed: results?.passed ?? 0,
    failed: results?.failed ?? 0,
    failures: results?.failures ?? [],
    tests: results?.tests ?? [],
    files: results?.files ?? [],
    ...(outcome.error ? { error: outcome.error } : {}),
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/** Installs the .vsix the way a user would and returns the installed extension folder. */
export function installVsix(host, vsix, runDir, folderPrefix) {
  const extensionsDir = join(runDir, 'extensions');
  const result = spawnSync(
    HOSTS[host].node(),
    [entryJs(host), '--install-extension', vsix, '--extensions-dir', extensionsDir, '--user-data-dir', join(runDir, 'user-data')],
    { encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: join(runDir, 'xdg-config'), XDG_DATA_HOME: join(runDir, 'xdg-data') } },
  );
  const folder = existsSync(extensionsDir) && readdirSync(extensionsDir).find((name) => name.startsWith(folderPrefix));
  if (result.status !== 0 || !folder) {
    throw new Error(`installing ${vsix} failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  }
  return join(extensionsDir, folder);
}

/**
 * The screenshot handshake (see suite/helpers.ts): the test writes READY (holding an optional
 * label) and waits; we shoot the page while its extension host is still alive, then write DONE.
 */
function pollScreenshots(page, files, dir, host, say) {
  let busy = false;
  const taken = new Set();
  return setInterval(() => {
    if (busy || !existsSync(files.ready)) return;
    busy = true;
    const request = readFileSync(files.ready, 'utf8').trim();
    rmSync(files.ready);
    const act = actOnPage(page, request);
    if (act) {
      act
        .then(() => answerWhole(files.done, '[]'))
        .catch((err) => answerWhole(files.done, JSON.stringify({ error: err.message })))
        .finally(() => (busy = false));
      return;
    }
    if (request.startsWith(READ_PREFIX) || request.startsWith(READ_FRAMES_PREFIX)) {
      const framed = request.startsWith(READ_FRAMES_PREFIX);
      const selector = request.slice((framed ? READ_FRAMES_PREFIX : READ_PREFIX).length);
      (framed ? readFromFrames(page, selector) : readFromPage(page, selector))
        .then((found) => answerWhole(files.done, JSON.stringify(found)))
        .catch((err) => answerWhole(files.done, JSON.stringify({ error: err.message })))
        .finally(() => (busy = false));
      return;
    }
    const label = request.replace(/[^\w-]/g, '_');
    mkdirSync(dir, { recursive: true });
    // A second shot under the same name is numbered, never written over the first.
    const base = `${host}${label ? `-${label}` : ''}`;
    let name = base;
    // The parts of one host's suite share the folder: a shot of an earlier part counts as taken.
    for (let n = 2; taken.has(name) || existsSync(join(dir, `${name}.png`)); n++) name = `${base}-${n}`;
    taken.add(name);
    const path = join(dir, `${name}.png`);
    page
      .screenshot({ path, fullPage: true })
      .then(() => say(`screenshot: ${path}`))
      .catch((err) => say(`screenshot failed: ${err.message}`))
      .finally(() => {
        writeFileSync(files.done, '');
        busy = false;
      });
  }, 200);
}

/**
 * Writes an answer the suite reads as soon as the file exists: written beside it and renamed, so
 * it is never seen empty or half written (a bench run once failed parsing an empty answer).
 */
function answerWhole(file, text) {
  writeFileSync(`${file}.part`, text);
  renameSync(`${file}.part`, file);
}

/** A request through the same handshake to read the page instead of shooting it (see suite/helpers.ts). */
const READ_PREFIX = 'read:';
/** The same, inside the page's frames (the webviews' documents) instead of the workbench. */
const READ_FRAMES_PREFIX = 'read-frames:';

/**
 * A key pressed or an element clicked in the page, as a user does (`press:Shift+F10`,
 * `click:<selector>`, `rightclick:<selector>`, `hover:<selector>`, `type:<text>` at the focus): a context menu or a modal dialog is opened and
 * closed only from the window, never from the extension host. `painted:<vs|vs-dark|hc-black|hc-light>`
 * waits until the window and every webview in it are drawn in that kind of theme. Undefined for
 * other requests.
 */
function actOnPage(page, request) {
  const [kind, ...rest] = request.split(':');
  const target = rest.join(':');
  if (kind === 'press') return page.keyboard.press(target);
  if (kind === 'painted') return painted(page, target);
  if (kind === 'click' || kind === 'rightclick') return page.click(target, { button: kind === 'click' ? 'left' : 'right', timeout: 10_000 });
  if (kind === 'hover') return page.hover(target, { timeout: 10_000 });
  if (kind === 'type') return page.keyboard.type(target);
  return undefined;
}

/**
 * The accessible label and text of every element matching `selector`: what the window shows, as
 * opposed to what the extension host holds (e.g. the status bar's Problems counts).
 */
function readFromPage(page, selector) {
  return page.$$eval(selector, (elements) => elements.map((e) => ({ label: e.getAttribute('aria-label') ?? '', text: e.textContent ?? '' })));
}

/**
 * The same for every frame but the workbench's (a webview's document is a frame inside a frame),
 * with `document`: the time that frame's document was created, which changes when it is reloaded
 * and nothing else does.
 */
async function readFromFrames(page, selector) {
  const found = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    // These functions run in the page, where `globalThis` is its window.
    const inFrame = await frame
      .$$eval(selector, (elements) =>
        elements.map((e) => ({
          label: e.getAttribute('aria-label') ?? '',
          text: e.textContent ?? '',
          document: globalThis.performance.timeOrigin,
        })),
      )
      .catch(() => []);
    found.push(...inFrame);
  }
  return found;
}

/** The class a webview's body carries in each kind of theme, by the workbench's own class for it. */
const WEBVIEW_THEME_CLASS = { vs: 'vscode-light', 'vs-dark': 'vscode-dark', 'hc-black': 'vscode-high-contrast', 'hc-light': 'vscode-high-contrast-light' };

/**
 * Resolves once the workbench carries the theme's class, each webview's document the matching
 * one (a webview hears of the theme by a message, after the workbench), and a frame has been
 * drawn since: what a screenshot in that theme needs, instead of a fixed wait.
 */
async function painted(page, kind) {
  const webviewClass = WEBVIEW_THEME_CLASS[kind];
  if (!webviewClass) throw new Error(`painted: takes ${Object.keys(WEBVIEW_THEME_CLASS).join('|')} (got ${kind})`);
  await page.locator(`.monaco-workbench.${kind}`).first().waitFor({ timeout: 10_000 });
  const themed = Object.values(WEBVIEW_THEME_CLASS);
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    // These functions run in the page, where `globalThis` is its window.
    const classes = await frame.evaluate(() => [...(globalThis.document.body?.classList ?? [])]).catch(() => []);
    if (!classes.some((c) => themed.includes(c))) continue;
    await frame
      .waitForFunction(
        (wanted) => {
          const list = globalThis.document.body?.classList;
          // A light high-contrast body carries both high-contrast classes.
          return list?.contains(wanted) && (wanted !== 'vscode-high-contrast' || !list.contains('vscode-high-contrast-light'));
        },
        webviewClass,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
  }
  await page.evaluate(() => new Promise((resolve) => globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(resolve))));
}
