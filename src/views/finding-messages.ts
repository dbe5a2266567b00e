/**
 * The messages of a kind's findings list: a load in flight, cancelled or failed with findings
 * kept, the AI analysis's list failed, findings the decoder skipped, and why the list is empty
 * (never scanned, nothing new on the branch, the filters hide them, or none at all). Each says
 * why and offers the way on. Pure (no `vscode`); texts are tested.
 */
import type { IssueType } from '../core/model/types';
import { describeSelection, sameSelection, selectedValues, valueLabel, type FilterSelection } from '../core/services/filters';
import { EXTENSION_COMMANDS, type RetryTarget } from './tree-commands';
import type { Unscanned } from '../core/services/project-view';
import type { NodeAction } from './tree-nodes';
import { formatCount, formatNumber, t } from '../core/l10n';
import { kindOf } from '../core/model/finding-kinds';
import { actions, clockTime, oneLine, type MessageSpec } from './message-nodes';

/** While a load is in flight, with the count that has arrived so far once pages come in. */
export function loadingFindings(issueType: IssueType, slot: string, arrived?: number): MessageSpec {
  const noun = kindOf(issueType).noun;
  const count = arrived ? formatNumber(arrived) : undefined;
  return {
    state: 'loading',
    tone: 'loading',
    text: count ? t('Loading {0}… {1} so far', noun, count) : t('Loading {0}…', noun),
    tooltip: count
      ? t('Loading {0} from the platform: {1} so far. Click to stop waiting.', noun, count)
      : t('Loading {0} from the platform. Click to stop waiting.', noun),
    action: actions.cancel(slot),
  };
}

/** An empty answer on a branch that may never have been scanned, while the platform is asked. */
export function checkingScan(issueType: IssueType, ref: string | undefined): MessageSpec {
  const branch = ref ?? t('this branch');
  return {
    state: 'loading',
    tone: 'loading',
    text: t('Checking whether {0} was scanned…', branch),
    tooltip: t(
      'No {0} match on {1}; asking the platform whether it scanned the branch at all, so an unscanned branch is not shown as clean.',
      kindOf(issueType).noun,
      branch,
    ),
  };
}

export function cancelledFindings(issueType: IssueType, slot: string): MessageSpec {
  return {
    state: 'cancelled',
    tone: 'info',
    icon: 'debug-pause',
    text: t('Loading {0} was cancelled', kindOf(issueType).noun),
    action: actions.retry({ view: 'projects', slot }, t('Load Again')),
    actions: [actions.retry({ view: 'projects', slot }, t('Load Again'))],
  };
}

/** Shown above findings kept from an earlier load, so a failed refresh never empties the view. */
export function staleFindings(loadedAt: Date, reason: string, target: RetryTarget, now = new Date()): MessageSpec {
  return {
    state: 'stale',
    tone: 'warning',
    text: t('Showing findings from {0} — the last refresh failed: {1}', clockTime(loadedAt, now), oneLine(reason)),
    tooltip: reason,
    action: actions.retry(target),
    actions: [actions.retry(target), actions.showLogs()],
    collapsed: true,
  };
}

/** The AI code findings' list failed while the code findings answered: what stays, and Retry. */
export function aiFailed(reason: string, since: Date | undefined, target: RetryTarget, now = new Date()): MessageSpec {
  const text = since
    ? t("Showing AI findings from {0} — the AI analysis's list failed: {1}", clockTime(since, now), oneLine(reason))
    : t("No AI findings shown — the AI analysis's list failed: {0}", oneLine(reason));
  return {
    state: 'ai-failed',
    tone: 'warning',
    text,
    tooltip: reason,
    action: actions.retry(target),
    actions: [actions.retry(target), actions.showLogs()],
    collapsed: true,
  };
}

/**
 * "Only new on this branch" left nothing: nothing is new (the primary branch has every finding),
 * the branch is the primary one (`primary` undefined), or the comparison is not known yet. Each
 * offers the way back.
 */
