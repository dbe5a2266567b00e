/** Filters and grouping of findings: one picker, shared by the tree and the diagnostics. */
import * as vscode from 'vscode';
import {
  FILTER_DEFINITIONS, offeredDefinitions, parseSelection, selectedValues, selectionFromPicks, valueLabel, type FilterDefinition, type FilterSelection,
} from '../core/services/filters';
import type { GroupBy } from '../core/services/grouping';
import type { FindingKind } from '../core/services/kind-availability';
import type { CommandDeps } from './command-deps';
import { groupKey, type CommandItem } from './command-item';

/** Filters and grouping live in the view state; a filter change reloads. */
export type FilterCommandsDeps = Pick<CommandDeps, 'viewState' | 'refreshAll' | 'findings'>;

interface FilterPick extends vscode.QuickPickItem {
  readonly key: FilterDefinition['key'];
  readonly value: string;
}

const TYPE_NOUNS: Record<string, string> = { sast: 'code', sca: 'supply chain', secrets: 'secrets' };

function scopeLabel(def: FilterDefinition): string {
  if (def.key === 'newOnBranch') return 'findings its primary branch does not have';
  if (def.key === 'aiFindings') return 'code findings of the AI analysis (decided in the editor)';
  if (def.appliesTo.length === 3) return 'every kind of finding';
  if (def.appliesTo.length === 1) return `${TYPE_NOUNS[def.appliesTo[0] ?? ''] ?? ''} findings only`;
  return def.appliesTo.map((t) => TYPE_NOUNS[t]).join(' and ');
}

/** Shows the multi-select picker; resolves with the chosen selection, or undefined if dismissed. */
function pickSelection(current: FilterSelection, offered: readonly FindingKind[]): Promise<FilterSelection | undefined> {
  const chosen = new Set(selectedValues(current).flatMap(([def, values]) => values.map((v) => `${def.key}=${v}`)));
  const items: (FilterPick | vscode.QuickPickItem)[] = [];
  for (const def of offeredDefinitions(offered, current)) {
    items.push({ label: `${def.label}${def.single && def.values.length > 1 ? ' (choose one)' : ''}`, kind: vscode.QuickPickItemKind.Separator });
    for (const value of def.values) {
      // The filter's name on every value: "open" is a status and a pull-request state, "false
      // positive" a triage reason and a verdict; the separator alone does not always show.
      items.push({ label: valueLabel(value, def), description: `${def.label.replace(/ \(.*\)$/, '')} · ${scopeLabel(def)}`, key: def.key, value } satisfies FilterPick);
    }
  }
  const picker = vscode.window.createQuickPick<FilterPick | vscode.QuickPickItem>();
  picker.title = 'AppSec: Filter Findings';
  picker.placeholder = 'Pick the findings to show, in the tree and in Problems. None picked shows all.';
  picker.canSelectMany = true;
  picker.matchOnDescription = true;
  picker.items = items;
  picker.selectedItems = items.filter((i): i is FilterPick => 'key' in i && chosen.has(`${i.key}=${i.value}`));
  return new Promise((resolve) => {
    let result: FilterSelection | undefined;
    let previous = new Set(picker.selectedItems);
    picker.onDidAccept(() => {
      const selection = selectionFromPicks(picker.selectedItems.filter((i): i is FilterPick => 'key' in i));
      if (typeof selection === 'string') return; // cannot happen: single-valued filters act as radio buttons
      result = selection;
      picker.hide();
    });
    // A filter the platform takes one value of behaves like radio buttons: the newest pick wins.
    picker.onDidChangeSelection((selected) => {
      const added = selected.filter((i): i is FilterPick => 'key' in i && !previous.has(i));
      const singles = new Set(added.filter((i) => FILTER_DEFINITIONS.find((d) => d.key === i.key)?.single).map((i) => i.key));
      const kept = selected.filter((i) => !('key' in i) || !singles.has(i.key) || added.includes(i));
      if (kept.length !== selected.length) picker.selectedItems = kept;
      previous = new Set(kept);
    });
    picker.onDidHide(() => {
      picker.dispose();
      resolve(result);
    });
    picker.show();
  });
}

