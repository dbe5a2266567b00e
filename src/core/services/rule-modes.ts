/**
 * A policy rule's modes: their labels, the words automation and menus use for the modes a
 * person may set, the checks made before a change is sent, and what each mode does to the
 * organization's pull requests (the confirmation says it, since a change reaches every one of
 * them). Pure.
 */
import { said, t, type Said } from '../l10n';
import { SETTABLE_RULE_MODES, type SettableRuleMode } from '../api/platform-changes';

/** The label for a rule mode; values the spec does not list are shown as they came. */
export function modeLabel(mode: string): string {
  switch (mode) {
    case 'MODE_MONITOR':
      return t('monitor');
    case 'MODE_COMMENT':
      return t('comment');
    case 'MODE_BLOCK':
      return t('block');
    case 'MODE_DISABLED':
      return t('disabled');
    default:
      return mode || t('unknown mode');
  }
}

/** The modes as automation and the Set Mode menu name them. */
export const RULE_MODE_NAMES = ['monitor', 'comment', 'block', 'disabled'] as const;
export type RuleModeName = (typeof RULE_MODE_NAMES)[number];

const MODE_OF_NAME: Record<RuleModeName, SettableRuleMode> = {
  monitor: 'MODE_MONITOR',
  comment: 'MODE_COMMENT',
  block: 'MODE_BLOCK',
  disabled: 'MODE_DISABLED',
};

export const settableMode = (name: RuleModeName): SettableRuleMode => MODE_OF_NAME[name];

/** Refused before any request: what to change, in English (`message`: the log, the agent) and in the user's language (`text`: the toast). */
export class RuleModeInputError extends Error {
  readonly text: string;
  constructor(message: Said) {
    super(message.english);
    this.text = message.text;
    this.name = 'RuleModeInputError';
  }
}

/** What is wrong with a policy's id before it is sent (in the user's language and in English), or undefined. */
function policyIdSaid(policyId: string): Said | undefined {
  return policyId.trim() === '' || /[\s/]/.test(policyId) ? said('"{0}" is not a policy\'s id (such as 12345).', policyId) : undefined;
}

/** What is wrong with a rule's path before it is sent, or undefined. */
function rulePathSaid(rulePath: string): Said | undefined {
  return rulePath.trim() === '' || /\s/.test(rulePath) ? said('"{0}" is not a rule\'s path (such as python.lang.security.audit.eval).', rulePath) : undefined;
}

/** The problem with a policy's id, as the user reads it. */
export const policyIdProblem = (policyId: string): string | undefined => policyIdSaid(policyId)?.text;
/** The problem with a rule's path, as the user reads it. */
export const rulePathProblem = (rulePath: string): string | undefined => rulePathSaid(rulePath)?.text;

/**
 * What is wrong with a change (or, without a mode, with naming its rule) before it is sent, or
 * undefined: said both ways, for the error a service throws (the log's English, the toast's words).
 */
export function ruleModeInputProblem(policyId: string, rulePath: string, mode?: string): Said | undefined {
  if (mode !== undefined && !(SETTABLE_RULE_MODES as readonly string[]).includes(mode))
    return said('"{0}" is not a mode a rule can be set to ({1}).', mode, SETTABLE_RULE_MODES.join(', '));
  return policyIdSaid(policyId) ?? rulePathSaid(rulePath);
}

/** What a mode does to every pull request scanned with the policy; a mode the spec does not list is only named. */
export function modeConsequence(mode: string): string {
  switch (mode) {
    case 'MODE_MONITOR':
      return t('findings of this rule are recorded on the platform only, not shown in pull requests');
    case 'MODE_COMMENT':
      return t('findings of this rule are posted as comments on pull requests');
    case 'MODE_BLOCK':
      return t("findings of this rule fail the pull request's check and block the merge");
    case 'MODE_DISABLED':
      return t('the rule no longer runs, so it finds nothing');
    default:
      return t('findings of this rule are handled as {0} says', modeLabel(mode));
  }
}

export interface RuleModeConfirmation {
  readonly message: string;
  readonly detail: string;
  /** The button that makes the change. */
  readonly confirm: string;
}

/** The question asked before a person changes a rule's mode: the rule, the policy, both modes and what they do. */
export function ruleModeConfirmation(rulePath: string, policyName: string, from: string, to: SettableRuleMode): RuleModeConfirmation {
  const label = modeLabel(to);
  return {
    message: t('Set {0} to {1} mode in {2}?', rulePath, label, policyName),
    detail: [
      t('This changes every pull request of the organization that {0} scans.', policyName),
      t('Now, in {0} mode: {1}.', modeLabel(from), modeConsequence(from)),
      t('In {0} mode: {1}.', label, modeConsequence(to)),
    ].join('\n\n'),
    confirm: t('Set to {0}', `${label.charAt(0).toUpperCase()}${label.slice(1)}`),
  };
}
