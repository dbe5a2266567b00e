// `npm run walkthrough:images`: makes the walkthrough's pictures from the demo, in a light and a
// dark theme (each theme set before the workbench starts, so every part is painted in it).
// Each picture is the part of the window its step is about (the tree, the picker, the menu), at
// twice the pixels, so it stays readable at the size the Get Started page shows it.
// Writes media/walkthrough/<step>-<light|dark>.png; the manifest test checks they all exist.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildBundles } from '../test/integration/launch/build.mjs';
import { openDemoFindings, prepareDemo, startDemoCodeServer } from './demo-setup.mjs';

const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking'];
const repo = resolve(import.meta.dirname, '..');
process.chdir(repo);
const out = join(repo, 'media', 'walkthrough');
mkdirSync(out, { recursive: true });

async function command(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.waitForTimeout(700);
  await page.keyboard.press('Enter');
}

/**
 * Shoots the smallest part of the window that holds every box (each a locator, or a box), with a
 * margin, so the step's picture shows what it is about and nothing else.
 */
async function shoot(page, name, theme, parts) {
  await page.waitForTimeout(1200);
  const boxes = [];
  for (const part of parts) boxes.push('x' in part ? part : await part.boundingBox());
  const known = boxes.filter(Boolean);
  if (known.length === 0) throw new Error(`walkthrough: nothing to show for ${name}`);
  const view = page.viewportSize();
  const margin = 12;
  const left = Math.max(0, Math.min(...known.map((b) => b.x)) - margin);
  const top = Math.max(0, Math.min(...known.map((b) => b.y)) - margin);
  const right = Math.min(view.width, Math.max(...known.map((b) => b.x + b.width)) + margin);
  const bottom = Math.min(view.height, Math.max(...known.map((b) => b.y + b.height)) + margin);
  await page.screenshot({ path: join(out, `${name}-${theme}.png`), clip: { x: left, y: top, width: right - left, height: bottom - top } });
  console.log(`walkthrough: ${name}-${theme}.png`);
}

/** The quick-fix menu down to its last entry of ours (VS Code's own refactorings follow under headings). */
async function ourQuickFixes(page) {
  const menu = await page.locator('.action-widget').first().boundingBox();
  const heading = await page.locator('.action-widget .monaco-list-row.group-header').first().boundingBox().catch(() => null);
  return heading && menu ? { ...menu, height: heading.y - menu.y } : menu;
}

/** The scenes, in an order that needs no typing of the token until the last. */
async function scenes(page, url, theme, token) {
  await openDemoFindings(page, url);
  // A severity group and the secrets, so the picture shows findings of each kind.
  await page.locator('.monaco-list-row', { hasText: /^High\s*\d/ }).first().click({ timeout: 30_000 });
  await page.locator('.monaco-list-row', { hasText: /^Secrets/ }).first().click({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel .monaco-list-row').first().waitFor({ timeout: 60_000 });
  await shoot(page, 'findings', theme, [page.locator('.part.sidebar').first()]);

  await command(page, 'AppSec: Filter Findings');
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'filter', theme, [page.locator('.quick-input-widget').first()]);
  await page.keyboard.press('Escape');

  // A finding's place in the editor, and its quick fixes.
  // A code finding with the assistant's suggested fix, so the menu shows it first.
  await page.locator('.markers-panel .monaco-list-row', { hasText: 'hard-coded credential' }).first().dblclick();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 20_000 });
  await page.waitForTimeout(800);
  await page.keyboard.press('Control+.');
  await page.locator('.action-widget').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'act', theme, [await ourQuickFixes(page), page.locator('.monaco-editor .current-line').first()]);
  await page.keyboard.press('Escape');

  await page.getByText('acme/demo-app').first().click({ button: 'right' });
  await page.locator('.context-view .monaco-menu').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'export', theme, [page.locator('.context-view .monaco-menu').first(), page.locator('.monaco-list-row', { hasText: 'acme/demo-app' }).first()]);
  await page.keyboard.press('Escape');

  await command(page, 'AppSec: Sign Out');
  await page.getByText('Sign in with an API token', { exact: false }).first().waitFor({ timeout: 20_000 });
  await shoot(page, 'sign-in', theme, [page.locator('.part.sidebar').first()]);
  // Signed in again for the next run's picture set (the token lives in this profile only).
  await command(page, 'AppSec: Sign In');
  await page.locator('.quick-input-widget input').fill(token);
  await page.keyboard.press('Enter');
}

const work = mkdtempSync(join(tmpdir(), 'appsec-walkthrough-'));
const cleanups = [];
try {
  const demo = await prepareDemo(work, cleanups);
  buildBundles();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  cleanups.push(() => browser.close());
  for (const [theme, name] of Object.entries(THEMES)) {
    const url = await startDemoCodeServer(work, demo, cleanups, { 'workbench.colorTheme': name }, `code-server-${theme}`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 2 });
    try {
      await scenes(page, url, theme, demo.platform.token);
    } catch (error) {
      await page.screenshot({ path: join(work, `failed-${theme}.png`) }).catch(() => undefined);
      console.error(`walkthrough: the ${theme} scenes failed; the last picture is ${join(work, `failed-${theme}.png`)}`);
      throw error;
    } finally {
      await page.close();
    }
  }
} finally {
  for (const c of cleanups.reverse()) await c();
  if (!process.exitCode) rmSync(work, { recursive: true, force: true });
}
