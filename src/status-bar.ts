/**
 * One status-bar item: the findings of the active editor's repository (or the first matched
 * folder) on the branch shown, by severity. Clicking it opens the view.
 */
import { sameBranch } from './core/model/refs';
import * as vscode from 'vscode';
import { inertIcons, inertLinks } from './core/model/untrusted-text';
import type { Finding } from './core/model/types';
import { countBySeverity } from './core/services/grouping';
import { openInProblems, type FolderFindings } from './core/services/folder-view';
import { KIND_PRODUCTS, unavailableText } from './core/services/kind-availability';
import type { KindGap } from './core/services/kind-gaps';
import type { ViewState } from './host/view-state';
import { clockTime } from './views/state-messages';
import { formatMoment, formatCount, t } from './core/l10n';
import { valueLabel } from './core/services/filters';

/** "1 finding", "12 findings". */
const findingsCount = (n: number): string => (n === 1 ? t('{0} finding', formatCount(n)) : t('{0} findings', formatCount(n)));

/** Counts by severity per list of open findings (the list is kept per folder, see openInProblems). */
const countsByList = new WeakMap<readonly Finding[], ReturnType<typeof countBySeverity>>();
function countsOf(problems: readonly Finding[]): ReturnType<typeof countBySeverity> {
  let counts = countsByList.get(problems);
  if (!counts) countsByList.set(problems, (counts = countBySeverity(problems)));
  return counts;
}

/**
 * `treeRef`: the ref the Projects view was asked to show for the folder's project, when one was
 * chosen there (Problems and this count still follow the branch checked out, and say which).
 */
export function statusText(folder: FolderFindings | undefined, treeRef?: string): { text: string; tooltip: string } | undefined {
  if (!folder) return undefined;
  // What Problems shows: fixed and ignored findings are not counted, whatever the filter.
  const problems = openInProblems(folder);
  const counts = countsOf(problems);
  const parts = [...counts].filter(([, n]) => n > 0).map(([severity, n]) => `${formatCount(n)} ${valueLabel(severity)}`);
  const total = problems.length;
  const ref = folder.ref ?? t('all refs');
  const fallback =
    (folder.usedFallback ? ` ${t('(the current branch {0} has no scan; showing {1})', folder.repo.branch ?? '', ref)}` : '') +
    (treeRef && !sameBranch(treeRef, ref)
      ? ` ${t('The Projects view shows {0}, as chosen there; Problems and this count follow the branch checked out.', treeRef)}`
      : '');
  const { novelty } = folder;
  const newCount = novelty ? problems.filter((f) => novelty.isNew(f)).length : 0;
  if (folder.newOnBranch) {
    const newOn = novelty
      ? t('AppSec: {0} of {1} new on {2}, not on {3}', findingsCount(total), folder.repo.projectName, ref, novelty.primary)
      : t('AppSec: {0} of {1} new on {2}', findingsCount(total), folder.repo.projectName, ref);
    return {
      text: `$(shield) ${total === 0 ? t('Nothing new') : t('{0} new', parts.join(' · '))}`,
      tooltip: `${newOn}${fallback} ${t('(the filter "only new on this branch" is on). Click to open the Projects view.')}`,
    };
  }
  const gapsTip = gapsText(folder.gaps ?? []);
  const cached = folder.cachedAt ? ` ${t('As of {0} (from the last session; refreshing).', formatMoment(folder.cachedAt))}` : '';
  const newText = newCount > 0 ? ` · $(git-branch) ${t('{0} new', formatCount(newCount))}` : '';
  const newTip =
    novelty && newCount > 0
      ? ` ${newCount === 1 ? t('{0} of them is new on this branch ({1} does not have it).', formatCount(newCount), novelty.primary) : t('{0} of them are new on this branch ({1} does not have them).', formatCount(newCount), novelty.primary)}`
      : '';
  const failed = (folder.gaps ?? []).some((g) => 'failedBecause' in g);
  // A filter that keeps nothing says so in its own words: the branch itself may have findings.
  const head = folder.filters
    ? t('AppSec: {0} matching the filters ({1}) of {2} on {3}', findingsCount(total), folder.filters, folder.repo.projectName, ref)
    : t('AppSec: {0} of {1} on {2}', findingsCount(total), folder.repo.projectName, ref);
  const none = folder.filters ? t('No findings ({0})', folder.filters) : t('No findings');
  return {
    // Another branch's findings are marked as such where they are counted, not only in the tooltip.
    // The ref may be the platform's primary branch: drawn as its text, never as an icon.
    text: `$(${failed ? 'warning' : folder.cachedAt ? 'history' : 'shield'}) ${total === 0 ? none : parts.join(' · ')}${newText}${folder.usedFallback ? ` · ${t('on {0}', inertIcons(ref))}` : ''}`,
    tooltip: `${head}${fallback}.${newTip}${cached}${gapsTip} ${t('Click to open the Projects view.')}`,
  };
}

/** " Secrets: not available for this deployment (404). Supply Chain: the last refresh failed (showing findings from 14:02)." */
function gapsText(gaps: readonly KindGap[]): string {
  const said = new Set<string>();
  const parts: string[] = [];
  for (const gap of gaps) {
    const text =
      'unavailable' in gap
        ? `${KIND_PRODUCTS[gap.kind]}: ${unavailableText(gap.unavailable)}.`
        : gap.since
          ? t('{0}: the last refresh failed (showing findings from {1}).', KIND_PRODUCTS[gap.kind], clockTime(gap.since))
          : t('{0}: the last refresh failed.', KIND_PRODUCTS[gap.kind]);
    if (!said.has(text)) parts.push(text);
    said.add(text);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

export class FindingsStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('appsecFindings.status', vscode.StatusBarAlignment.Left, 50);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private folders: readonly FolderFindings[] = [];

  /** `chosenRef`: the ref chosen in the Projects view for a project; `refChosen` fires when one is. */
  constructor(
    private readonly chosenRef: (projectName: string) => string | undefined,
    refChosen: vscode.Event<unknown>,
  ) {
    this.item.name = 'AppSec Findings';
    this.item.command = 'appsecFindings.projects.focus';
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
      refChosen(() => this.render()),
    );
  }

  update(folders: readonly FolderFindings[]): void {
    this.folders = folders;
    this.render();
  }

  private render(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = (active && this.folders.find((f) => active.toString().startsWith(f.key + '/'))) ?? this.folders[0];
    const shown = statusText(folder, folder && this.chosenRef(folder.repo.projectName));
    if (!shown) {
      this.item.hide();
      return;
    }
    this.item.text = shown.text;
    // The platform's names are in it: no link may form (see core/model/untrusted-text.ts).
    this.item.tooltip = inertLinks(shown.tooltip);
    this.item.accessibilityInformation = { label: shown.tooltip };
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  /** What a pointer or a screen reader gets: the total, the project and the branch. */
  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

export interface StatusBarDeps {
  readonly viewState: Pick<ViewState, 'refOverride' | 'onDidChange'>;
  /** Problems, each time it is drawn. */
  readonly diagnostics: { readonly onDidChange: vscode.Event<{ readonly folders: readonly FolderFindings[] }> };
}

/** The status bar's registration: it follows what Problems draws. */
export function registerStatusBar(context: vscode.ExtensionContext, { viewState, diagnostics }: StatusBarDeps): { readonly statusBar: FindingsStatusBar } {
  const statusBar = new FindingsStatusBar((name) => viewState.refOverride(name), viewState.onDidChange);
  context.subscriptions.push(
    statusBar,
    diagnostics.onDidChange(({ folders }) => statusBar.update(folders)),
  );
  return { statusBar };
}
