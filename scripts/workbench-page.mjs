// What the picture scripts (walkthrough, dialogs) do in the demo's code-server workbench: the
// browser they drive, the two themes, running a command from the palette, and shooting one part
// of the window.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildBundles } from '../test/integration/launch/build.mjs';
import { CHROMIUM_ARGS } from '../test/integration/launch/run-host.mjs';
import { prepareDemo, startDemoCodeServer } from './demo-setup.mjs';

export const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' };

/** Runs a command by its palette title. */
export async function command(page, title) {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill(`>${title}`);
  await page.waitForTimeout(700);
  await page.keyboard.press('Enter');
}

/**
 * Shoots the smallest part of the window that holds every box (each a locator, or a box), with a
 * margin, so the picture shows what it is about and nothing else. Writes `<dir>/<name>-<theme>.png`.
 * The margin frames a floating widget (a menu, a picker) and its shadow; a whole part of the
 * workbench (the side bar) is shot with none, or slivers of its neighbours show at the edges.
 */
export async function shoot(page, dir, name, theme, parts, { margin = 12 } = {}) {
  await page.waitForTimeout(1200);
  const boxes = [];
  for (const part of parts) boxes.push('x' in part ? part : await part.boundingBox());
  const known = boxes.filter(Boolean);
  if (known.length === 0) throw new Error(`nothing to show for ${name}`);
  const view = page.viewportSize();
  const left = Math.max(0, Math.min(...known.map((b) => b.x)) - margin);
  const top = Math.max(0, Math.min(...known.map((b) => b.y)) - margin);
  const right = Math.min(view.width, Math.max(...known.map((b) => b.x + b.width)) + margin);
  const bottom = Math.min(view.height, Math.max(...known.map((b) => b.y + b.height)) + margin);
  const path = join(dir, `${name}-${theme}.png`);
  await page.screenshot({ path, clip: { x: left, y: top, width: right - left, height: bottom - top } });
  console.log(`picture: ${path}`);
}

/**
 * Runs `scenes(page, url, theme, demo)` on the demo, once per theme, each in a code-server started
 * with that theme (so every part is painted in it). A failing theme leaves its last picture as
 * `failed-<theme>.png` in `failedDir` (the work folder when none), which is then kept.
 */
export async function inDemoThemes(name, scenes, failedDir) {
  const work = mkdtempSync(join(tmpdir(), `appsec-${name}-`));
  const cleanups = [];
  try {
    const demo = await prepareDemo(work, cleanups);
    buildBundles();
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    cleanups.push(() => browser.close());
    for (const [theme, themeName] of Object.entries(THEMES)) {
      const url = await startDemoCodeServer(work, demo, cleanups, { 'workbench.colorTheme': themeName }, `code-server-${theme}`);
      const page = await browser.newPage({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 2 });
      try {
        await scenes(page, url, theme, demo);
      } catch (error) {
        const failed = join(failedDir ?? work, `failed-${theme}.png`);
        await page.screenshot({ path: failed }).catch(() => undefined);
        console.error(`${name}: the ${theme} scenes failed; the last picture is ${failed}`);
        process.exitCode = 1;
        throw error;
      } finally {
        await page.close();
      }
    }
  } finally {
    for (const c of cleanups.reverse()) await c();
    if (!process.exitCode) rmSync(work, { recursive: true, force: true });
  }
}
