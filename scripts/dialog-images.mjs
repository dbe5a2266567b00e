// `npm run dialog:images`: shoots the confirmations the platform-changing commands ask for (and
// Open a Fix Pull Request's, which opens one in the organization's repository), and the menus
// that lead to them, in a light and a dark theme. The in-host test workbench never shows a
// modal dialog (it cancels or refuses each one), so these come from the demo's workbench, which
// runs the packaged extension the way a user's window does.
// Each scene also checks what a user reads: the menu's entries and the dialog's question. The
// Filter Dependencies icon is clicked too, as only a click passes the row it sits on.
// Writes test-results/dialogs/<scene>-<light|dark>.png.
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDemoFindings } from './demo-setup.mjs';
import { inDemoThemes, shoot as shootIn } from './workbench-page.mjs';

const repo = resolve(import.meta.dirname, '..');
process.chdir(repo);
const out = join(repo, 'test-results', 'dialogs');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const shoot = (page, name, theme, parts) => shootIn(page, out, name, theme, parts);

const menu = (page) => page.locator('.context-view .monaco-menu').first();
const dialog = (page) => page.locator('.monaco-dialog-box').first();

/**
 * Right-clicks a row until its own menu opens, with `entry` in it: a hover card that is appearing
 * can swallow the click, and rows still moving (the tree filling in) can put another row there.
 */
async function openMenu(page, row, entry) {
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(900, 700);
    await page.waitForTimeout(500 * attempt);
    await row.click({ button: 'right' });
    const opened = await menu(page)
      .waitFor({ timeout: 3_000 })
      .then(
        () => true,
        () => false,
      );
    if (opened && (await menuEntries(page)).includes(entry)) return;
    if (attempt === 3) return;
    await page.keyboard.press('Escape');
  }
}

/** Clicks a menu entry until the menu closes (a click while the menu still settles can be lost). */
async function choose(page, label) {
  const entry = page.locator('.context-view .action-label', { hasText: label }).first();
  for (let attempt = 1; attempt <= 3 && (await entry.isVisible()); attempt++) {
    await entry.hover();
    await page.waitForTimeout(300);
    await entry.click();
    await entry.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
  }
}

