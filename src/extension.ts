/**
 * Composition root: activation is the list of feature registrations below, in order. Each
 * feature's `register…(context, deps)` sits in its own folder, pushes what it registers to
 * `context.subscriptions` and returns what the features after it use (`host/registrations.ts`
 * runs and times them). No network here: the first request happens when a view is opened, a
 * command runs, or the start (the last registration) restores the session after activation.
 */
import * as vscode from 'vscode';
import type { App } from './app';
import { registerAgent } from './agent/register-agent';
import { registerCodePlaces } from './code-places/register-code-places';
import { registerCommandMap } from './commands/register-command-map';
import { registerCache } from './diagnostics/register-cache';
import { registerProblems } from './diagnostics/register-problems';
import { registerEditor } from './editor/register-editor';
import { activationText, registerFeatures } from './host/registrations';
import { registerRefresh } from './host/register-refresh';
import { registerServices } from './host/services';
import { registerWalkthrough } from './host/walkthrough-progress';
import { registerInventory } from './inventory/inventory';
import { registerStart } from './start';
import { registerStatusBar, type FindingsStatusBar } from './status-bar';
import { registerStories } from './stories';
import { registerViews } from './views/register-views';
import type { TreeViews } from './views/tree-views';
import { registerDetailsPanel } from './webviews/register-details-panel';
import type { FindingDetailsPanel } from './webviews/finding-details-panel';

/**
 * What the in-host tests and benchmark reach, in a test host only (VS Code runs the extension in
 * `ExtensionMode.Test` when a launcher gives it a suite): the pieces activation built, nothing
 * made for tests. Other extensions get only the version: the internals can make authenticated calls.
 */
export interface ExtensionApi {
  readonly version: string;
  /** Every feature's part, as the commands and the start read it. */
  readonly app: App;
  readonly trees: TreeViews;
  readonly statusBar: FindingsStatusBar;
  readonly detailsPanel: FindingDetailsPanel;
  /** Where the extension keeps its state and its disk cache. */
  readonly context: Pick<vscode.ExtensionContext, 'globalState' | 'workspaceState' | 'globalStorageUri'>;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi | { readonly version: string } {
  const features = registerFeatures(context)
    .add('services', registerServices)
    .add('code places', registerCodePlaces)
    .add('stories', registerStories)
    .add('problems', registerProblems)
    .add('editor', registerEditor)
    .add('details panel', registerDetailsPanel)
    .add('inventory', registerInventory)
    .add('status bar', registerStatusBar)
    .add('walkthrough', registerWalkthrough)
    .add('views', registerViews)
    .add('disk cache', registerCache)
    .add('agent', registerAgent)
    .add('refresh', registerRefresh)
    .add('commands', registerCommandMap)
    .add('start', registerStart)
    .done((cost, { log }) => log.for('Activation').debug(`Activated in ${activationText(cost)}.`));
  const { version, trees, statusBar, detailsPanel } = features;
  if (context.extensionMode !== vscode.ExtensionMode.Test) return { version };
  const app: App = features;
  return { version, app, trees, statusBar, detailsPanel, context };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
