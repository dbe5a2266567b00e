/**
 * The commands' registration: every command of the typed map (the views' own among them), through
 * the one wrapper of `register.ts`; each one that finishes is told to the walkthrough.
 */
import * as vscode from 'vscode';
import type { CommandId } from '../core/model/command-ids';
import { treeCommandHandlers, type TreeViews } from '../views/tree-views';
import type { CommandDeps } from './command-deps';
import { buildCommands } from './command-map';
import { registerCommands } from './register';
import { FINDING_LINKS } from './link-commands';

export interface CommandMapDeps extends CommandDeps {
  readonly trees: Pick<TreeViews, 'projects' | 'policies'>;
  readonly walkthrough: { commandRan(id: CommandId, result: unknown): void };
}

export function registerCommandMap(context: vscode.ExtensionContext, deps: CommandMapDeps): { readonly findingLinks: vscode.UriHandler } {
  context.subscriptions.push(
    ...registerCommands(deps, buildCommands(deps, treeCommandHandlers(deps.trees)), (id, result) => deps.walkthrough.commandRan(id, result)),
    vscode.window.registerUriHandler(FINDING_LINKS),
  );
  // The handler as VS Code calls it, for the suite: the web workbench routes vscode:// links to its own page.
  return { findingLinks: FINDING_LINKS };
}
