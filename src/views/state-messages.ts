/**
 * The message nodes that explain a state instead of leaving a view empty: each says why, and
 * offers the action that gets the user further (Retry, Show Logs, Clear Filters, Sign In, …).
 * Pure (no `vscode`); texts are tested.
 */
import type { IssueType } from '../core/model/types';
import { unavailableAdvice, unavailableText, type Unavailable } from '../core/services/kind-availability';
import { selectedValues, type FilterSelection } from '../core/services/filters';
import { EXTENSION_COMMANDS, OPEN_SETTINGS_COMMAND, TREE_COMMANDS, type RetryTarget } from './tree-commands';
import type { Unscanned } from '../core/services/project-view';
import { nodeIds, type ActionNode, type MessageNode, type MessageTone, type Node, type NodeAction } from './tree-nodes';

export const ISSUE_TYPE_NOUNS: Record<IssueType, string> = { sast: 'code findings', sca: 'supply-chain findings', secrets: 'secrets findings' };

/** Labels are one line; server text may hold line breaks and go on for pages. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** "14:03" today, "2024-05-01 14:03" on another day (local time, as the user reads a clock). */
export function clockTime(date: Date, now = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

export const actions = {
  retry: (target: RetryTarget, title = 'Retry'): NodeAction => ({ title, command: TREE_COMMANDS.retryLoad, args: [target], icon: 'refresh' }),
  cancel: (slot: string): NodeAction => ({ title: 'Cancel', command: TREE_COMMANDS.cancelLoad, args: [slot], icon: 'close' }),
  showLogs: (): NodeAction => ({ title: 'Show Logs', command: EXTENSION_COMMANDS.showLogs, icon: 'output' }),
  clearFilters: (): NodeAction => ({ title: 'Clear Filters', command: EXTENSION_COMMANDS.clearFilters, icon: 'clear-all' }),
  signIn: (title = 'Sign In'): NodeAction => ({ title, command: EXTENSION_COMMANDS.signIn, icon: 'sign-in' }),
  refresh: (): NodeAction => ({ title: 'Refresh', command: EXTENSION_COMMANDS.refresh, icon: 'refresh' }),
  openSettings: (query: string): NodeAction => ({ title: 'Open Settings', command: OPEN_SETTINGS_COMMAND, args: [query], icon: 'settings-gear' }),
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
  const so = arrived ? ` ${arrived.toLocaleString('en-US')} so far` : '';
  return {
    state: 'loading', tone: 'loading', text: `Loading ${ISSUE_TYPE_NOUNS[issueType]}…${so}`,
    tooltip: `Loading ${ISSUE_TYPE_NOUNS[issueType]} from the platform${so ? `:${so}` : ''}. Click to stop waiting.`, action: actions.cancel(slot),
  };
}

/** An empty answer on a branch that may never have been scanned, while the platform is asked. */
export function checkingScan(issueType: IssueType, ref: string | undefined): MessageSpec {
  return {
    state: 'loading', tone: 'loading', text: `Checking whether ${ref ?? 'this branch'} was scanned…`,
    tooltip: `No ${ISSUE_TYPE_NOUNS[issueType]} match on ${ref ?? 'this branch'}; asking the platform whether it scanned the branch at all, so an unscanned branch is not shown as clean.`,
  };
}

export function cancelledFindings(issueType: IssueType, slot: string): MessageSpec {
  return {
    state: 'cancelled', tone: 'info', icon: 'debug-pause', text: `Loading ${ISSUE_TYPE_NOUNS[issueType]} was cancelled`,
    action: actions.retry({ view: 'projects', slot }, 'Load Again'), actions: [actions.retry({ view: 'projects', slot }, 'Load Again')],
  };
}

/** "Could not load findings: …" with Retry and Show Logs under it. */
export function loadFailed(what: string, reason: string, target: RetryTarget): MessageSpec {
  return {
    state: 'error', tone: 'error', text: `Could not load ${what}: ${oneLine(reason)}`, tooltip: reason,
    action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()],
  };
}

