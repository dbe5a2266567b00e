/**
 * The findings filters a user chooses (spec 4.2), which of them apply to which issue type, how
 * they read in a view's description, and how they become query filters. Both the tree and the
 * diagnostics build their queries here, so they can never disagree about what is shown.
 */
import type { FindingKind } from './kind-availability';
import { SEVERITY_ORDER } from '../model/severity';
import { ISSUE_TYPES, type Finding, type FindingFilters, type IssueType } from '../model/types';
import { english, perLanguage, t, type Say } from '../l10n';
import { kindOf } from '../model/finding-kinds';

/** What the user picked. Single-valued where the API takes one value (`status`, `confidence`, …). */
export interface FilterSelection {
  readonly status?: string;
  readonly severities: readonly string[];
  readonly triageReasons: readonly string[];
  readonly policies: readonly string[];
  readonly categories: readonly string[];
  readonly confidence?: string;
  readonly autotriageVerdict?: string;
  readonly componentTags: readonly string[];
  readonly exposures: readonly string[];
  readonly transitivities: readonly string[];
  readonly isMalicious?: boolean;
  readonly clickToFixPrState: readonly string[];
  /** Rule names (code findings; sent as `rules`). */
  readonly rules: readonly string[];
  /** Files or folders of the repository: findings there only (decided here; never sent). */
  readonly paths: readonly string[];
  /**
   * Only findings the project's primary branch does not have: decided here, not by the platform
   * (it has no such filter), from the branch baselines; never sent in a query.
   */
  readonly newOnBranch?: boolean;
  /** Secrets: whether the secret was found to work (`validationState`). */
  readonly validationStates: readonly string[];
  /** Code findings: only the AI analysis's (`only`), or none of them (`exclude`); decided here. */
  readonly aiFindings?: string;
}

export const EMPTY_SELECTION: FilterSelection = {
  severities: [], triageReasons: [], policies: [], categories: [], componentTags: [],
  exposures: [], transitivities: [], clickToFixPrState: [], rules: [], paths: [], validationStates: [],
};

type ListKey = { [K in keyof FilterSelection]-?: FilterSelection[K] extends readonly string[] ? K : never }[keyof FilterSelection];
type SingleKey = 'status' | 'confidence' | 'autotriageVerdict' | 'aiFindings';
type BooleanKey = 'isMalicious' | 'newOnBranch';

/** One pickable filter: its values, and the issue types the API applies it to. */
export interface FilterDefinition {
  readonly key: ListKey | SingleKey | BooleanKey;
  readonly label: string;
  readonly values: readonly string[];
  readonly single: boolean;
  readonly appliesTo: readonly IssueType[];
  /** Applied by the extension to what the platform answered, not sent as a query parameter. */
  readonly local?: boolean;
  /** How each value reads, where the shared labels (`valueLabel`) do not fit. */
  readonly valueLabels?: Readonly<Record<string, string>>;
}

const isBooleanKey = (key: FilterDefinition['key']): key is BooleanKey => key === 'isMalicious' || key === 'newOnBranch';

const BOTH: readonly IssueType[] = ['sast', 'sca'];
// Labels are getters: they are read in the display language when shown, not when this module loads.
export const FILTER_DEFINITIONS: readonly FilterDefinition[] = [
  { key: 'status', get label() { return t('Status'); }, values: ['open', 'reviewing', 'fixing', 'provisionally_ignored', 'ignored', 'fixed'], single: true, appliesTo: ISSUE_TYPES },
  { key: 'severities', get label() { return t('Severity'); }, values: SEVERITY_ORDER, single: false, appliesTo: ISSUE_TYPES },
  { key: 'triageReasons', get label() { return t('Triage reason (ignored findings)'); }, values: ['acceptable_risk', 'false_positive', 'no_time', 'no_triage_reason', 'duplicate'], single: false, appliesTo: BOTH },
  { key: 'policies', get label() { return t('Rule mode (code)'); }, values: ['rule-board-audit', 'rule-board-pr-comments', 'rule-board-block'], single: false, appliesTo: ['sast'] },
  { key: 'confidence', get label() { return t('Confidence (code)'); }, values: ['high', 'medium', 'low'], single: true, appliesTo: ['sast'] },
  { key: 'autotriageVerdict', get label() { return t('Assistant verdict (code)'); }, values: ['true_positive', 'false_positive'], single: true, appliesTo: ['sast'] },
  {
    key: 'aiFindings', get label() { return t('AI findings (code)'); }, values: ['only', 'exclude'], single: true, appliesTo: ['sast'], local: true,
    get valueLabels() { return { only: t('AI findings only'), exclude: t('without AI findings') }; },
  },
  { key: 'exposures', get label() { return t('Reachability (supply chain)'); }, values: ['reachable', 'always_reachable', 'conditionally_reachable', 'unreachable', 'unknown'], single: false, appliesTo: ['sca'] },
  { key: 'transitivities', get label() { return t('Dependency (supply chain)'); }, values: ['direct', 'transitive', 'unknown'], single: false, appliesTo: ['sca'] },
  { key: 'isMalicious', get label() { return t('Malicious dependency (supply chain)'); }, values: ['true', 'false'], single: true, appliesTo: ['sca'] },
  { key: 'clickToFixPrState', get label() { return t('Fix pull request'); }, values: ['open', 'merged'], single: false, appliesTo: BOTH },
  {
    key: 'validationStates', get label() { return t('Validation (secrets)'); }, values: ['confirmed_valid', 'confirmed_invalid', 'validation_error', 'no_validator'], single: false, appliesTo: ['secrets'],
    get valueLabels() { return validationLabels(); },
  },
  {
    key: 'newOnBranch', get label() { return t('This branch'); }, values: ['true'], single: true, appliesTo: BOTH, local: true,
    get valueLabels() { return { true: t('new on this branch') }; },
  },
];

