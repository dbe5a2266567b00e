/**
 * A start draws Problems before the platform answers, from what the disk cache keeps: first the
 * open files' part (a few hundred findings), then every diagnostic the last session showed, as it
 * showed them (before the findings behind them are read), then the findings themselves. What is
 * drawn early is replaced by the first drawing of the workspace view, which leaves each file it
 * would draw the same as it is. It draws through the renderer's public API only. Also what the
 * cache writer keeps of what Problems shows.
 */
import * as vscode from 'vscode';
import type { FindingsStore } from '../core/services/findings-store';
import { queryKey, type FindingsResult } from '../core/services/findings-query';
import { shownResult } from '../core/services/slot-bindings';
import type { FilterSelection } from '../core/services/filters';
import type { WorkspaceView } from '../core/services/workspace-view';
import type { SeverityMapping } from '../core/workspace/diagnostic-plan';
import { ISSUE_TYPES } from '../core/model/types';
import type { WorkspaceRepo } from '../host/workspace-repos';
import { openDocumentKeys } from './drawing-plan';
import type { FindingDiagnostic } from './finding-diagnostic';
import type { ProblemsRenderer } from './problems-renderer';

/**
 * Diagnostics handed over per turn when drawing what the last session showed: each turn given
 * away lets VS Code write out the messages before it, so fewer, larger turns finish sooner, and
 * larger ones stall longer (docs/performance.md, "Cached start"). At most: the publisher gives the
 * turn away sooner when VS Code is slow to take a set.
 */
const SHOWN_CHUNK = 2000;

export interface CachedStartDeps {
  readonly view: WorkspaceView<WorkspaceRepo>;
  readonly renderer: ProblemsRenderer;
  readonly store: Pick<FindingsStore, 'state'>;
  readonly deploymentSlug: () => string | undefined;
  readonly repos: () => readonly WorkspaceRepo[];
  readonly selection: () => FilterSelection;
  readonly mapping: () => SeverityMapping;
  readonly unreachableAsInformation: () => boolean;
}

export class CachedStart {
  constructor(private readonly deps: CachedStartDeps) {}

  /**
   * Draws, before the whole cache is read, the part of it kept for the files that were open in
   * editors (VS Code opens them again): only those files, nothing announced, nothing adopted;
   * `showCached` draws everything over it. False when nothing was drawn.
   */
  previewCached(results: readonly FindingsResult[]): boolean {
    const byQuery = new Map(results.map((r) => [queryKey(r.query), r]));
    const folders = this.deps.view.heldFolders((query) => byQuery.get(queryKey(query)));
    if (!folders || folders.length === 0) return false;
    const steps = this.deps.renderer.plan(folders);
    let step = steps.next();
    while (!step.done) step = steps.next();
    const entries = [...step.value.byUri.values()];
    this.deps.renderer.drawEarly(entries);
    return entries.length > 0;
  }

  /**
   * Draws what the last session showed (read back from disk), before the findings behind it are
   * read: every file but those `previewCached` drew. Resolves, true when anything was drawn,
   * once all is handed to VS Code.
   */
  async drawShown(files: readonly (readonly [vscode.Uri, FindingDiagnostic[]])[]): Promise<boolean> {
    if (!this.deps.view.mayShowHeld()) return false;
    const drawn = this.deps.renderer.earlyFiles;
    const entries = files.filter(([uri, diagnostics]) => diagnostics.length > 0 && !drawn.has(uri.toString()));
    if (entries.length === 0) return false;
    await this.deps.renderer.drawRemembered(entries, SHOWN_CHUNK);
    return true;
  }

  /** Shows the findings adopted from the disk cache; false when there are none for the workspace. */
  showCached(): Promise<boolean> {
    return this.deps.view.showHeld();
  }

  /** Takes back what `previewCached` and `drawShown` drew, unless a drawing has replaced it since. */
  dropPreview(): void {
    if (this.deps.view.snapshot.folders.length === 0 && !this.deps.view.refreshing) this.deps.renderer.takeBackEarly();
  }

  /**
   * What Problems shows, per file (its URI as a string), for keeping on disk; none while a
   * refresh is under way or part of it does not know its findings yet.
   */
  shownFiles(): [string, vscode.Diagnostic[]][] | undefined {
    if (this.deps.view.refreshing || this.deps.renderer.current.length === 0) return undefined;
    return this.deps.renderer.findingDiagnostics();
  }

  /**
   * Everything that decides how the same findings are drawn: the deployment, the folders with
   * their projects and branches, the filters and the settings. What Problems showed is drawn
   * again at a start only for the same.
   */
  viewKey(): string | undefined {
    const slug = this.deps.deploymentSlug();
    if (!slug) return undefined;
    const folders = this.deps.repos().map((repo) => [repo.folder.uri.toString(), repo.projectName, repo.branch ?? null]);
    return JSON.stringify([slug, folders, this.deps.selection(), this.deps.mapping(), this.deps.unreachableAsInformation()]);
  }

  /**
   * The answers drawn in the files open in editors, cut down to those files' findings: kept on
   * disk beside the whole cache, so the next start draws them before reading the rest.
   */
  openAnswers(limit: number): FindingsResult[] {
    const open = [...openDocumentKeys()].flatMap((key) => this.deps.renderer.sourcesOf(key));
    const answers: FindingsResult[] = [];
    let room = limit;
    for (const folder of this.deps.renderer.current) {
      const drawnHere = open.filter((source) => source.repo === folder.repo).flatMap((source) => source.findings);
      if (drawnHere.length === 0 || drawnHere.length > room) continue;
      room -= drawnHere.length;
      for (const [i, slot] of folder.slots.entries()) {
        const result = shownResult(this.deps.store.state(slot));
        if (result) answers.push({ ...result, findings: drawnHere.filter((f) => f.issueType === ISSUE_TYPES[i]) });
      }
    }
    return answers;
  }
}
