/** Filters and grouping of findings: one picker, shared by the tree and the diagnostics. */
import * as vscode from 'vscode';
import { showInput } from '../host/notify';
import { describeSelection, parseSelection, type FilterDefinition, type FilterSelection } from '../core/services/filters';
import type { GroupBy } from '../core/services/grouping';
import type { FindingKind } from '../core/services/kind-availability';
import { kindOf } from '../core/model/finding-kinds';
import type { CommandDeps } from './command-deps';
import { facetItems, takesOneValue, valueItems, withFacet } from './filter-facets';
import { groupKey, type CommandItem } from './command-item';
import { t } from '../core/l10n';

/** Filters and grouping live in the view state; a filter change reloads. */
export type FilterCommandsDeps = Pick<CommandDeps, 'viewState' | 'refreshAll' | 'findings'>;

const APPLY = 'apply';
const DEFAULTS = 'defaults';

type StepItem<T> = vscode.QuickPickItem & { readonly id: T };

/**
 * The filter picker: the facets first, each with what it keeps, then one facet's values; back at
 * the facets after each, on Apply once a value was chosen (the next Enter applies) and on the facet
 * when its list was dismissed. The filters apply on Apply, and the defaults on Back to the
 * Defaults, each one Enter; Escape leaves them as they were.
 */
async function pickSelection(current: FilterSelection, defaults: FilterSelection, offered: readonly FindingKind[]): Promise<FilterSelection | undefined> {
  let draft = current;
  let focus: string = APPLY;
  for (;;) {
    const summary = describeSelection(draft);
    const head: StepItem<string>[] = [
      { id: APPLY, label: `$(check) ${t('Apply')}`, description: summary === '' ? t('every finding') : summary },
      { id: DEFAULTS, label: `$(discard) ${t('Back to the defaults')}`, description: describeSelection(defaults) || t('every finding') },
      { id: '', label: t('Filters'), kind: vscode.QuickPickItemKind.Separator },
    ];
    const facets = facetItems(draft, offered).map((f): StepItem<string> => ({ id: f.key, label: f.label, description: f.description, detail: f.detail }));
    const picked = await pickOne([...head, ...facets], {
      title: t('AppSec: Filter Findings'),
      placeholder: t('Pick a filter to change, then Apply (the tree and Problems follow)'),
      focus,
    });
    if (!picked) return undefined;
    if (picked.id === APPLY) return draft;
    if (picked.id === DEFAULTS) return defaults;
    const key = picked.id as FilterDefinition['key'];
    const values = await pickValues(key, draft, picked.label);
    if (values) draft = withFacet(draft, key, values);
    focus = values ? APPLY : picked.id;
  }
}

async function pickValues(key: FilterDefinition['key'], draft: FilterSelection, name: string): Promise<(string | undefined)[] | undefined> {
  const items = valueItems(key, draft).map((v): StepItem<string | undefined> & { picked: boolean } => ({
    id: v.value,
    label: v.label,
    picked: v.picked,
    description: v.picked && takesOneValue(key) ? t('kept now') : undefined,
  }));
  const title = t('AppSec: Filter Findings — {0}', name);
  if (takesOneValue(key)) {
    const picked = await pickOne(items, {
      title,
      placeholder: t('Keep the findings whose {0} is…', name.toLowerCase()),
      focus: items.find((i) => i.picked)?.id,
    });
    return picked && [picked.id];
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: t('Tick the values to keep (none ticked: any)'),
    canPickMany: true,
    ignoreFocusOut: true,
  });
  return chosen?.map((c) => c.id);
}

/** One pick, with the item of `focus` active (Enter takes it); undefined when dismissed. */
function pickOne<T>(items: readonly StepItem<T>[], options: { title: string; placeholder: string; focus?: T }): Promise<StepItem<T> | undefined> {
  const picker = vscode.window.createQuickPick<StepItem<T>>();
  picker.title = options.title;
  picker.placeholder = options.placeholder;
  picker.matchOnDescription = true;
  // A webview that had the focus (the Finding Details panel) takes it back as one step closes,
  // which would dismiss the next step and drop what was picked: only Escape dismisses.
  picker.ignoreFocusOut = true;
  picker.items = items;
  const active = items.find((item) => item.kind !== vscode.QuickPickItemKind.Separator && item.id === options.focus);
  if (active) picker.activeItems = [active];
  return new Promise((resolve) => {
    let result: StepItem<T> | undefined;
    picker.onDidAccept(() => {
      result = picker.selectedItems[0];
      picker.hide();
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
  const selection = given ?? (await pickSelection(app.viewState.selection(), app.viewState.defaultSelection(), app.findings.availability.offered()));
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
  if (item?.finding && !kindOf(item.finding).ruled) return undefined;
  const rule =
    groupKey(item, 'rule') ??
    item?.text ??
    item?.finding?.ruleName ??
    (await showInput({
      title: t('AppSec: Show Only This Rule'),
      prompt: t('The rule id, e.g. {0}', 'python.lang.security.audit.eval-detected'),
      ignoreFocusOut: true,
    }));
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
  const path =
    groupKey(item, 'file') ??
    item?.text ??
    finding?.sca?.usage?.filePath ??
    finding?.location?.filePath ??
    (await showInput({
      title: t('AppSec: Show Only This File'),
      prompt: t('A file or folder, relative to the repository (e.g. {0} or {1})', 'src/app', 'src/app/views.py'),
      value: active ? vscode.workspace.asRelativePath(active, false) : undefined,
      ignoreFocusOut: true,
    }));
  const trimmed = path?.trim().replace(/^\.\//, '');
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return undefined;
  return filterFindings(app, narrowed(app, { paths: [trimmed] }));
}

export async function clearFilters(app: FilterCommandsDeps): Promise<void> {
  await app.viewState.clearFilters();
  await app.refreshAll(false);
}

const GROUPS = (): { label: string; value: GroupBy }[] => [
  { label: t('Severity'), value: 'severity' },
  { label: t('Rule'), value: 'rule' },
  { label: t('File'), value: 'file' },
];

/** With the grouping given (automation, tests) the picker is skipped. */
export async function groupBy(app: FilterCommandsDeps, given?: GroupBy): Promise<GroupBy | undefined> {
  let value = given;
  if (!value) {
    const current = app.viewState.groupBy();
    const picked = await vscode.window.showQuickPick(
      GROUPS().map((g) => ({ ...g, description: g.value === current ? t('current') : undefined })),
      { title: t('AppSec: Group Findings By') },
    );
    value = picked?.value;
  }
  if (value) await app.viewState.setGroupBy(value);
  return value;
}
