/**
 * The message nodes that explain a state instead of leaving a view empty: each says why, and
 * offers the action that gets the user further (Retry, Show Logs, Clear Filters, Sign In, …).
 * Pure (no `vscode`); texts are tested.
 */
import type { IssueType } from '../core/model/types';
import { unavailableAdvice, unavailableText, type Unavailable } from '../core/services/kind-availability';
import { describeSelection, sameSelection, selectedValues, valueLabel, type FilterSelection } from '../core/services/filters';
import { EXTENSION_COMMANDS, OPEN_SETTINGS_COMMAND, TREE_COMMANDS, type RetryTarget } from './tree-commands';
import type { Unscanned } from '../core/services/project-view';
import { nodeIds, type ActionNode, type MessageNode, type MessageTone, type Node, type NodeAction } from './tree-nodes';
import { formatClock, formatCount, formatNumber, t } from '../core/l10n';
import { kindOf } from '../core/model/finding-kinds';

/** Labels are one line; server text may hold line breaks and go on for pages. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "14:03" today, "2024-05-01 14:03" on another day (local time, as the user reads a clock). */
export function clockTime(date: Date, now = new Date()): string {
  return formatClock(date, now);
}

export const actions = {
  retry: (target: RetryTarget, title = t('Retry')): NodeAction => ({ title, command: TREE_COMMANDS.retryLoad, args: [target], icon: 'refresh' }),
  cancel: (slot: string): NodeAction => ({ title: t('Cancel'), command: TREE_COMMANDS.cancelLoad, args: [slot], icon: 'close' }),
  showLogs: (): NodeAction => ({ title: t('Show Logs'), command: EXTENSION_COMMANDS.showLogs, icon: 'output' }),
  clearFilters: (): NodeAction => ({ title: t('Clear Filters'), command: EXTENSION_COMMANDS.clearFilters, icon: 'clear-all' }),
  signIn: (title = t('Sign In')): NodeAction => ({ title, command: EXTENSION_COMMANDS.signIn, icon: 'sign-in' }),
  refresh: (): NodeAction => ({ title: t('Refresh'), command: EXTENSION_COMMANDS.refresh, icon: 'refresh' }),
  openSettings: (query: string): NodeAction => ({ title: t('Open Settings'), command: OPEN_SETTINGS_COMMAND, args: [query], icon: 'settings-gear' }),
};

interface MessageSpec {
  readonly state: string;
  readonly text: string;
  readonly tone: MessageTone;
  readonly icon?: string;
  readonly tooltip?: string;
  readonly action?: NodeAction;
  readonly actions?: readonly NodeAction[];
  readonly collapsed?: boolean;
}

/** `parent` undefined places the message at the root of a view. */
export function message(parent: Node | undefined, rootId: string, spec: MessageSpec): MessageNode {
  const { state, actions: offered, ...rest } = spec;
  return { kind: 'message', id: nodeIds.message(parent?.id ?? rootId, state), parent, actions: offered ?? [], ...rest };
}

/** While a load is in flight, with the count that has arrived so far once pages come in. */
export function loadingFindings(issueType: IssueType, slot: string, arrived?: number): MessageSpec {
  const noun = kindOf(issueType).noun;
  const count = arrived ? formatNumber(arrived) : undefined;
  return {
    state: 'loading', tone: 'loading', text: count ? t('Loading {0}… {1} so far', noun, count) : t('Loading {0}…', noun),
    tooltip: count ? t('Loading {0} from the platform: {1} so far. Click to stop waiting.', noun, count) : t('Loading {0} from the platform. Click to stop waiting.', noun),
    action: actions.cancel(slot),
  };
}

/** An empty answer on a branch that may never have been scanned, while the platform is asked. */
export function checkingScan(issueType: IssueType, ref: string | undefined): MessageSpec {
  const branch = ref ?? t('this branch');
  return {
    state: 'loading', tone: 'loading', text: t('Checking whether {0} was scanned…', branch),
    tooltip: t('No {0} match on {1}; asking the platform whether it scanned the branch at all, so an unscanned branch is not shown as clean.', kindOf(issueType).noun, branch),
  };
}

export function cancelledFindings(issueType: IssueType, slot: string): MessageSpec {
  return {
    state: 'cancelled', tone: 'info', icon: 'debug-pause', text: t('Loading {0} was cancelled', kindOf(issueType).noun),
    action: actions.retry({ view: 'projects', slot }, t('Load Again')), actions: [actions.retry({ view: 'projects', slot }, t('Load Again'))],
  };
}

