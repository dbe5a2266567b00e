/**
 * How the filters' values read: the platform's identifiers (`rule-board-block`, `confirmed_valid`)
 * in the display language for every view, and in English for the agent, whose text stays English
 * whatever the window's language.
 */
import { english, perLanguage, t, type Say } from '../l10n';

/** A secret's validation as every view says it (the diagnostics read it for each secret: built once per language). */
const sayValidationLabels = (t: Say): Readonly<Record<string, string>> => ({
  confirmed_valid: t('valid secret'),
  confirmed_invalid: t('invalid secret'),
  validation_error: t('validation failed'),
  no_validator: t('not validated'),
});
export const validationLabels = perLanguage(() => sayValidationLabels(t));

/** Readable labels for values that are API identifiers. */
const sayValueLabels = (t: Say): Readonly<Record<string, string>> => ({
  'rule-board-audit': t('monitor'),
  'rule-board-pr-comments': t('comment'),
  'rule-board-block': t('block'),
  true_positive: t('true positive'),
  false_positive: t('false positive'),
  acceptable_risk: t('acceptable risk'),
  no_time: t('no time'),
  no_triage_reason: t('no reason'),
  always_reachable: t('always reachable'),
  conditionally_reachable: t('conditionally reachable'),
  provisionally_ignored: t('provisionally ignored'),
  // The same words in English; named here so that other languages translate them.
  open: t('open'),
  reviewing: t('reviewing'),
  fixing: t('fixing'),
  ignored: t('ignored'),
  fixed: t('fixed'),
  critical: t('critical'),
  high: t('high'),
  medium: t('medium'),
  low: t('low'),
  reachable: t('reachable'),
  unreachable: t('unreachable'),
  unknown: t('unknown'),
  direct: t('direct'),
  transitive: t('transitive'),
  merged: t('merged'),
  duplicate: t('duplicate'),
});
const VALUE_LABELS = perLanguage(() => sayValueLabels(t));
export const valueLabel = (value: string, def?: { readonly valueLabels?: Readonly<Record<string, string>> }): string =>
  def?.valueLabels?.[value] ?? VALUE_LABELS()[value] ?? value;

/** The same labels in English, whatever the display language: the agent's text stays English by rule. */
const ENGLISH_VALUE_LABELS = { ...sayValueLabels(english), ...sayValidationLabels(english) };
export const englishValueLabel = (value: string): string => ENGLISH_VALUE_LABELS[value] ?? value;

/** How a secret's validation reads: "valid secret" is the one that needs rotating now. */
export function secretValidationLabel(validation: string): string {
  return validationLabels()[validation] ?? VALUE_LABELS()[validation] ?? validation;
}