/** Shown above findings kept from an earlier load, so a failed refresh never empties the view. */
export function staleFindings(loadedAt: Date, reason: string, target: RetryTarget, now = new Date()): MessageSpec {
  return {
    state: 'stale', tone: 'warning', text: `Showing findings from ${clockTime(loadedAt, now)} — the last refresh failed: ${oneLine(reason)}`,
    tooltip: reason, action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()], collapsed: true,
  };
}

/** The deployment does not have the kind: calm (no error tone), with what to check, and no Retry. */
export function notAvailable(product: string, unavailable: Unavailable): MessageSpec {
  const advice = unavailableAdvice(product, unavailable);
  return {
    state: `unavailable-${product.toLowerCase().replace(/\W+/g, '-')}`, tone: 'info', icon: 'circle-slash',
    text: `${product} — ${unavailableText(unavailable)}`,
    tooltip: `${advice}\n\n${unavailable.detail}`, action: actions.showLogs(),
  };
}

/** The AI code findings' list failed while the code findings answered: what stays, and Retry. */
export function aiFailed(reason: string, since: Date | undefined, target: RetryTarget, now = new Date()): MessageSpec {
  const kept = since ? `Showing AI findings from ${clockTime(since, now)}` : 'No AI findings shown';
  return {
    state: 'ai-failed', tone: 'warning', text: `${kept} — the AI analysis's list failed: ${oneLine(reason)}`,
    tooltip: reason, action: actions.retry(target), actions: [actions.retry(target), actions.showLogs()], collapsed: true,
  };
}


/**
 * "Only new on this branch" left nothing: nothing is new (the primary branch has every finding),
 * the branch is the primary one (`primary` undefined), or the comparison is not known yet. Each
 * offers the way back.
 */
export function nothingNew(issueType: IssueType, selection: FilterSelection, ref: string | undefined, comparedWith: string | undefined, primary: string | undefined): MessageSpec {
  const showAll: NodeAction = { title: 'Show All Findings', command: EXTENSION_COMMANDS.filterFindings, args: [{ ...selection, newOnBranch: false }], icon: 'filter' };
  const offer = { action: showAll, actions: [showAll] };
  const noun = ISSUE_TYPE_NOUNS[issueType];
  if (primary === undefined || ref === undefined) {
    return {
      state: 'nothing-new', tone: 'info', icon: 'git-branch', ...offer,
      text: ref ? `Nothing is new on ${ref}: it is the primary branch` : 'Nothing is new: no branch is shown',
      tooltip: `"New on this branch" compares a branch with the project's primary branch; the primary branch itself has nothing new. Click to show all ${noun}.`,
    };
  }
  if (comparedWith === undefined) {
    return {
      state: 'nothing-new', tone: 'loading', ...offer,
      text: `Comparing ${ref} with ${primary}…`,
      tooltip: `Loading the ${noun} of ${primary} to tell which are new on ${ref}. If this stays, the log (AppSec: Show Logs) says why.`,
    };
  }
  return {
    state: 'nothing-new', tone: 'info', icon: 'pass', ...offer,
    text: `No ${noun} new on ${ref}`,
    tooltip: `Every ${noun.replace(/s$/, '')} of ${ref} that the filters show is also on ${comparedWith}. Click to show all ${noun}.`,
  };
}

/**
 * No findings: the branch was never scanned (say so, and offer the primary branch's), the
 * filters hide them (offer to clear them), or the ref has none.
 */