/** "Could not load findings: …" with Retry and Show Logs under it (`what` in the display language). */
export function loadFailed(what: string, reason: string, target: RetryTarget): MessageSpec {
  return {
    state: 'error', tone: 'error', text: t('Could not load {0}: {1}', what, oneLine(reason)), tooltip: reason,
    action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()],
  };
}

/** Shown above findings kept from an earlier load, so a failed refresh never empties the view. */
export function staleFindings(loadedAt: Date, reason: string, target: RetryTarget, now = new Date()): MessageSpec {
  return {
    state: 'stale', tone: 'warning', text: t('Showing findings from {0} — the last refresh failed: {1}', clockTime(loadedAt, now), oneLine(reason)),
    tooltip: reason, action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()], collapsed: true,
  };
}

/**
 * The deployment does not have the kind: calm (no error tone), with what to check, and no Retry.
 * The platform's own answer (a JSON error body) is for the log, which Show Logs opens, not for
 * the tooltip.
 */
export function notAvailable(product: string, unavailable: Unavailable): MessageSpec {
  return {
    state: `unavailable-${product.toLowerCase().replace(/\W+/g, '-')}`, tone: 'info', icon: 'circle-slash',
    text: `${product} — ${unavailableText(unavailable)}`,
    tooltip: unavailableAdvice(product, unavailable), action: actions.showLogs(),
  };
}

/**
 * Under a kind's node that already says it is not available: what to check, instead of the
 * node's own sentence again.
 */
export function notAvailableBelow(product: string, unavailable: Unavailable): MessageSpec {
  return { ...notAvailable(product, unavailable), text: t('What to check: whether the organization licenses {0}, and the token\'s role. The next refresh asks again.', product) };
}

/** The AI code findings' list failed while the code findings answered: what stays, and Retry. */
export function aiFailed(reason: string, since: Date | undefined, target: RetryTarget, now = new Date()): MessageSpec {
  const text = since
    ? t('Showing AI findings from {0} — the AI analysis\'s list failed: {1}', clockTime(since, now), oneLine(reason))
    : t('No AI findings shown — the AI analysis\'s list failed: {0}', oneLine(reason));
  return {
    state: 'ai-failed', tone: 'warning', text,
    tooltip: reason, action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()], collapsed: true,
  };
}


/**
 * "Only new on this branch" left nothing: nothing is new (the primary branch has every finding),
 * the branch is the primary one (`primary` undefined), or the comparison is not known yet. Each
 * offers the way back.
 */
