/**
 * What draws the eye to new work: a badge on the Projects view with the number of open problems
 * of the workspace's repository (what Problems shows), and one notification per refresh when it
 * brought findings that were not there before (setting `appsecFindings.notifyNewFindings`).
 */
import * as vscode from 'vscode';
import { showInformation } from '../host/notify';
import { NewFindingsTracker, newFindingsMessage } from '../core/workspace/new-findings';
import { openInProblems, type FolderFindings } from '../core/services/folder-view';
import type { WorkspaceSnapshot } from '../core/services/workspace-view';
import type { Logger } from '../host/logger';
import type { Finding } from '../core/model/types';
import { runInSlices } from '../core/slices';
import { formatCount, t } from '../core/l10n';
import { severityRank } from '../core/model/severity';
import { valueLabel } from '../core/services/filters';

/** The toast's words for new findings, in the display language (the log keeps `newFindingsMessage`'s English). */
export function newFindingsText(fresh: readonly Finding[], ref: string | undefined): string {
  const bySeverity = new Map<string, number>();
  for (const f of fresh) bySeverity.set(f.severity, (bySeverity.get(f.severity) ?? 0) + 1);
  const parts = [...bySeverity]
    .sort(([a], [b]) => severityRank(a) - severityRank(b))
    .map(([severity, n]) => `${formatCount(n)} ${valueLabel(severity)}`)
    .join(', ');
  const n = formatCount(fresh.length);
  if (ref) return fresh.length === 1 ? t('{0} new finding on {1}: {2}', n, ref, parts) : t('{0} new findings on {1}: {2}', n, ref, parts);
  return fresh.length === 1 ? t('{0} new finding: {1}', n, parts) : t('{0} new findings: {1}', n, parts);
}

export interface AttentionDeps {
  readonly view: vscode.TreeView<unknown>;
  /** What Problems shows, each time it changes, with why it changed. */
  readonly onDidChange: vscode.Event<WorkspaceSnapshot>;
  notifyNewFindings(): boolean;
  /** The filters shown: findings a filter change reveals are not new, so a change starts afresh. */
  filtersKey(): string;
  stopNotifying(): Thenable<void>;
  readonly log: Logger;
}

/** Findings compared within the change itself; more are compared in slices (`NewFindingsTracker.updateSteps`). */
const COMPARE_AT_ONCE = 10_000;

export class FindingsAttention implements vscode.Disposable {
  private readonly tracker = new NewFindingsTracker();
  private readonly subscription: vscode.Disposable;
  /** The last message shown, so a burst of updates (patches, views) never repeats it. */
  private lastMessage: string | undefined;
  /** Counts comparisons, so a sliced one knows a newer one took over. */
  private comparisons = 0;

  constructor(private readonly deps: AttentionDeps) {
    this.subscription = deps.onDidChange(({ folders, cause }) => this.update(folders, cause === 'refresh', cause === 'arriving'));
  }

  /**
   * `fromRefresh`: only a refresh brings news; a reopened or undone finding is not. `partial`: the
   * first pages of a load drawn as they arrive, which are not what was shown before the load (the
   * rest of the load would read as news).
   */
  private update(folders: readonly FolderFindings[], fromRefresh: boolean, partial: boolean): void {
    // What Problems shows ("only new on this branch" included), open ones only.
    const open = folders.reduce((n, f) => n + openInProblems(f).length, 0);
    this.deps.view.badge = open > 0 ? { value: open, tooltip: badgeTooltip(open, folders.length) } : undefined;
    if (partial) return;
    if (folders.length === 0) {
      this.comparisons++;
      this.tracker.clear();
      return;
    }
    const filters = this.deps.filtersKey();
    const shown = folders.map((f) => ({ key: `${f.key}\n${f.ref ?? ''}\n${filters}`, findings: f.findings }));
    const generation = ++this.comparisons;
    if (shown.reduce((n, f) => n + f.findings.length, 0) <= COMPARE_AT_ONCE) return this.announce(this.tracker.update(shown), fromRefresh, folders);
    // Tens of thousands: compared a slice per turn; a newer change gives this comparison up.
    void runInSlices(this.tracker.updateSteps(shown), () => generation === this.comparisons).then((fresh) => {
      if (fresh) this.announce(fresh, fromRefresh, folders);
    });
  }

  private announce(fresh: readonly Finding[], fromRefresh: boolean, folders: readonly FolderFindings[]): void {
    if (fresh.length === 0 || !fromRefresh) return;
    const message = newFindingsMessage(fresh, folders.length === 1 ? folders[0]?.ref : undefined);
    this.deps.log.info(`New findings: ${message}`);
    if (!this.deps.notifyNewFindings() || message === this.lastMessage) return;
    this.lastMessage = message;
    const show = t('Show');
    const never = t("Don't Show Again");
    const ref = folders.length === 1 ? folders[0]?.ref : undefined;
    void showInformation(t('AppSec: {0}.', newFindingsText(fresh, ref)), show, never).then((picked) => {
      if (picked === show) void vscode.commands.executeCommand('workbench.actions.view.problems');
      if (picked === never) void this.deps.stopNotifying();
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** "3 open findings in this workspace's repository". */
function badgeTooltip(open: number, repositories: number): string {
  const n = formatCount(open);
  if (repositories === 1)
    return open === 1 ? t("{0} open finding in this workspace's repository", n) : t("{0} open findings in this workspace's repository", n);
  return open === 1 ? t("{0} open finding in this workspace's repositories", n) : t("{0} open findings in this workspace's repositories", n);
}
