/**
 * A policy rule's mode (Monitor, Comment, Block, Disabled), set from the rule's context menu or
 * by automation. The change reaches every pull request of the organization, so a person confirms
 * it; automation that names the rule, the policy and the mode does not. The change itself is the
 * policies service's: shown at once, rolled back when the platform refuses.
 */
import * as vscode from 'vscode';
import { showError, showInformation, showWarning } from '../host/notify';
import { t } from '../core/l10n';
import { SETTABLE_RULE_MODES, type SettableRuleMode } from '../core/api/platform-changes';
import type { PolicyMode } from '../core/model/policy';
import {
  modeConsequence,
  modeLabel,
  policyIdProblem,
  RULE_MODE_NAMES,
  ruleModeConfirmation,
  rulePathProblem,
  settableMode,
  type RuleModeName,
} from '../core/services/rule-modes';
import { errorMessage, errorText, isCancellation } from '../host/user-errors';
import { noSuchOption, object, oneOf, refine, schema, text, valid, type Schema } from '../host/schema';
import { ruleModeTitle } from '../views/rule-presentation';
import type { CommandDeps } from './command-deps';
import { itemOf, type CommandItem } from './command-item';

export type PolicyCommandsDeps = Pick<CommandDeps, 'policies'>;

/** The automation contract's argument. */
export interface RuleModeRequest {
  readonly policyId: string;
  readonly rulePath: string;
  readonly mode: RuleModeName;
}

/** What the command resolves with: the rule's mode once the platform answered (or as it was, rolled back). */
export interface RuleModeOutcome {
  readonly policyId: string;
  readonly rulePath: string;
  readonly mode: PolicyMode;
  /** The mode before; the same as `mode` when nothing changed. */
  readonly previousMode: PolicyMode;
  /** Why the platform refused the change (the rule kept its mode), when it did. */
  readonly refused?: string;
}

/** Text that `problem` accepts; the field is named in front of what is wrong. */
const checkedText = (field: string, problem: (value: string) => string | undefined): Schema<string> =>
  refine(text(`${field} must be text.`), (value) => {
    const wrong = problem(value);
    return wrong === undefined ? undefined : `${field}: ${wrong}`;
  });

const REQUEST: Schema<RuleModeRequest> = object(
  {
    policyId: checkedText('policyId', policyIdProblem),
    rulePath: checkedText('rulePath', rulePathProblem),
    mode: oneOf(RULE_MODE_NAMES, `mode must be one of ${RULE_MODE_NAMES.join(', ')}.`),
  },
  "setRuleMode takes { policyId: string, rulePath: string, mode: 'monitor' | 'comment' | 'block' | 'disabled' }.",
  noSuchOption('setRuleMode'),
);

/** A tree node has a `kind` (a mode group has a `mode` too); a request names its rule. */
const isRequest = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !('kind' in value) && ('policyId' in value || 'rulePath' in value || 'mode' in value);

const isRuleModeRequest = (target: RuleModeRequest | CommandItem | undefined): target is RuleModeRequest => target !== undefined && 'policyId' in target;

/** A request (checked strictly: a wrong field is named, nothing is sent), or a tree item (read, never refused). */
export const RULE_MODE_ARGUMENT: Schema<RuleModeRequest | CommandItem | undefined> = schema<RuleModeRequest | CommandItem | undefined>((value) =>
  isRequest(value) ? REQUEST.check(value) : valid(value === undefined ? undefined : itemOf(value)),
);

/**
 * Sets a rule's mode. `target` is a request (no prompt, no confirmation) or the rule's tree item;
 * from the Set Mode menu `mode` is the item chosen, from the palette it is asked for.
 */
export async function setRuleMode(
  app: PolicyCommandsDeps,
  target: RuleModeRequest | CommandItem | undefined,
  mode?: RuleModeName,
): Promise<RuleModeOutcome | undefined> {
  const automated = isRuleModeRequest(target);
  const policyId = automated ? target.policyId : target?.rule?.policyId;
  const rulePath = automated ? target.rulePath : target?.rule?.path;
  if (policyId === undefined || rulePath === undefined) {
    void showInformation(t('AppSec: select a rule in the Policy Rules view to set its mode.'));
    return undefined;
  }
  const { rules, rule } = await app.policies.findRule(policyId, rulePath);
  const chosen = automated ? target.mode : (mode ?? (await pickMode(rule.path, rule.mode)));
  if (!chosen) return undefined;
  const wanted = settableMode(chosen);
  const outcome = (now: PolicyMode, refused?: string): RuleModeOutcome => ({
    policyId,
    rulePath,
    mode: now,
    previousMode: rule.mode,
    ...(refused === undefined ? {} : { refused }),
  });
  if (rule.mode === wanted) {
    void showInformation(t('AppSec: {0} is already in {1} mode in {2}; nothing was changed.', rule.path, modeLabel(wanted), rules.policy.name));
    return outcome(rule.mode);
  }
  if (!automated && !(await confirmed(rule.path, rules.policy.name, rule.mode, wanted))) return undefined;
  try {
    const change = await app.policies.setRuleMode(policyId, rulePath, wanted);
    if (!automated && change.sent)
      void showInformation(t('AppSec: {0} is now in {1} mode in {2}.', rule.path, modeLabel(change.rule.mode), change.policy.name));
    return outcome(change.rule.mode);
  } catch (error) {
    if (isCancellation(error)) throw error;
    // Put back by the service already: say why, plainly (a 403 names the token's role and the rule).
    const reason = errorMessage(error);
    void showError(t('AppSec: the rule stays in {0} mode. {1}', modeLabel(rule.mode), errorText(error)));
    return outcome(rule.mode, reason);
  }
}

/** The four modes, the current one marked, each with what it does to pull requests. */
async function pickMode(rulePath: string, current: PolicyMode): Promise<RuleModeName | undefined> {
  const picked = await vscode.window.showQuickPick(
    SETTABLE_RULE_MODES.map((value, i) => ({
      label: ruleModeTitle(value),
      description: value === current ? t('current mode') : undefined,
      detail: modeConsequence(value).replace(/^./, (c) => c.toUpperCase()),
      name: RULE_MODE_NAMES[i],
    })),
    { title: t('AppSec: Set the mode of {0}', rulePath), placeHolder: t('For every pull request of the organization scanned with this policy') },
  );
  return picked?.name;
}

async function confirmed(rulePath: string, policyName: string, from: PolicyMode, to: SettableRuleMode): Promise<boolean> {
  const question = ruleModeConfirmation(rulePath, policyName, from, to);
  const answer = await showWarning(question.message, { modal: true, detail: question.detail }, question.confirm);
  return answer === question.confirm;
}