export function nothingNew(
  issueType: IssueType,
  selection: FilterSelection,
  ref: string | undefined,
  comparedWith: string | undefined,
  primary: string | undefined,
): MessageSpec {
  const showAll: NodeAction = {
    title: t('Show All Findings'),
    command: EXTENSION_COMMANDS.filterFindings,
    args: [{ ...selection, newOnBranch: false }],
    icon: 'filter',
  };
  const offer = { action: showAll, actions: [showAll] };
  const noun = kindOf(issueType).noun;
  if (primary === undefined || ref === undefined) {
    return {
      state: 'nothing-new',
      tone: 'info',
      icon: 'git-branch',
      ...offer,
      text: ref ? t('Nothing is new on {0}: it is the primary branch', ref) : t('Nothing is new: no branch is shown'),
      tooltip: t(
        '"New on this branch" compares a branch with the project\'s primary branch; the primary branch itself has nothing new. Click to show all {0}.',
        noun,
      ),
    };
  }
  if (comparedWith === undefined) {
    return {
      state: 'nothing-new',
      tone: 'loading',
      ...offer,
      text: t('Comparing {0} with {1}…', ref, primary),
      tooltip: t('Loading the {0} of {1} to tell which are new on {2}. If this stays, the log (AppSec: Show Logs) says why.', noun, primary, ref),
    };
  }
  return {
    state: 'nothing-new',
    tone: 'info',
    icon: 'pass',
    ...offer,
    text: t('No {0} new on {1}', noun, ref),
    tooltip: t('Every {0} of {1} that the filters show is also on {2}. Click to show all {3}.', kindOf(issueType).nounOne, ref, comparedWith, noun),
  };
}

/**
 * No findings: the branch was never scanned (say so, and offer the primary branch's), the
 * filters the user chose hide them (offer to clear them), or the ref has none: with only the
 * default filters on, nothing to clear, so the ref has none of what they keep ("No open findings
 * on main").
 */
export function noFindings(
  issueType: IssueType,
  selection: FilterSelection,
  ref: string | undefined,
  unscanned?: Unscanned,
  defaults?: FilterSelection,
): MessageSpec {
  if (unscanned && ref) {
    const show: NodeAction = {
      title: t('Show {0}', unscanned.primary),
      command: EXTENSION_COMMANDS.chooseRef,
      args: [unscanned.projectName, unscanned.primary],
      icon: 'git-branch',
    };
    return {
      state: 'unscanned',
      tone: 'warning',
      icon: 'question',
      text: t('{0} has no scan: the platform knows no finding of it', ref),
      tooltip: t(
        'No code or supply-chain finding at all on {0}, whatever the filters: the platform has not scanned this branch, so it is not known to be clean. Click to show the findings of {1}.',
        ref,
        unscanned.primary,
      ),
      action: show,
      actions: [show],
    };
  }
  const applied = selectedValues(selection).filter(([def]) => def.appliesTo.includes(issueType));
  const onlyDefaults = defaults !== undefined && sameSelection(selection, defaults);
  if (onlyDefaults && applied.length > 0) {
    const kept = describeSelection(selection);
    return {
      state: 'empty',
      tone: 'info',
      icon: 'pass',
      text: ref ? t('No {0} findings on {1}', kept, ref) : t('No {0} findings', kept),
      tooltip: ref
        ? t(
            'The platform has no {0} {1} for this project on {2}: the default filters keep these. Filter Findings shows the others.',
            kept,
            kindOf(issueType).noun,
            ref,
          )
        : t('The platform has no {0} {1} for this project: the default filters keep these. Filter Findings shows the others.', kept, kindOf(issueType).noun),
      action: actions.refresh(),
    };
  }
  if (applied.length > 0) {
    const noun = kindOf(issueType).noun;
    return {
      state: 'empty',
      tone: 'info',
      icon: 'filter',
      text: selection.status ? t('No {0} findings match the filters', valueLabel(selection.status)) : t('No findings match the filters'),
      tooltip: ref ? t('On {0}, no {1} match the chosen filters.', ref, noun) : t('No {0} match the chosen filters.', noun),
      action: actions.clearFilters(),
      actions: [actions.clearFilters()],
    };
  }
  return {
    state: 'empty',
    tone: 'info',
    icon: 'pass',
    text: ref ? t('No findings on {0}', ref) : t('No findings'),
    tooltip: ref
      ? t('The platform has no {0} for this project on {1}. Findings appear after a scan of that branch.', kindOf(issueType).noun, ref)
      : t('The platform has no {0} for this project. Findings appear after a scan of that branch.', kindOf(issueType).noun),
    action: actions.refresh(),
  };
}

/** Findings the decoder had to skip: say so rather than silently show fewer. */
export function skippedFindings(count: number): MessageSpec {
  return {
    state: 'skipped',
    tone: 'warning',
    text:
      count === 1
        ? t('{0} finding could not be read and are not shown', formatCount(count))
        : t('{0} findings could not be read and are not shown', formatCount(count)),
    action: actions.showLogs(),
  };
}
