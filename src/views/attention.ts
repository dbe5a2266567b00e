/**
 * What draws the eye to new work: a badge on the Projects view with the number of open problems
 * of the workspace's repository (what Problems shows), and one notification per refresh when it
 * brought findings that were not there before (setting `appsecFindings.notifyNewFindings`).
 */
import * as vscode from 'vscode';
import { NewFindingsTracker, newFindingsMessage } from '../core/workspace/new-findings';
import { openInProblems, type FolderFindings } from '../diagnostics/diagnostics-controller';
import type { Logger } from '../host/logger';

export interface AttentionDeps {
  readonly view: vscode.TreeView<unknown>;
  readonly onDidChange: vscode.Event<readonly FolderFindings[]>;
  notifyNewFindings(): boolean;
  /** The filters shown: findings a filter change reveals are not new, so a change starts afresh. */
  filtersKey(): string;
  /** Whether the change came from a refresh: a reopened or undone finding is not news. */
  fromRefresh(): boolean;
  stopNotifying(): Thenable<void>;
  readonly log: Logger;
}

export class FindingsAttention implements vscode.Disposable {
  private readonly tracker = new NewFindingsTracker();
  private readonly subscription: vscode.Disposable;
  /** The last message shown, so a burst of updates (patches, views) never repeats it. */
  private lastMessage: string | undefined;

  constructor(private readonly deps: AttentionDeps) {
    this.subscription = deps.onDidChange((folders) => this.update(folders));
  }

  private update(folders: readonly FolderFindings[]): void {
    // What Problems shows ("only new on this branch" included), open ones only.
    const open = folders.reduce((n, f) => n + openInProblems(f).length, 0);
    this.deps.view.badge = open > 0
      ? { value: open, tooltip: `${open} open finding${open === 1 ? '' : 's'} in this workspace's ${folders.length === 1 ? 'repository' : 'repositories'}` }
      : undefined;
    if (folders.length === 0) {
      this.tracker.clear();
      return;
    }
    const filters = this.deps.filtersKey();
    const fresh = this.tracker.update(folders.map((f) => ({ key: `${f.repo.folder.uri.toString()}\n${f.ref ?? ''}\n${filters}`, findings: f.findings })));
    if (fresh.length === 0 || !this.deps.fromRefresh()) return;
    const message = newFindingsMessage(fresh, folders.length === 1 ? folders[0]?.ref : undefined);
    this.deps.log.info(`New findings: ${message}`);
    if (!this.deps.notifyNewFindings() || message === this.lastMessage) return;
    this.lastMessage = message;
    void vscode.window.showInformationMessage(`AppSec: ${message}.`, 'Show', "Don't Show Again").then((picked) => {
      if (picked === 'Show') void vscode.commands.executeCommand('workbench.actions.view.problems');
      if (picked === "Don't Show Again") void this.deps.stopNotifying();
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
