/**
 * The one Finding Details panel (reused): shows a finding at once from the store, then the
 * platform's whole detail and its story (trace, elsewhere, activity: `details-story.ts`);
 * follows the store (a triage shows here as everywhere) and each story read; turns the
 * page's messages into the same commands the tree and quick fixes run. The HTML is built by
 * `findingDetailsHtml` (pure, tested), the finding's code read and fixed by `details-code.ts`;
 * this class only wires.
 */
import type { CommandId } from '../core/model/command-ids';
import * as vscode from 'vscode';
import { findingLabel } from '../core/model/finding-names';
import { t } from '../core/l10n';
import type { Finding } from '../core/model/types';
import type { FindingDetail } from '../core/model/finding-detail';
import type { BranchNovelty } from '../core/services/branch-baselines';
import { withCurrentState, type FindingDetails } from '../core/services/finding-details';
import type { FindingsStore } from '../core/services/findings-store';
import type { FindingStories } from '../core/services/finding-stories';
import { isHttpUrl } from '../core/model/links';
import type { FindingPlaces } from '../code-places/finding-places';
import type { Node } from '../views/tree-nodes';
import type { DetailsInput } from './details-input';
import { findingDetailsBody, parseDetailsMessage, type DetailsMessage } from './finding-details-html';
import { DetailsPage } from './details-page';
import { PanelStory } from './details-story';
import { applySuggestedFix, codeColumn, DETAILS_VIEW_TYPE, readLines } from './details-code';

export interface DetailsPanelDeps {
  readonly extensionUri: vscode.Uri;
  readonly store: FindingsStore;
  readonly details: FindingDetails;
  readonly stories: FindingStories;
  readonly places: FindingPlaces;
  readonly novelty: BranchNovelty;
  readonly deploymentSlug: () => string | undefined;
  readonly findingUrl: (finding: Finding) => string | undefined;
  readonly errorMessage: (error: unknown) => string;
}

const COMMAND_OF: Partial<Record<DetailsMessage['type'], CommandId>> = {
  addNote: 'appsecFindings.addNote',
  createTicket: 'appsecFindings.createTicket',
  linkTicket: 'appsecFindings.linkTicket',
  unlinkTicket: 'appsecFindings.unlinkTicket',
  unlinkTicketEverywhere: 'appsecFindings.unlinkTicketEverywhere',
  openInPlatform: 'appsecFindings.openInPlatform',
  openLocation: 'appsecFindings.openFinding',
  copyRuleId: 'appsecFindings.copyRuleId',
  showTrace: 'appsecFindings.showTrace',
  requestAutofix: 'appsecFindings.requestAutofix',
  fixWithAgent: 'appsecFindings.fixWithAgent',
};
const TRIAGE_COMMAND = {
  ignored: 'appsecFindings.ignore',
  reviewing: 'appsecFindings.markReviewing',
  fixing: 'appsecFindings.markFixing',
  reopened: 'appsecFindings.reopen',
} as const satisfies Record<string, CommandId>;