/** A secret's validation as every view says it (the diagnostics read it for each secret: built once per language). */
const sayValidationLabels = (t: Say): Readonly<Record<string, string>> => ({
  confirmed_valid: t('valid secret'), confirmed_invalid: t('invalid secret'), validation_error: t('validation failed'), no_validator: t('not validated'),
});
const validationLabels = perLanguage(() => sayValidationLabels(t));

/** Free-text filters: not offered in the picker (no value list), but shown and sent when set. */
const FREE_TEXT_DEFINITIONS: readonly FilterDefinition[] = [
  { key: 'categories', get label() { return t('Category (code)'); }, values: [], single: false, appliesTo: ['sast'] },
  { key: 'componentTags', get label() { return t('Component tag'); }, values: [], single: false, appliesTo: BOTH },
  { key: 'rules', get label() { return t('Rule (code)'); }, values: [], single: false, appliesTo: ['sast'] },
  { key: 'paths', get label() { return t('File'); }, values: [], single: false, appliesTo: ISSUE_TYPES, local: true },
];
const ALL_DEFINITIONS = [...FILTER_DEFINITIONS, ...FREE_TEXT_DEFINITIONS];

/** Readable labels for values that are API identifiers. */
const sayValueLabels = (t: Say): Readonly<Record<string, string>> => ({
  'rule-board-audit': t('monitor'), 'rule-board-pr-comments': t('comment'), 'rule-board-block': t('block'),
  true_positive: t('true positive'), false_positive: t('false positive'), acceptable_risk: t('acceptable risk'),
  no_time: t('no time'), no_triage_reason: t('no reason'), always_reachable: t('always reachable'),
  conditionally_reachable: t('conditionally reachable'), provisionally_ignored: t('provisionally ignored'),
  // The same words in English; named here so that other languages translate them.
  open: t('open'), reviewing: t('reviewing'), fixing: t('fixing'), ignored: t('ignored'), fixed: t('fixed'),
  critical: t('critical'), high: t('high'), medium: t('medium'), low: t('low'),
  reachable: t('reachable'), unreachable: t('unreachable'), unknown: t('unknown'),
  direct: t('direct'), transitive: t('transitive'), merged: t('merged'), duplicate: t('duplicate'),
});
const VALUE_LABELS = perLanguage(() => sayValueLabels(t));
export const valueLabel = (value: string, def?: FilterDefinition): string => def?.valueLabels?.[value] ?? VALUE_LABELS()[value] ?? value;

/** The same labels in English, whatever the display language: the agent's text stays English by rule. */
const ENGLISH_VALUE_LABELS = { ...sayValueLabels(english), ...sayValidationLabels(english) };
export const englishValueLabel = (value: string): string => ENGLISH_VALUE_LABELS[value] ?? value;

/** How a secret's validation reads: "valid secret" is the one that needs rotating now. */
export function secretValidationLabel(validation: string): string {
  return validationLabels()[validation] ?? VALUE_LABELS()[validation] ?? validation;
}

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
  return selectedValues(selection).map(([def, values]) => values.map((v) => valueLabel(v, def)).join(', ')).join(' · ');
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
    (paths.length === 0 || inPaths(finding.location?.filePath) || inPaths(finding.sca?.usage?.filePath))
    && (!newOnBranch || (isNew?.(finding) ?? false)) && aiAllows(finding);
}

/**
 * The filters worth offering on a deployment that has only some kinds: a filter of kinds it does
 * not have is left out (the AI filter needs the AI analysis), unless it is chosen now, so that it
 * can still be unpicked.
 */
export function offeredDefinitions(offered: readonly FindingKind[], current: FilterSelection): FilterDefinition[] {
  const chosen = new Set(selectedValues(current).map(([def]) => def.key));
  const has = new Set<FindingKind>(offered);
  return FILTER_DEFINITIONS.filter((def) =>
    chosen.has(def.key) || (def.key === 'aiFindings' ? has.has('ai') : def.appliesTo.some((type) => has.has(type))));
}