async function menuEntries(page) {
  await menu(page).waitFor({ timeout: 20_000 });
  return (await page.locator('.context-view .action-label').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

function expectAll(what, seen, wanted) {
  const missing = wanted.filter((w) => !seen.some((s) => s.includes(w)));
  if (missing.length > 0) throw new Error(`${what} lacks ${missing.join(', ')}; it shows: ${seen.join(' | ')}`);
}

/** Waits for the modal, checks its words, shoots it, and cancels it. */
async function confirmation(page, name, theme, wanted) {
  await dialog(page).waitFor({ timeout: 20_000 });
  const text = (await dialog(page).innerText()).replace(/\s+/g, ' ');
  expectAll(`the ${name} dialog`, [text], wanted);
  await shoot(page, name, theme, [dialog(page)]);
  await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Cancel' }).first().click();
  await dialog(page).waitFor({ state: 'detached', timeout: 10_000 });
}

async function projectScenes(page, theme) {
  const project = page.locator('.monaco-list-row', { hasText: 'acme/demo-app' }).first();
  await openMenu(page, project, 'Managed Scans…');
  const entries = await menuEntries(page);
  expectAll("the project's context menu", entries, ['Edit Tags…', 'Set Primary Branch…', 'Managed Scans…']);
  if (entries.some((e) => e.startsWith('Tag Project')))
    throw new Error(`the project's context menu offers Tag Project… beside Edit Tags…: ${entries.join(' | ')}`);
  await shoot(page, 'project-menu', theme, [menu(page), project]);
  await choose(page, 'Managed Scans…');
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  await rows.nth(1).waitFor({ timeout: 20_000 });
  await page.waitForTimeout(500);
  // Flip the first setting, so applying it asks first.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await page.locator('.quick-input-widget', { hasText: '1 Selected' }).first().waitFor({ timeout: 10_000 });
  await shoot(page, 'managed-scans-pick', theme, [page.locator('.quick-input-widget').first()]);
  await page.keyboard.press('Enter');
  await confirmation(page, 'managed-scans-confirm', theme, ['acme/demo-app', 'Apply']);
}

/** The filter icon on a project's Dependencies row, clicked: its picker opens, nothing is refused. */
async function dependencyScenes(page, theme) {
  const dependencies = page.locator('.monaco-list-row', { hasText: /^Dependencies/ }).first();
  await dependencies.hover();
  await dependencies.locator('.action-label[aria-label^="Filter Dependencies"]').first().click();
  const picker = page.locator('.quick-input-widget').first();
  await page.locator('.quick-input-widget .monaco-list-row').first().waitFor({ timeout: 20_000 });
  const refused = page.locator('.notification-toast', { hasText: 'failed' });
  if ((await refused.count()) > 0) throw new Error(`the Filter Dependencies icon was refused: ${await refused.first().innerText()}`);
  await page.waitForTimeout(300);
  await shoot(page, 'filter-dependencies-pick', theme, [picker, dependencies]);
  await page.keyboard.press('Escape');
  await picker.waitFor({ state: 'hidden', timeout: 10_000 });
}

async function ruleScenes(page, theme) {
  const header = page.locator('.pane-header', { hasText: 'Policy Rules' }).first();
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  const pane = page.locator('.pane', { has: header }).first();
  const policy = pane.locator('.monaco-list-row[aria-label^="Default Policy"]').first();
  await policy.waitFor({ timeout: 30_000 });
  if ((await policy.getAttribute('aria-expanded')) !== 'true') await policy.click();
  const comment = pane.locator('.monaco-list-row[aria-label^="Comment"]').first();
  await comment.waitFor({ timeout: 30_000 });
  if ((await comment.getAttribute('aria-expanded')) !== 'true') await comment.click();
  // The first rule under Comment: the row after the group's.
  const index = Number(await comment.getAttribute('data-index'));
  const level = Number(await comment.getAttribute('aria-level')) + 1;
  const rule = pane.locator(`.monaco-list-row[data-index="${index + 1}"][aria-level="${level}"]`).first();
  await rule.waitFor({ timeout: 20_000 });
  const ruleName = (await rule.locator('.label-name').first().innerText()).trim();
  await openMenu(page, rule, 'Set Mode');
  expectAll("the rule's context menu", await menuEntries(page), ['Set Mode']);
  await page.locator('.context-view .action-label', { hasText: 'Set Mode' }).first().hover();
  await page.locator('.context-view .action-label', { hasText: 'Block' }).first().waitFor({ timeout: 10_000 });
  // The submenu is a second menu beside the first, outside its box.
  const menus = page.locator('.context-view .monaco-menu');
  expectAll('the Set Mode submenu', await menuEntries(page), ['Monitor', 'Comment', 'Block', 'Disabled']);
  const greyed = (await menus.last().locator('.action-item.disabled').allInnerTexts()).map((t) => t.trim());
  if (greyed.join() !== 'Comment')
    throw new Error(`the Set Mode submenu should grey out the rule's mode, Comment; it greys out: ${greyed.join(', ') || 'nothing'}`);
  await shoot(page, 'rule-mode-menu', theme, [menus.first(), menus.last(), rule]);
  await choose(page, 'Block');
  await confirmation(page, 'rule-mode-confirm', theme, [ruleName, 'block mode', 'every pull request', 'Set to Block']);
}

async function ticketScenes(page, theme) {
  // The demo's SQL injection in src/db.js carries a Jira ticket; it is a critical finding.
  const critical = page.locator('.monaco-list-row', { hasText: /^Critical\s*\d/ }).first();
  if ((await critical.getAttribute('aria-expanded')) !== 'true') await critical.click();
  const finding = page.locator('.monaco-list-row', { hasText: 'tainted-sql-string' }).first();
  await finding.waitFor({ timeout: 20_000 });
  await openMenu(page, finding, 'Unlink This Ticket from All Its Findings');
  expectAll("the finding's context menu", await menuEntries(page), ['Unlink This Ticket from All Its Findings']);
  await choose(page, 'Unlink This Ticket from All Its Findings');
  await confirmation(page, 'unlink-everywhere-confirm', theme, ['from all its findings?', 'The ticket itself stays in the tracker', 'Unlink Everywhere']);
  // The same finding: the platform would write the fix and open a pull request, so it asks first.
  await openMenu(page, finding, 'Open a Fix Pull Request…');
  expectAll("the finding's context menu", await menuEntries(page), ['Open a Fix Pull Request…', 'Fix with Agent', 'Show Trace']);
  await choose(page, 'Open a Fix Pull Request…');
  await confirmation(page, 'autofix-confirm', theme, [
    'Open a fix pull request for',
    "opens a pull request in the organization's repository",
    'Open Pull Request',
  ]);
}

await inDemoThemes(
  'dialogs',
  async (page, url, theme) => {
    await openDemoFindings(page, url);
    await projectScenes(page, theme);
    await dependencyScenes(page, theme);
    await ticketScenes(page, theme);
    await ruleScenes(page, theme);
  },
  out,
);
