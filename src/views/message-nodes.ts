/**
 * How a state's message becomes a tree node, shared by every family of messages: the spec a
 * message is written as, the actions messages offer (Retry, Show Logs, Clear Filters, Sign In,
 * …) and the node made of it, with its actions as children so each is keyboard-reachable. Pure
 * (no `vscode`).
 */
import { EXTENSION_COMMANDS, OPEN_SETTINGS_COMMAND, TREE_COMMANDS, type RetryTarget } from './tree-commands';
import { nodeIds, type ActionNode, type MessageNode, type MessageTone, type Node, type NodeAction } from './tree-nodes';
import { formatClock, t } from '../core/l10n';

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

export interface MessageSpec {
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

/** A message's actions as child nodes, so each is visible and keyboard-reachable without a click. */
export function actionChildren(node: MessageNode): ActionNode[] {
  return node.actions.map((action) => ({ kind: 'action', id: nodeIds.action(node.id, `${action.command}:${action.title}`), parent: node, action }));
}