/** With a selection (automation, tests) the picker is skipped. */
export async function filterFindings(app: FilterCommandsDeps, given?: FilterSelection): Promise<FilterSelection | undefined> {
  const selection = given ?? await pickSelection(app.viewState.selection(), app.findings.availability.offered());
  if (!selection) return undefined;
  await app.viewState.setSelection(selection);
  await app.refreshAll(false);
  return selection;
}

/** The current filters with one changed, read as a stored selection is (trimmed, de-duplicated). */
function narrowed(app: FilterCommandsDeps, change: Partial<FilterSelection>): FilterSelection {
  return parseSelection({ ...app.viewState.selection(), ...change });
}

/**
 * Keeps only the findings of this finding's severity (or a severity group's), other filters
 * unchanged: from a finding's or a severity group's context menu, or with the severity as text.
 */
export async function filterBySeverity(app: FilterCommandsDeps, item?: CommandItem): Promise<FilterSelection | undefined> {
  const severity = item?.text ?? item?.finding?.severity ?? groupKey(item, 'severity');
  if (!severity) return undefined;
  return filterFindings(app, narrowed(app, { severities: [severity] }));
}

/**
 * Keeps only the code findings of one rule (the platform's `rules` filter), other filters
 * unchanged: from a code finding's or a rule group's context menu, or with the rule as text.
 */
export async function filterByRule(app: FilterCommandsDeps, item?: CommandItem): Promise<FilterSelection | undefined> {
  // The platform filters code findings by rule; a supply-chain finding's `ssc-…` id is no rule there.
  if (item?.finding?.issueType === 'sca') return undefined;
  const rule = groupKey(item, 'rule') ?? item?.text ?? item?.finding?.ruleName
    ?? (await vscode.window.showInputBox({ title: 'AppSec: Show Only This Rule', prompt: 'The rule id, e.g. python.lang.security.audit.eval-detected', ignoreFocusOut: true }));
  const trimmed = rule?.trim();
  if (!trimmed) return undefined;
  return filterFindings(app, narrowed(app, { rules: [trimmed] }));
}

/**
 * Keeps only the findings of one file or folder (decided by the extension: the platform has no
 * such filter): from a finding's or a file group's context menu, or with the path as text
 * (relative to the repository). A supply-chain finding counts for the file of its usage.
 */
export async function filterByFile(app: FilterCommandsDeps, item?: CommandItem): Promise<FilterSelection | undefined> {
  const finding = item?.finding;
  const active = vscode.window.activeTextEditor?.document.uri;
  const path = groupKey(item, 'file') ?? item?.text
    ?? finding?.sca?.usage?.filePath ?? finding?.location?.filePath
    ?? (await vscode.window.showInputBox({
      title: 'AppSec: Show Only This File', prompt: 'A file or folder, relative to the repository (e.g. src/app or src/app/views.py)',
      value: active ? vscode.workspace.asRelativePath(active, false) : undefined, ignoreFocusOut: true,
    }));
  const trimmed = path?.trim().replace(/^\.\//, '');
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return undefined;
  return filterFindings(app, narrowed(app, { paths: [trimmed] }));
}

export async function clearFilters(app: FilterCommandsDeps): Promise<void> {
  await app.viewState.clearFilters();
  await app.refreshAll(false);
}

const GROUPS: { label: string; value: GroupBy }[] = [
  { label: 'Severity', value: 'severity' },
  { label: 'Rule', value: 'rule' },
  { label: 'File', value: 'file' },
];

/** With the grouping given (automation, tests) the picker is skipped. */
export async function groupBy(app: FilterCommandsDeps, given?: GroupBy): Promise<GroupBy | undefined> {
  let value = given;
  if (!value) {
    const current = app.viewState.groupBy();
    const picked = await vscode.window.showQuickPick(
      GROUPS.map((g) => ({ ...g, description: g.value === current ? 'current' : undefined })),
      { title: 'AppSec: Group Findings By' },
    );
    value = picked?.value;
  }
  if (value) await app.viewState.setGroupBy(value);
  return value;
}