export class FindingDetailsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private finding: Finding | undefined;
  private detail: FindingDetail | undefined;
  private loading = false;
  private error: string | undefined;
  private currentCode: string | undefined;
  private notice: DetailsInput['notice'];
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The panel's page, redrawn in place (`details-page.ts`). */
  private page: DetailsPage | undefined;
  private readonly story: PanelStory;

  constructor(private readonly deps: DetailsPanelDeps) {
    this.story = new PanelStory(deps.stories, deps.places, deps.errorMessage);
    this.subscriptions.push({
      dispose: () => {
        this.panel?.dispose();
      },
    });
    this.subscriptions.push(deps.store.onDidChange(() => this.followStore(), 'the details panel'));
    this.subscriptions.push(
      deps.stories.onDidRead((f) => (f.issueType === this.finding?.issueType && f.id === this.finding.id ? this.render() : undefined), 'the details panel'),
    );
    // The finding's code is edited (a fix applied, then undone): whether Apply is offered follows.
    const drift = deps.places.drift;
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((e) => (e.contentChanges.length > 0 ? void this.followCode(e.document.uri) : undefined)),
      drift.onDidEditDocument((uri) => void this.followCode(uri)),
      drift.onDidChangePlaces(() => void this.followCode()),
    );
  }

  /**
   * Shows a finding (opening or reusing the panel) and loads its detail. Resolves when the detail
   * is shown. `preserveFocus`: the panel follows another view's selection without taking focus.
   */
  async show(finding: Finding, { preserveFocus = false }: { preserveFocus?: boolean } = {}): Promise<void> {
    const panel = this.ensurePanel();
    panel.title = t('Finding: {0}', findingLabel(finding));
    panel.reveal(panel.viewColumn ?? vscode.ViewColumn.Beside, preserveFocus);
    this.finding = finding;
    this.detail = this.deps.details.peek(finding);
    this.error = undefined;
    this.notice = undefined;
    this.loading = this.detail === undefined;
    const code = await this.codeToday(finding);
    // Another finding was shown meanwhile (the tree's selection moves on): it draws its own.
    if (this.finding !== finding) return;
    this.currentCode = code;
    this.render();
    // The story comes on its own: a deployment without it, or a slow answer, holds nothing up.
    void this.story.load(finding).then(() => (this.finding === finding ? this.render() : undefined));
    if (this.detail === undefined) await this.loadDetail(finding);
  }

  /** An open panel shows the one finding selected in `view`, leaving the focus where it is. */
  followSelection(view: vscode.TreeView<Node>): vscode.Disposable {
    return view.onDidChangeSelection(({ selection }) => {
      const node = selection.length === 1 ? selection[0] : undefined;
      if (node?.kind !== 'finding' || !this.panel) return;
      if (this.finding?.issueType === node.finding.issueType && this.finding.id === node.finding.id) return;
      void this.show(node.finding, { preserveFocus: true });
    });
  }

  /** For tests: the HTML the panel shows now (its document, with the latest body in it). */
  get shownHtml(): string {
    return this.page?.html ?? '';
  }

  get shownFinding(): Finding | undefined {
    return this.finding;
  }

  private ensurePanel(): vscode.WebviewPanel {
    if (this.panel) return this.panel;
    const media = vscode.Uri.joinPath(this.deps.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(
      DETAILS_VIEW_TYPE,
      t('Finding'),
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [media],
        enableFindWidget: true,
      },
    );
    // A tab icon is an image, not a mask: `currentColor` would draw it black on a dark tab.
    panel.iconPath = { light: vscode.Uri.joinPath(media, 'shield-light.svg'), dark: vscode.Uri.joinPath(media, 'shield-dark.svg') };
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.finding = undefined;
      this.page = undefined;
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => void this.onMessage(raw));
    this.panel = panel;
    this.page = new DetailsPage(panel, media);
    return panel;
  }

  private async loadDetail(finding: Finding): Promise<void> {
    try {
      const detail = await this.deps.details.get(finding);
      if (this.finding?.id !== finding.id) return;
      this.detail = detail;
      this.error = detail
        ? undefined
        : t('The platform no longer lists this finding (it may have been fixed or its branch rescanned). Refresh to see the current findings.');
    } catch (error) {
      if (this.finding?.id !== finding.id) return;
      this.error = t("The platform's details could not be loaded: {0}", this.deps.errorMessage(error));
    }
    this.loading = false;
    this.render();
  }

  /** The store changed: show the finding as it is now (a triage, a ticket), if it changed. */
  private followStore(): void {
    const shown = this.finding;
    const slug = this.deps.deploymentSlug();
    if (!shown || !slug || !this.panel) return;
    const now = this.deps.store.finding(slug, shown.issueType, shown.id);
    if (now && now !== shown) {
      this.finding = now;
      this.render();
      // A triage adds to its history: the story is read again (its read redraws the page).
      if (this.deps.stories.isStale(now)) void this.story.load(now);
    }
  }

  /** The shown finding's code changed (in `uri`, or anywhere): read it again and redraw. */
  private async followCode(uri?: vscode.Uri): Promise<void> {
    const shown = this.finding;
    if (!shown || !this.panel) return;
    const place = this.deps.places.place(shown);
    if (uri && (!place || place.kind === 'deleted' || place.uri.toString() !== uri.toString())) return;
    const code = await this.codeToday(shown);
    if (this.finding !== shown) return;
    // What was said of the code before (a fix applied) no longer holds once it changed again.
    if (code !== this.currentCode) this.notice = undefined;
    this.currentCode = code;
    this.render();
  }

  private render(): void {
    const finding = this.finding;
    if (!this.panel || !finding) return;
    const body = findingDetailsBody({
      finding,
      detail: this.detail && withCurrentState(this.detail, finding),
      loading: this.loading,
      error: this.error,
      place: this.deps.places.place(finding),
      platformUrl: this.deps.findingUrl(finding),
      newAgainst: this.deps.novelty.isNew(finding) && finding.repositoryName ? this.deps.novelty.comparedWith(finding.repositoryName) : undefined,
      currentCode: this.currentCode,
      notice: this.notice,
      story: this.story.view(finding),
    });
    this.page?.show(body);
  }

  private async onMessage(raw: unknown): Promise<void> {
    const message = parseDetailsMessage(raw);
    const finding = this.finding;
    if (!message || !finding) return;
    const arg = { finding };
    switch (message.type) {
      case 'ready':
        this.page?.loaded();
        return;
      case 'triage':
        await vscode.commands.executeCommand(TRIAGE_COMMAND[message.state], arg);
        return;
      case 'openLink':
        if (isHttpUrl(message.url)) await vscode.env.openExternal(vscode.Uri.parse(message.url, true));
        return;
      case 'applyFix':
        await applySuggestedFix(this.detail?.assistant?.autofixCode, this.deps.places.place(finding), (kind, text) => this.say(kind, text));
        return;
      case 'refresh':
        this.deps.details.forget(finding);
        this.deps.stories.forget(finding);
        await this.show(finding);
        return;
      case 'openTraceStep':
        await this.story.openStep(finding, message.index, codeColumn());
        return;
      default: {
        const command = COMMAND_OF[message.type];
        if (command) await vscode.commands.executeCommand(command, arg);
      }
    }
  }

  private say(kind: 'info' | 'error', text: string): void {
    this.notice = { kind, text };
    this.render();
  }

  /** The code at the finding's lines today, for the fix comparison. */
  private async codeToday(finding: Finding): Promise<string | undefined> {
    const place = this.deps.places.place(finding);
    if (!place || place.kind === 'deleted') return undefined;
    return readLines(place);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