export function noFindings(issueType: IssueType, selection: FilterSelection, ref: string | undefined, unscanned?: Unscanned): MessageSpec {
  if (unscanned && ref) {
    const show: NodeAction = { title: `Show ${unscanned.primary}`, command: EXTENSION_COMMANDS.chooseRef, args: [unscanned.projectName, unscanned.primary], icon: 'git-branch' };
    return {
      state: 'unscanned', tone: 'warning', icon: 'question', text: `${ref} has no scan: the platform knows no finding of it`,
      tooltip: `No code or supply-chain finding at all on ${ref}, whatever the filters: the platform has not scanned this branch, so it is not known to be clean. Click to show the findings of ${unscanned.primary}.`,
      action: show, actions: [show],
    };
  }
  const applied = selectedValues(selection).filter(([def]) => def.appliesTo.includes(issueType));
  if (applied.length > 0) {
    const status = selection.status ? `${selection.status} ` : '';
    return {
      state: 'empty', tone: 'info', icon: 'filter', text: `No ${status}findings match the filters`,
      tooltip: `${ref ? `On ${ref}, no` : 'No'} ${ISSUE_TYPE_NOUNS[issueType]} match the chosen filters.`,
      action: actions.clearFilters(), actions: [actions.clearFilters()],
    };
  }
  return {
    state: 'empty', tone: 'info', icon: 'pass', text: ref ? `No findings on ${ref}` : 'No findings',
    tooltip: `The platform has no ${ISSUE_TYPE_NOUNS[issueType]} for this project${ref ? ` on ${ref}` : ''}. Findings appear after a scan of that branch.`,
    action: actions.refresh(),
  };
}

/** Findings the decoder had to skip: say so rather than silently show fewer. */
export function skippedFindings(count: number): MessageSpec {
  return {
    state: 'skipped', tone: 'warning', text: `${count} ${count === 1 ? 'finding' : 'findings'} could not be read and are not shown`,
    action: actions.showLogs(),
  };
}

export function noDeployment(reason: string): MessageSpec {
  return {
    state: 'noDeployment', tone: 'warning', text: oneLine(reason), tooltip: reason,
    action: actions.openSettings('appsecFindings.deployment'),
    actions: [actions.openSettings('appsecFindings.deployment'), actions.signIn('Sign In with Another Token')],
  };
}

export function loadingProjects(): MessageSpec {
  return { state: 'loading', tone: 'loading', text: 'Loading projects…' };
}

export function noProjects(deploymentName: string): MessageSpec {
  return {
    state: 'empty', tone: 'info', text: `No projects in ${deploymentName} yet`,
    tooltip: 'A project appears on the platform after its first scan.', action: actions.refresh(),
  };
}

export function staleProjects(reason: string): MessageSpec {
  return {
    state: 'stale', tone: 'warning', text: `Showing the last project list — the refresh failed: ${oneLine(reason)}`,
    tooltip: reason, action: actions.retry({ view: 'projects' }), actions: [actions.retry({ view: 'projects' }), actions.showLogs()],
    collapsed: true,
  };
}

/** The policy list endpoint is not in the spec: when it fails, the others are still shown under this. */
export function policyListFailed(reason: string): MessageSpec {
  return {
    state: 'listFailed', tone: 'warning',
    text: `Could not list the deployment's policies: ${oneLine(reason)}`,
    tooltip: `${reason}\n\nPolicies named by findings and by the appsecFindings.policyIds setting are still shown.`,
    action: actions.retry({ view: 'policies' }), actions: [actions.retry({ view: 'policies' }), actions.showLogs()],
    collapsed: true,
  };
}

export function noPolicies(): MessageSpec {
  return {
    state: 'empty', tone: 'info', text: 'No policies to show',
    tooltip: 'The platform listed none, no loaded finding names one, and the appsecFindings.policyIds setting is empty.',
    action: actions.openSettings('appsecFindings.policyIds'), actions: [actions.openSettings('appsecFindings.policyIds')],
  };
}

export function noRules(): MessageSpec {
  return { state: 'empty', tone: 'info', text: 'This policy has no rules' };
}

export function skippedRules(count: number): MessageSpec {
  return {
    state: 'skipped', tone: 'warning', text: `${count} ${count === 1 ? 'rule' : 'rules'} could not be read and are not shown`,
    action: actions.showLogs(),
  };
}

/** A message's actions as child nodes, so each is visible and keyboard-reachable without a click. */
export function actionChildren(node: MessageNode): ActionNode[] {
  return node.actions.map((action) => ({ kind: 'action', id: nodeIds.action(node.id, `${action.command}:${action.title}`), parent: node, action }));
}
