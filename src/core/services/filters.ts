/**
 * The findings filters a user chooses (spec 4.2), which of them apply to which issue type, how
 * they read in a view's description, and how they become query filters. Both the tree and the
 * diagnostics build their queries here, so they can never disagree about what is shown.
 */
import type { FindingKind } from './kind-availability';
import type { Finding, FindingFilters, IssueType } from '../model/types';
import { kindOf } from '../model/finding-kinds';
import {
  ALL_DEFINITIONS,
  EMPTY_SELECTION,
  FILTER_DEFINITIONS,
  isBooleanKey,
  type FilterDefinition,
  type FilterSelection,
  type ListKey,
} from './filter-definitions';
import { valueLabel } from './filter-words';
import { t } from '../l10n';

// The catalogue is read through this module by every view.
export { EMPTY_SELECTION, FILTER_DEFINITIONS, type FilterDefinition, type FilterSelection } from './filter-definitions';
export { englishValueLabel, secretValidationLabel, valueLabel } from './filter-words';

/** Reads a stored selection tolerantly: unknown keys dropped, wrong types ignored. */
export function parseSelection(stored: unknown): FilterSelection {
  if (typeof stored !== 'object' || stored === null) return EMPTY_SELECTION;
  const raw = stored as Record<string, unknown>;
  const result: Record<string, unknown> = { ...EMPTY_SELECTION };
  // Free-text filters (no fixed values to pick from): kept when given by automation or a test.
  for (const key of ['categories', 'componentTags', 'rules', 'paths'] as const) {
    const value = raw[key];
    if (Array.isArray(value)) result[key] = [...new Set(value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()))];
  }
  for (const def of FILTER_DEFINITIONS) {
    const value = raw[def.key];
    if (isBooleanKey(def.key)) {
      // "Only new" has no "only old" counterpart: false is the same as not filtering.
      if (typeof value === 'boolean' && (def.key === 'isMalicious' || value)) result[def.key] = value;
    } else if (def.single) {
      if (typeof value === 'string' && def.values.includes(value)) result[def.key] = value;
    } else if (Array.isArray(value)) {
      result[def.key] = [...new Set(value.filter((v): v is string => typeof v === 'string' && def.values.includes(v)))];
    }
  }
  return result as unknown as FilterSelection;
}

/** The selection as [definition, chosen values] pairs, for pickers and descriptions. */
export function selectedValues(selection: FilterSelection): [FilterDefinition, string[]][] {
  return ALL_DEFINITIONS.map((def): [FilterDefinition, string[]] => {
    const value = selection[def.key];
    if (value === undefined) return [def, []];
    return [def, typeof value === 'boolean' ? [String(value)] : typeof value === 'string' ? [value] : [...value]];
  }).filter(([, values]) => values.length > 0);
}

/** Whether two selections keep the same values (order aside): the defaults, say, changed by nothing. */
export function sameSelection(a: FilterSelection, b: FilterSelection): boolean {
  const text = (s: FilterSelection): string => JSON.stringify(selectedValues(s).map(([def, values]) => [def.key, [...values].sort()]));
  return text(a) === text(b);
}

export function isEmptySelection(selection: FilterSelection): boolean {
  return selectedValues(selection).length === 0;
}

/** Short text for a view's description, e.g. "open · critical, high · reachable". */
export function describeSelection(selection: FilterSelection): string {
  return selectedValues(selection)
    .map(([def, values]) => values.map((v) => valueLabel(v, def)).join(', '))
    .join(' · ');
}

/** Builds a selection from picked [key, value] pairs; rejects two values for a single-valued filter. */
export function selectionFromPicks(picks: readonly { key: FilterDefinition['key']; value: string }[]): FilterSelection | string {
  const grouped = new Map<string, string[]>();
  for (const { key, value } of picks) grouped.set(key, [...(grouped.get(key) ?? []), value]);
  const raw: Record<string, unknown> = {};
  for (const def of FILTER_DEFINITIONS) {
    const values = grouped.get(def.key);
    if (!values) continue;
    if (def.single && values.length > 1) return t('Choose at most one value for "{0}": the platform filters by one.', def.label);
    raw[def.key] = isBooleanKey(def.key) ? values[0] === 'true' : def.single ? values[0] : values;
  }
  return parseSelection(raw);
}

