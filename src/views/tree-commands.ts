/**
 * Command ids the tree nodes run. The first two are the views' own and are registered by the
 * commands' registration with the handlers from `treeCommandHandlers` (tree-views.ts); they are not
 * contributed in package.json, so they never show in the Command Palette.
 */
import type { CommandId } from '../core/model/command-ids';

export const TREE_COMMANDS = {
  /** Arg: the slot (string) whose load to stop waiting for. */
  cancelLoad: 'appsecFindings.cancelTreeLoad',
  /** Arg: a {@link RetryTarget}. */
  retryLoad: 'appsecFindings.retryTreeLoad',
} as const;

/** Commands of the extension that nodes offer; contributed in package.json. */
export const EXTENSION_COMMANDS = {
  openFinding: 'appsecFindings.openFinding',
  showLogs: 'appsecFindings.showLogs',
  clearFilters: 'appsecFindings.clearFilters',
  filterFindings: 'appsecFindings.filterFindings',
  signIn: 'appsecFindings.signIn',
  refresh: 'appsecFindings.refresh',
  chooseRef: 'appsecFindings.chooseRef',
} as const satisfies Record<string, CommandId>;

/** VS Code's own command, with a settings search string as its argument. */
export const OPEN_SETTINGS_COMMAND = 'workbench.action.openSettings';

/** What a Retry node loads again: the projects list, one findings slot, the policy list, or one policy's rules. */
export type RetryTarget = { readonly view: 'projects'; readonly slot?: string } | { readonly view: 'policies'; readonly policyId?: string };

export function isRetryTarget(value: unknown): value is RetryTarget {
  if (typeof value !== 'object' || value === null) return false;
  const target = value as Record<string, unknown>;
  if (target.view === 'projects') return target.slot === undefined || typeof target.slot === 'string';
  if (target.view === 'policies') return target.policyId === undefined || typeof target.policyId === 'string';
  return false;
}
