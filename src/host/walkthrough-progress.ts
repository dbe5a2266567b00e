/**
 * Ticks the walkthrough's steps. Each step completes on a context key set here once the user has
 * done what the step teaches, by whatever path: the palette, a menu, a quick fix, the tree or
 * automation (VS Code counts `onCommand` only for commands the window runs itself, not those an
 * extension runs).
 *
 * VS Code creates the service behind its Get Started page when the page is first shown. A step
 * whose `onContext` key is already true then is never ticked in that window (the service notes
 * the event as seen without completing the step), while one that turns true later is. So a key
 * is set only once a Get Started page has been open for a moment: what was done before waits
 * for it.
 */
import * as vscode from 'vscode';
import { openInProblems, type FolderFindings } from '../core/services/folder-view';
import { WALKTHROUGH_KEYS } from './walkthrough-keys';

type Step = keyof typeof WALKTHROUGH_KEYS;

/** How long a newly opened Get Started page is given to start listening. */
const PAGE_START_MS = 1000;

/** Which command does a step's thing; an export counts only when it produced a file. */
const STEP_OF_COMMAND: Readonly<Record<string, { readonly step: Step; readonly needsResult?: boolean }>> = {
  'appsecFindings.filterFindings': { step: 'filtered' },
  'appsecFindings.groupBy': { step: 'filtered' },
  'appsecFindings.showDetails': { step: 'acted' },
  'appsecFindings.ignore': { step: 'acted' },
  'appsecFindings.triage': { step: 'acted' },
  'appsecFindings.exportSbom': { step: 'exported', needsResult: true },
  'appsecFindings.exportSarif': { step: 'exported', needsResult: true },
};

export class WalkthroughProgress implements vscode.Disposable {
  private readonly done = new Set<Step>();
  /** Watches tabs until a Get Started page has been open long enough: then its service listens, keys may be set. */
  private tabsWatch: vscode.Disposable | undefined;
  private listening = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    const watchPages = (): void => {
      if (this.timer || !isGetStartedOpen()) return;
      this.timer = setTimeout(() => {
        this.listening = true;
        this.tabsWatch?.dispose();
        for (const step of this.done) void setKey(step);
      }, PAGE_START_MS);
    };
    this.tabsWatch = vscode.window.tabGroups.onDidChangeTabs(watchPages);
    watchPages();
  }

  /** The session is signed in (or not: nothing is taken back, a step once done stays done). */
  signedIn(yes: boolean): void {
    if (yes) this.mark('signedIn');
  }

  /** Problems was drawn; `any`: it holds findings of ours (the step that says they would appear). */
  problemsDrawn(any: boolean): void {
    if (any) this.mark('findingsShown');
  }

  /** A command finished without failing; `result` is what it returned. */
  commandRan(id: string, result: unknown): void {
    const entry = STEP_OF_COMMAND[id];
    if (entry && (!entry.needsResult || result !== undefined)) this.mark(entry.step);
  }

  private mark(step: Step): void {
    if (this.done.has(step)) return;
    this.done.add(step);
    if (this.listening) void setKey(step);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.tabsWatch?.dispose();
  }
}

export interface WalkthroughDeps {
  readonly session: { readonly onDidChange: (listener: (state: { readonly kind: string }) => void) => vscode.Disposable };
  /** Problems, each time it is drawn. */
  readonly diagnostics: { readonly onDidChange: vscode.Event<{ readonly folders: readonly FolderFindings[] }> };
}

/** The walkthrough's registration: signing in and findings drawn tick their steps; the commands tell it theirs (`commandRan`). */
export function registerWalkthrough(
  context: vscode.ExtensionContext,
  { session, diagnostics }: WalkthroughDeps,
): { readonly walkthrough: WalkthroughProgress } {
  const walkthrough = new WalkthroughProgress();
  context.subscriptions.push(
    walkthrough,
    diagnostics.onDidChange(({ folders }) => walkthrough.problemsDrawn(folders.some((folder) => openInProblems(folder).length > 0))),
    session.onDidChange((state) => walkthrough.signedIn(state.kind === 'signedIn')),
  );
  return { walkthrough };
}

function setKey(step: Step): Thenable<unknown> {
  return vscode.commands.executeCommand('setContext', WALKTHROUGH_KEYS[step], true);
}

/**
 * Whether a Get Started page is open. The API gives its tab no input type, only a title; titles
 * are matched in English, so in another display language the steps tick where VS Code ticks them
 * itself (a command the window runs, the Projects view shown).
 */
function isGetStartedOpen(): boolean {
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input === undefined && /^(Welcome|Walkthrough)\b/.test(tab.label)));
}