/** Whether a filter applies to a kind of finding (a code finding has a confidence, a secret none). */
export function filterApplies(key: FilterDefinition['key'], issueType: IssueType): boolean {
  return ALL_DEFINITIONS.find((d) => d.key === key)?.appliesTo.includes(issueType) ?? false;
}

/** The query filters for one issue type: only those the API applies to it. */
export function toQueryFilters(selection: FilterSelection, issueType: IssueType, scope: { repo: string; ref?: string; dedup?: boolean }): FindingFilters {
  const applies = (key: FilterDefinition['key']): boolean => filterApplies(key, issueType);
  const list = (key: ListKey): readonly string[] | undefined => (applies(key) && selection[key].length > 0 ? selection[key] : undefined);
  return {
    repos: [scope.repo],
    ...(scope.ref ? { ref: scope.ref } : {}),
    ...(scope.dedup ? { dedup: true } : {}),
    ...(selection.status ? { status: selection.status } : {}),
    ...(list('severities') ? { severities: list('severities') } : {}),
    ...(list('triageReasons') ? { triageReasons: list('triageReasons') } : {}),
    ...(list('policies') ? { policies: list('policies') } : {}),
    ...(list('categories') ? { categories: list('categories') } : {}),
    ...(list('rules') ? { rules: list('rules') } : {}),
    ...(applies('confidence') && selection.confidence ? { confidence: selection.confidence } : {}),
    ...(applies('autotriageVerdict') && selection.autotriageVerdict ? { autotriageVerdict: selection.autotriageVerdict } : {}),
    ...(list('componentTags') ? { componentTags: list('componentTags') } : {}),
    ...(list('exposures') ? { exposures: list('exposures') } : {}),
    ...(list('transitivities') ? { transitivities: list('transitivities') } : {}),
    ...(applies('isMalicious') && selection.isMalicious !== undefined ? { isMalicious: selection.isMalicious } : {}),
    ...(list('clickToFixPrState') ? { clickToFixPrState: list('clickToFixPrState') } : {}),
    ...(list('validationStates') ? { validationStates: list('validationStates') } : {}),
  };
}

/**
 * The filters the extension applies to what the platform answered (it has no such parameter):
 * files and folders, "only new on this branch", and AI code findings only or without them. Undefined when none is set, so callers skip
 * the pass. `isNew` answers for the branch baselines; without it nothing is new.
 */
export function localFilterOf(selection: FilterSelection, isNew?: (finding: Finding) => boolean): ((finding: Finding) => boolean) | undefined {
  const paths = selection.paths.map((p) => p.replace(/\/+$/, ''));
  const newOnBranch = selection.newOnBranch === true;
  const ai = selection.aiFindings;
  if (paths.length === 0 && !newOnBranch && ai === undefined) return undefined;
  const inPaths = (path: string | undefined): boolean => path !== undefined && paths.some((p) => path === p || path.startsWith(`${p}/`));
  // The AI filter narrows code findings only; other kinds pass it.
  const aiAllows = (finding: Finding): boolean => ai === undefined || !kindOf(finding).aiAnalysed || (ai === 'only') === (finding.ai !== undefined);
  return (finding) =>
    (paths.length === 0 || inPaths(finding.location?.filePath) || inPaths(finding.sca?.usage?.filePath)) &&
    (!newOnBranch || (isNew?.(finding) ?? false)) &&
    aiAllows(finding);
}

/**
 * The filters worth offering on a deployment that has only some kinds: a filter of kinds it does
 * not have is left out (the AI filter needs the AI analysis), unless it is chosen now, so that it
 * can still be unpicked.
 */
export function offeredDefinitions(offered: readonly FindingKind[], current: FilterSelection): FilterDefinition[] {
  const chosen = new Set(selectedValues(current).map(([def]) => def.key));
  const has = new Set<FindingKind>(offered);
  return FILTER_DEFINITIONS.filter((def) => chosen.has(def.key) || (def.key === 'aiFindings' ? has.has('ai') : def.appliesTo.some((type) => has.has(type))));
}
