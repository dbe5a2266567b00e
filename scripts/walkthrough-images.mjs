// `npm run walkthrough:images`: makes the walkthrough's pictures from the demo, in a light and a
// dark theme (each theme set before the workbench starts, so every part is painted in it).
// Each picture is the part of the window its step is about (the tree, the picker, the menu), at
// twice the pixels, so it stays readable at the size the Get Started page shows it.
// Writes media/walkthrough/<step>-<light|dark>.png; the manifest test checks they all exist.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDemoFindings } from './demo-setup.mjs';
import { command, inDemoThemes, shoot as shootIn } from './workbench-page.mjs';

const repo = resolve(import.meta.dirname, '..');
process.chdir(repo);
const out = join(repo, 'media', 'walkthrough');
mkdirSync(out, { recursive: true });
const shoot = (page, name, theme, parts, options) => shootIn(page, out, name, theme, parts, options);

/** The quick-fix menu down to its last entry of ours (VS Code's own refactorings follow under headings). */
async function ourQuickFixes(page) {
  const menu = await page.locator('.action-widget').first().boundingBox();
  const heading = await page
    .locator('.action-widget .monaco-list-row.group-header')
    .first()
    .boundingBox()
    .catch(() => null);
  return heading && menu ? { ...menu, height: heading.y - menu.y } : menu;
}

/** The scenes, in an order that needs no typing of the token until the last. */
async function scenes(page, url, theme, token) {
  await openDemoFindings(page, url);
  // A severity group and the secrets, so the picture shows findings of each kind.
  await page
    .locator('.monaco-list-row', { hasText: /^High\s*\d/ })
    .first()
    .click({ timeout: 30_000 });
  // The rows below move as High opens; Secrets is clicked once they have settled.
  await page.waitForTimeout(1000);
  await page
    .locator('.monaco-list-row', { hasText: /^Secrets/ })
    .first()
    .click({ timeout: 30_000 });
  await page.waitForTimeout(1500);
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel .monaco-list-row').first().waitFor({ timeout: 60_000 });
  await shoot(page, 'findings', theme, [page.locator('.part.sidebar').first()], { margin: 0 });

  await command(page, 'AppSec: Filter Findings');
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'filter', theme, [page.locator('.quick-input-widget').first()]);
  await page.keyboard.press('Escape');

  // A finding's place in the editor, and its quick fixes.
  // A code finding with the assistant's suggested fix, so the menu shows it first.
  // Problems' own filter brings the row into view, however many rows come before it.
  const problemsFilter = page.locator('.viewpane-filter input').first();
  await problemsFilter.fill('hard-coded credential');
  await page.locator('.markers-panel .monaco-list-row', { hasText: 'hard-coded credential' }).first().dblclick();
  await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 20_000 });
  // The list row may keep the focus after its double click: the editor takes it, then Ctrl+.
  await command(page, 'View: Focus Active Editor Group');
  await page.waitForTimeout(800);
  await page.keyboard.press('Control+.');
  await page.locator('.action-widget').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'act', theme, [await ourQuickFixes(page), page.locator('.monaco-editor .current-line').first()]);
  await page.keyboard.press('Escape');
  await problemsFilter.fill('');

  await page.getByText('acme/demo-app').first().click({ button: 'right' });
  await page.locator('.context-view .monaco-menu').first().waitFor({ timeout: 20_000 });
  await shoot(page, 'export', theme, [
    page.locator('.context-view .monaco-menu').first(),
    page.locator('.monaco-list-row', { hasText: 'acme/demo-app' }).first(),
  ]);
  await page.keyboard.press('Escape');

  await command(page, 'AppSec: Sign Out');
  await page.getByText('Sign in with an API token', { exact: false }).first().waitFor({ timeout: 20_000 });
  await shoot(page, 'sign-in', theme, [page.locator('.part.sidebar').first()], { margin: 0 });
  // Signed in again for the next run's picture set (the token lives in this profile only).
  await command(page, 'AppSec: Sign In');
  await page.locator('.quick-input-widget input').fill(token);
  await page.keyboard.press('Enter');
}

await inDemoThemes('walkthrough', (page, url, theme, demo) => scenes(page, url, theme, demo.platform.token));
