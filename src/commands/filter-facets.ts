/**
 * The Filter Findings picker in two steps, without `vscode`: first the facets (Status, Severity,
 * …) each with what it keeps now, then one facet's values, worded as a user reads them. A draft
 * selection changes with each step and applies only when the user says so.
 */
import {
  FILTER_DEFINITIONS,
  offeredDefinitions,
  parseSelection,
  selectedValues,
  selectionFromPicks,
  valueLabel,
  type FilterDefinition,
  type FilterSelection,
} from '../core/services/filters';
import type { FindingKind } from '../core/services/kind-availability';
import { t } from '../core/l10n';

export interface FacetItem {
  readonly key: FilterDefinition['key'];
  readonly label: string;
  /** What the facet keeps now ("any" when it keeps everything). */
  readonly description: string;
  /** Which kinds of finding the facet applies to. */
  readonly detail: string;
}

export interface ValueItem {
  readonly value: string | undefined;
  readonly label: string;
  readonly picked: boolean;
}

/** Values worded where the shared labels would read as code ("true", "false"). */
function valueWords(key: FilterDefinition['key'], value: string): string | undefined {
  if (key !== 'isMalicious') return undefined;
  return value === 'true' ? t('malicious packages only') : value === 'false' ? t('without malicious packages') : undefined;
}

/** Which kinds a facet applies to, in words ("Code and supply chain findings only"). */
function scopeText(def: FilterDefinition): string {
  if (def.key === 'newOnBranch') return t('Findings its primary branch does not have (decided in the editor)');
  if (def.key === 'aiFindings') return t('Code findings of the AI analysis (decided in the editor)');
  if (def.appliesTo.length === 3) return t('Every kind of finding');
  const key = [...def.appliesTo].sort().join(' ');
  switch (key) {
    case 'sast':
      return t('Code findings only');
    case 'sca':
      return t('Supply chain findings only');
    case 'secrets':
      return t('Secrets findings only');
    case 'sast sca':
      return t('Code and supply chain findings only');
    case 'sast secrets':
      return t('Code and secrets findings only');
    default:
      return t('Supply chain and secrets findings only');
  }
}

/** How one value of a facet reads. */
function facetValueLabel(def: FilterDefinition, value: string): string {
  return valueWords(def.key, value) ?? valueLabel(value, def);
}

/** The facet's name without the kind it applies to ("Reachability (supply chain)" → "Reachability"). */
function facetName(def: FilterDefinition): string {
  return def.label.replace(/\s*[(（][^()（）]*[)）]$/, '');
}

/** The first step: every facet the deployment offers (and any already set), with what it keeps. */
export function facetItems(draft: FilterSelection, offered: readonly FindingKind[]): FacetItem[] {
  const chosen = new Map(selectedValues(draft).map(([def, values]) => [def.key, values]));
  return offeredDefinitions(offered, draft).map((def) => {
    const values = chosen.get(def.key) ?? [];
    return {
      key: def.key,
      label: facetName(def),
      detail: scopeText(def),
      description: values.length === 0 ? t('any') : values.map((v) => facetValueLabel(def, v)).join(', '),
    };
  });
}

/** The second step: a facet's values, the ones the draft keeps picked; a one-value facet also offers "Any". */
export function valueItems(key: FilterDefinition['key'], draft: FilterSelection): ValueItem[] {
  const def = definition(key);
  const current = new Set(selectedValues(draft).find(([d]) => d.key === key)?.[1] ?? []);
  const values = def.values.map((value) => ({ value, label: facetValueLabel(def, value), picked: current.has(value) }));
  return def.single ? [{ value: undefined, label: t('Any'), picked: current.size === 0 }, ...values] : values;
}

/** The draft with one facet set to the values picked (none: the facet keeps everything). */
export function withFacet(draft: FilterSelection, key: FilterDefinition['key'], values: readonly (string | undefined)[]): FilterSelection {
  const picked = selectionFromPicks(values.filter((v): v is string => v !== undefined).map((value) => ({ key, value })));
  // Two values of a one-value facet cannot come from its step (it takes one); the draft stays.
  if (typeof picked === 'string') return draft;
  // The other facets, the file and rule filters set by other commands included, stay as they were.
  return parseSelection({ ...draft, [key]: picked[key] });
}

/** Whether a facet takes one value (its step is a single pick). */
export function takesOneValue(key: FilterDefinition['key']): boolean {
  return definition(key).single;
}

function definition(key: FilterDefinition['key']): FilterDefinition {
  const def = FILTER_DEFINITIONS.find((d) => d.key === key);
  if (!def) throw new Error(`No filter named ${key}.`);
  return def;
}