export function nothingNew(issueType: IssueType, selection: FilterSelection, ref: string | undefined, comparedWith: string | undefined, primary: string | undefined): MessageSpec {
  const showAll: NodeAction = { title: t('Show All Findings'), command: EXTENSION_COMMANDS.filterFindings, args: [{ ...selection, newOnBranch: false }], icon: 'filter' };
  const offer = { action: showAll, actions: [showAll] };
  const noun = kindOf(issueType).noun;
  if (primary === undefined || ref === undefined) {
    return {
      state: 'nothing-new', tone: 'info', icon: 'git-branch', ...offer,
      text: ref ? t('Nothing is new on {0}: it is the primary branch', ref) : t('Nothing is new: no branch is shown'),
      tooltip: t('"New on this branch" compares a branch with the project\'s primary branch; the primary branch itself has nothing new. Click to show all {0}.', noun),
    };
  }
  if (comparedWith === undefined) {
    return {
      state: 'nothing-new', tone: 'loading', ...offer,
      text: t('Comparing {0} with {1}…', ref, primary),
      tooltip: t('Loading the {0} of {1} to tell which are new on {2}. If this stays, the log (AppSec: Show Logs) says why.', noun, primary, ref),
    };
  }
  return {
    state: 'nothing-new', tone: 'info', icon: 'pass', ...offer,
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
export function noFindings(issueType: IssueType, selection: FilterSelection, ref: string | undefined, unscanned?: Unscanned, defaults?: FilterSelection): MessageSpec {
  if (unscanned && ref) {
    const show: NodeAction = { title: t('Show {0}', unscanned.primary), command: EXTENSION_COMMANDS.chooseRef, args: [unscanned.projectName, unscanned.primary], icon: 'git-branch' };
    return {
      state: 'unscanned', tone: 'warning', icon: 'question', text: t('{0} has no scan: the platform knows no finding of it', ref),
      tooltip: t('No code or supply-chain finding at all on {0}, whatever the filters: the platform has not scanned this branch, so it is not known to be clean. Click to show the findings of {1}.', ref, unscanned.primary),
      action: show, actions: [show],
    };
  }
  const applied = selectedValues(selection).filter(([def]) => def.appliesTo.includes(issueType));
  const onlyDefaults = defaults !== undefined && sameSelection(selection, defaults);
  if (onlyDefaults && applied.length > 0) {
    const kept = describeSelection(selection);
    return {
      state: 'empty', tone: 'info', icon: 'pass',
      text: ref ? t('No {0} findings on {1}', kept, ref) : t('No {0} findings', kept),
      tooltip: ref
        ? t('The platform has no {0} {1} for this project on {2}: the default filters keep these. Filter Findings shows the others.', kept, kindOf(issueType).noun, ref)
        : t('The platform has no {0} {1} for this project: the default filters keep these. Filter Findings shows the others.', kept, kindOf(issueType).noun),
      action: actions.refresh(),
    };
  }
  if (applied.length > 0) {
    const noun = kindOf(issueType).noun;
    return {
      state: 'empty', tone: 'info', icon: 'filter',
      text: selection.status ? t('No {0} findings match the filters', valueLabel(selection.status)) : t('No findings match the filters'),
      tooltip: ref ? t('On {0}, no {1} match the chosen filters.', ref, noun) : t('No {0} match the chosen filters.', noun),
      action: actions.clearFilters(), actions: [actions.clearFilters()],
    };
  }
  return {
    state: 'empty', tone: 'info', icon: 'pass', text: ref ? t('No findings on {0}', ref) : t('No findings'),
    tooltip: ref
      ? t('The platform has no {0} for this project on {1}. Findings appear after a scan of that branch.', kindOf(issueType).noun, ref)
      : t('The platform has no {0} for this project. Findings appear after a scan of that branch.', kindOf(issueType).noun),
    action: actions.refresh(),
  };
}

/** Findings the decoder had to skip: say so rather than silently show fewer. */
export function skippedFindings(count: number): MessageSpec {
  return {
    state: 'skipped', tone: 'warning',
    text: count === 1 ? t('{0} finding could not be read and are not shown', formatCount(count)) : t('{0} findings could not be read and are not shown', formatCount(count)),
    action: actions.showLogs(),
  };
}

export function noDeployment(reason: string): MessageSpec {
  return {
    state: 'noDeployment', tone: 'warning', text: oneLine(reason), tooltip: reason,
    action: actions.openSettings('appsecFindings.deployment'),
    actions: [actions.openSettings('appsecFindings.deployment'), actions.signIn(t('Sign In with Another Token'))],
  };
}

export function loadingProjects(): MessageSpec {
  return { state: 'loading', tone: 'loading', text: t('Loading projects…') };
}

export function noProjects(deploymentName: string): MessageSpec {
  return {
    state: 'empty', tone: 'info', text: t('No projects in {0} yet', deploymentName),
    tooltip: t('A project appears on the platform after its first scan.'), action: actions.refresh(),
  };
}

export function staleProjects(reason: string): MessageSpec {
  return {
    state: 'stale', tone: 'warning', text: t('Showing the last project list — the refresh failed: {0}', oneLine(reason)),
    tooltip: reason, action: actions.retry({ view: 'projects' }), actions: [actions.retry({ view: 'projects' }), actions.showLogs()],
    collapsed: true,
  };
}

/** The policy list endpoint is not in the spec: when it fails, the others are still shown under this. */
export function policyListFailed(reason: string): MessageSpec {
  return {
    state: 'listFailed', tone: 'warning',
    text: t('Could not list the deployment\'s policies: {0}', oneLine(reason)),
    tooltip: `${reason}\n\n${t('Policies named by findings and by the appsecFindings.policyIds setting are still shown.')}`,
    action: actions.retry({ view: 'policies' }), actions: [actions.retry({ view: 'policies' }), actions.showLogs()],
    collapsed: true,
  };
}

export function noPolicies(): MessageSpec {
  return {
    state: 'empty', tone: 'info', text: t('No policies to show'),
    tooltip: t('The platform listed none, no loaded finding names one, and the appsecFindings.policyIds setting is empty.'),
    action: actions.openSettings('appsecFindings.policyIds'), actions: [actions.openSettings('appsecFindings.policyIds')],
  };
}

export function noRules(): MessageSpec {
  return { state: 'empty', tone: 'info', text: t('This policy has no rules') };
}

export function skippedRules(count: number): MessageSpec {
  return {
    state: 'skipped', tone: 'warning',
    text: count === 1 ? t('{0} rule could not be read and are not shown', formatCount(count)) : t('{0} rules could not be read and are not shown', formatCount(count)),
    action: actions.showLogs(),
  };
}

/** A message's actions as child nodes, so each is visible and keyboard-reachable without a click. */
export function actionChildren(node: MessageNode): ActionNode[] {
  return node.actions.map((action) => ({ kind: 'action', id: nodeIds.action(node.id, `${action.command}:${action.title}`), parent: node, action }));
}
