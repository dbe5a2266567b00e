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
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

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
 * @param {{ vsix: string, extensionId: string, version: string, suite: string, resultsDir: string, timeoutMs: number, locale?: string }} options
 *   `locale`: the display language (de, ja): a language pack is installed, code-server starts with
 *   `--locale`, the suite runs language.test.ts alone (APPSEC_IT_LOCALE), and the screenshots and
 *   log are named with the language and kept beside the English ones.
 * @returns {Promise<{ passed: number, failed: number, failures: {title: string, error: string}[], error?: string, seconds: number }>}
 */
export async function runHost(host, { vsix, extensionId, version, suite, resultsDir, timeoutMs, locale }) {
  const started = Date.now();
  const tag = locale ? `${host} ${locale}` : host;
  const say = (line) => console.log(`[${tag}] ${line}`);
  const logName = locale ? `${host}-${locale}-code-server.log` : `${host}-code-server.log`;
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
  if (outcome.error && server) say(`code-server log (${logName}), last lines:\n${tail(join(resultsDir, logName), 20)}`);
  rmSync(runDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
  return {
    passed: results?.passed ?? 0,
    failed: results?.failed ?? 0,
    failures: results?.failures ?? [],
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
      act.then(() => answerWhole(files.done, '[]'))
        .catch((err) => answerWhole(files.done, JSON.stringify({ error: err.message })))
        .finally(() => (busy = false));
      return;
    }
    if (request.startsWith(READ_PREFIX)) {
      readFromPage(page, request.slice(READ_PREFIX.length))
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
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
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

/**
 * A key pressed or an element clicked in the page, as a user does (`press:Shift+F10`,
 * `click:<selector>`, `rightclick:<selector>`): a context menu or a modal dialog is opened and
 * closed only from the window, never from the extension host. Undefined for other requests.
 */
function actOnPage(page, request) {
  const [kind, ...rest] = request.split(':');
  const target = rest.join(':');
  if (kind === 'press') return page.keyboard.press(target);
  if (kind === 'click' || kind === 'rightclick') return page.click(target, { button: kind === 'click' ? 'left' : 'right', timeout: 10_000 });
  return undefined;
}

/**
 * The accessible label and text of every element matching `selector`: what the window shows, as
 * opposed to what the extension host holds (e.g. the status bar's Problems counts).
 */
function readFromPage(page, selector) {
  return page.$$eval(selector, (elements) => elements.map((e) => ({ label: e.getAttribute('aria-label') ?? '', text: e.textContent ?? '' })));
}
