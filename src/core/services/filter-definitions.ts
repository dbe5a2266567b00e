/**
 * The catalogue of findings filters (spec 4.2): what a user can pick, the values of each, the kinds
 * of finding the platform applies each to, and how every value reads, in the display language and
 * in English for the agent. `filters.ts` turns a selection into queries and local filters.
 */
import { SEVERITY_ORDER } from '../model/severity';
import { ISSUE_TYPES, type IssueType } from '../model/types';
import { t } from '../l10n';
import { validationLabels } from './filter-words';

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
  severities: [],
  triageReasons: [],
  policies: [],
  categories: [],
  componentTags: [],
  exposures: [],
  transitivities: [],
  clickToFixPrState: [],
  rules: [],
  paths: [],
  validationStates: [],
};

export type ListKey = { [K in keyof FilterSelection]-?: FilterSelection[K] extends readonly string[] ? K : never }[keyof FilterSelection];
export type SingleKey = 'status' | 'confidence' | 'autotriageVerdict' | 'aiFindings';
export type BooleanKey = 'isMalicious' | 'newOnBranch';

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

export const isBooleanKey = (key: FilterDefinition['key']): key is BooleanKey => key === 'isMalicious' || key === 'newOnBranch';

const BOTH: readonly IssueType[] = ['sast', 'sca'];
// Labels are getters: they are read in the display language when shown, not when this module loads.
export const FILTER_DEFINITIONS: readonly FilterDefinition[] = [
  {
    key: 'status',
    get label() {
      return t('Status');
    },
    values: ['open', 'reviewing', 'fixing', 'provisionally_ignored', 'ignored', 'fixed'],
    single: true,
    appliesTo: ISSUE_TYPES,
  },
  {
    key: 'severities',
    get label() {
      return t('Severity');
    },
    values: SEVERITY_ORDER,
    single: false,
    appliesTo: ISSUE_TYPES,
  },
  {
    key: 'triageReasons',
    get label() {
      return t('Triage reason (ignored findings)');
    },
    values: ['acceptable_risk', 'false_positive', 'no_time', 'no_triage_reason', 'duplicate'],
    single: false,
    appliesTo: BOTH,
  },
  {
    key: 'policies',
    get label() {
      return t('Rule mode (code)');
    },
    values: ['rule-board-audit', 'rule-board-pr-comments', 'rule-board-block'],
    single: false,
    appliesTo: ['sast'],
  },
  {
    key: 'confidence',
    get label() {
      return t('Confidence (code)');
    },
    values: ['high', 'medium', 'low'],
    single: true,
    appliesTo: ['sast'],
  },
  {
    key: 'autotriageVerdict',
    get label() {
      return t('Assistant verdict (code)');
    },
    values: ['true_positive', 'false_positive'],
    single: true,
    appliesTo: ['sast'],
  },
  {
    key: 'aiFindings',
    get label() {
      return t('AI findings (code)');
    },
    values: ['only', 'exclude'],
    single: true,
    appliesTo: ['sast'],
    local: true,
    get valueLabels() {
      return { only: t('AI findings only'), exclude: t('without AI findings') };
    },
  },
  {
    key: 'exposures',
    get label() {
      return t('Reachability (supply chain)');
    },
    values: ['reachable', 'always_reachable', 'conditionally_reachable', 'unreachable', 'unknown'],
    single: false,
    appliesTo: ['sca'],
  },
  {
    key: 'transitivities',
    get label() {
      return t('Dependency (supply chain)');
    },
    values: ['direct', 'transitive', 'unknown'],
    single: false,
    appliesTo: ['sca'],
  },
  {
    key: 'isMalicious',
    get label() {
      return t('Malicious dependency (supply chain)');
    },
    values: ['true', 'false'],
    single: true,
    appliesTo: ['sca'],
  },
  {
    key: 'clickToFixPrState',
    get label() {
      return t('Fix pull request');
    },
    values: ['open', 'merged'],
    single: false,
    appliesTo: BOTH,
  },
  {
    key: 'validationStates',
    get label() {
      return t('Validation (secrets)');
    },
    values: ['confirmed_valid', 'confirmed_invalid', 'validation_error', 'no_validator'],
    single: false,
    appliesTo: ['secrets'],
    get valueLabels() {
      return validationLabels();
    },
  },
  {
    key: 'newOnBranch',
    get label() {
      return t('This branch');
    },
    values: ['true'],
    single: true,
    appliesTo: BOTH,
    local: true,
    get valueLabels() {
      return { true: t('new on this branch') };
    },
  },
];

/** Free-text filters: not offered in the picker (no value list), but shown and sent when set. */
const FREE_TEXT_DEFINITIONS: readonly FilterDefinition[] = [
  {
    key: 'categories',
    get label() {
      return t('Category (code)');
    },
    values: [],
    single: false,
    appliesTo: ['sast'],
  },
  {
    key: 'componentTags',
    get label() {
      return t('Component tag');
    },
    values: [],
    single: false,
    appliesTo: BOTH,
  },
  {
    key: 'rules',
    get label() {
      return t('Rule (code)');
    },
    values: [],
    single: false,
    appliesTo: ['sast'],
  },
  {
    key: 'paths',
    get label() {
      return t('File');
    },
    values: [],
    single: false,
    appliesTo: ISSUE_TYPES,
    local: true,
  },
];
/** The pickable filters and the free-text ones: every filter a selection can hold. */
export const ALL_DEFINITIONS = [...FILTER_DEFINITIONS, ...FREE_TEXT_DEFINITIONS];
