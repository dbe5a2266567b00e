/**
 * Owns the one DiagnosticCollection. For each workspace folder matched to a project, shows the
 * findings of the current branch (or of the primary branch when the current one has none), with
 * the same filters as the tree. Each update names every file: those that dropped to zero findings
 * are included with no diagnostics, so nothing stale stays in Problems (handed over in chunks
 * when there are many: `diagnostics-publisher.ts`).
 *
 * Problems follows the store: a refresh decides which answers each folder shows (and loads them);
 * any later change to those answers (a patch, another view's reload of the same query) is shown
 * from the store without a request.
 */
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import { refToShow } from '../core/model/refs';
import { ISSUE_TYPES, type Finding, type IssueType, type Project } from '../core/model/types';
import type { BranchBaselines } from '../core/services/branch-baselines';
import { queryKey, type FindingsQuery, type FindingsResult, type FindingsStore, type SlotState } from '../core/services/findings-store';
import { localFilterOf, toQueryFilters, type FilterSelection } from '../core/services/filters';
import { planDiagnostics, type PlannedDiagnostic, type SeverityMapping } from '../core/workspace/diagnostic-plan';
import { nextTurn } from '../core/slices';
import type { Logger } from '../host/logger';
import { isCancellation } from '../host/user-errors';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';
import { DiagnosticsPublisher } from './diagnostics-publisher';
import { DIAGNOSTIC_SOURCE, FindingDiagnostic, isFindingDiagnostic, toDiagnostic } from './finding-diagnostic';
import type { FindingPlaces } from './finding-places';
import type { FolderFindings, FolderNovelty } from './folder-findings';
import { openDocumentKeys, placeToday, planDrawing, PLAN_SLICE, type FileSource, type Placed, type Planned, type Preview } from './drawing-plan';
import { giveFindings, sameDiagnostics } from './shown-diagnostics';
import { gapsOfResult, gapsOfSlot, type KindGap } from '../core/services/kind-gaps';

export interface DiagnosticsDeps {
  readonly repos: WorkspaceRepos;
  readonly findings: FindingsStore;
  readonly deploymentSlug: () => string | undefined;
  readonly project: (name: string) => Project | undefined;
  readonly selection: () => FilterSelection;
  readonly mapping: () => SeverityMapping;
  /** Unreachable supply-chain findings are information, whatever their severity (a setting). */
  readonly unreachableAsInformation: () => boolean;
  readonly findingUrl: (finding: Finding) => string | undefined;
  /** Where findings are in today's code (drift through commits and edits). */
  readonly places: FindingPlaces;
  /** The primary branch's findings, to tell which of a branch's findings are new on it. */
  readonly baselines: BranchBaselines;
  readonly log: Logger;
}

/**
 * Diagnostics handed over per turn when drawing what the last session showed, at a start: each
 * turn given away lets VS Code write out the messages before it, so fewer, larger turns finish
 * sooner. In bench:host quick runs (50 000 diagnostics): 1 000 per turn showed them all in
 * 420–570 ms with the longest stall 23–32 ms; 2 000 in 398–486 ms, 34–52 ms; 4 000 in 338–542 ms,
 * but with stalls up to 82 ms. At most: the publisher gives the turn away sooner when VS Code is
 * slow to take a set (its time budget).
 */
const SHOWN_CHUNK = 2000;

export class DiagnosticsController implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly publisher = new DiagnosticsPublisher(this.collection);
  private shownUris = new Set<string>();
  private folders: readonly FolderFindings[] = [];
  /** The answers (per folder, per slot) last drawn, so a change that is not an answer draws nothing. */
  private drawn: (readonly (readonly Finding[] | undefined)[])[] = [];
  private running: Promise<readonly KindGap[]> | undefined;
  private queued: Promise<readonly KindGap[]> | undefined;
  private readonly changed = new Emitter<readonly FolderFindings[]>();
  readonly onDidChange = this.changed.event;
  /**
   * Why Problems changed last: `refresh` (answers loaded) or `change` (a patch or another view's
   * load of the same answers). Only a refresh can bring findings that are news.
   */
  lastCause: 'refresh' | 'change' = 'refresh';

  private readonly following: vscode.Disposable[];
  /** By today's file: the diagnostics drawn there, kept to redraw one document as it is edited. */
  private sources = new Map<string, FileSource[]>();
  private redrawAfterRun = false;
  /** Counts drawings, so one still planning knows a later one took over. */
  private showGeneration = 0;
  /** The latest drawing: what a superseded one resolves with. */
  private showing: Promise<void> = Promise.resolve();
  /** The drawing under way is to be announced (to the badge, the status bar, the cache). */
  private announcePending = false;
  /** The files drawn by `previewCached`, until the whole cache is drawn. */
  private previewed: vscode.Uri[] = [];
  /**
   * The files drawn by `drawShown` (what the last session showed), whose diagnostics do not know
   * their findings yet: the next hand-over keeps those it would draw the same.
   */
  private unattached = new Set<string>();

  constructor(private readonly deps: DiagnosticsDeps) {
    this.following = [
      deps.findings.onDidChange((slots) => this.onStoreChanged(slots), 'Problems'),
      deps.places.drift.onDidChangePlaces(() => this.redraw()),
      deps.places.onDidResolveCommit(() => this.redraw()),
      deps.places.drift.onDidEditDocument((uri) => this.redrawDocument(uri)),
      deps.baselines.onDidChange(() => this.redraw()),
    ];
  }

  /**
   * Draws what is shown again (placements changed), without loading. The findings are the same,
   * so nothing is announced: the badge and the new-findings notice only follow answers.
   */
  private redraw(): void {
    if (this.running) {
      // The run in progress may already have drawn with the old places: draw once more after it.
      this.redrawAfterRun = true;
      return;
    }
    if (this.folders.length > 0) void this.show(this.folders.map((folder) => this.withNovelty(folder)), false);
  }

  /** The folder with what is known now of which findings are new (a baseline may have landed). */
  private withNovelty(folder: FolderFindings): FolderFindings {
    const { fallback } = refToShow(folder.repo.branch, this.deps.project(folder.repo.projectName));
    const { onlyNew: _onlyNew, keep: _keep, novelty: _novelty, ...rest } = folder;
    return this.withLocalFilters(rest, folder.usedFallback ? undefined : this.noveltyOf(folder.repo, fallback));
  }

  /** One document was edited: only its diagnostics move, work per finding of that file. */
  private redrawDocument(uri: vscode.Uri): void {
    const sources = this.sources.get(uri.toString());
    if (!sources) return;
    const { mapping, options } = this.planOptions();
    const diagnostics: vscode.Diagnostic[] = [];
    for (const { repo, findings } of sources) {
      for (const planned of planDiagnostics(findings, mapping, options).diagnostics) {
        const { placed } = this.placeToday(repo, planned);
        if (placed) diagnostics.push(this.diagnosticOf(placed));
      }
    }
    this.collection.set(uri, diagnostics);
    this.publisher.redrew(uri);
  }

  /** Where a planned diagnostic is in today's code (undefined: its code is gone), and the commit it was scanned at. */
  private placeToday(repo: WorkspaceRepo, planned: PlannedDiagnostic): { commit: string | undefined; placed: Placed | undefined } {
    return placeToday(this.deps.places, repo, planned);
  }

  /** Plans a drawing with today's settings (see drawing-plan.ts). */
  private plan(folders: readonly FolderFindings[]): Generator<Preview | undefined, Planned, void> {
    return planDrawing(folders, { places: this.deps.places, log: this.deps.log, ...this.planOptions() });
  }

  private planOptions(): { mapping: SeverityMapping; options: { unreachableLevel?: 'information' } } {
    return { mapping: this.deps.mapping(), options: { unreachableLevel: this.deps.unreachableAsInformation() ? 'information' : undefined } };
  }

  get current(): readonly FolderFindings[] {
    return this.folders;
  }

  /**
   * Refreshes all folders; resolves when the new diagnostics are shown. A call while one runs
   * is coalesced into one more run after it (never more than one waiting).
   */
  refresh(force = false): Promise<readonly KindGap[]> {
    if (!this.running) {
      // Started on the next microtask so `running` is set before the run's first load: the store
      // announces a load synchronously, and Problems must not draw the old folder with the
      // slot's other answer (that once read as a burst of "new findings" after a branch switch).
      this.running = Promise.resolve().then(() => this.run(force)).finally(() => {
        this.running = undefined;
        if (this.redrawAfterRun) {
          this.redrawAfterRun = false;
          this.redraw();
        }
      });
      return this.running;
    }
    this.queued ??= this.running.catch(() => undefined).then(() => {
      this.queued = undefined;
      return this.refresh(force);
    });
    return this.queued;
  }

  /** Resolves with what each folder could not show fresh (a kind not available, or failed). */
  private async run(force: boolean): Promise<readonly KindGap[]> {
    const slug = this.deps.deploymentSlug();
    if (!slug || !vscode.workspace.isTrusted) {
      this.clear();
      return [];
    }
    const repos = this.deps.repos.repos();
    const loaded = await Promise.all(repos.map((repo) => this.loadFolder(slug, repo, force)));
    this.releaseAllBut(loaded);
    await this.show(loaded);
    return loaded.flatMap((folder) => folder.gaps ?? []);
  }

  private async loadFolder(slug: string, repo: WorkspaceRepo, force: boolean): Promise<FolderFindings> {
    const { ref, fallback } = refToShow(repo.branch, this.deps.project(repo.projectName));
    const own = slotsOf(repo, 'branch');
    // On a branch other than the primary one, its findings are compared with the primary's
    // (loaded alongside, never failing the folder) to tell which are new on it.
    const compared = fallback ? this.deps.baselines.ensure(slug, repo.projectName, force) : Promise.resolve();
    const { findings, gaps, failed } = await this.loadRef(slug, repo, ref, own, force);
    await compared;
    // A branch without a scan has no findings on the platform: show the primary branch's. A kind
    // that failed proves nothing about the branch, so it is never taken for "not scanned".
    if (findings.length === 0 && !failed && fallback) {
      const slots = slotsOf(repo, 'primary');
      const primary = await this.loadRef(slug, repo, fallback, slots, force);
      return this.withLocalFilters({ repo, ref: fallback, usedFallback: true, findings: primary.findings, slots, gaps: primary.gaps }, undefined);
    }
    return this.withLocalFilters({ repo, ref, usedFallback: false, findings, slots: own, gaps }, this.noveltyOf(repo, fallback));
  }

  private withLocalFilters(folder: Omit<FolderFindings, 'onlyNew' | 'keep' | 'novelty'>, novelty: FolderNovelty | undefined): FolderFindings {
    const selection = this.deps.selection();
    const keep = localFilterOf(selection, novelty && ((finding) => novelty.isNew(finding)));
    return { ...folder, novelty, onlyNew: selection.newOnBranch === true, ...(keep ? { keep } : {}) };
  }

  private noveltyOf(repo: WorkspaceRepo, fallback: string | undefined): FolderNovelty | undefined {
    const { baselines } = this.deps;
    const primary = fallback && baselines.comparedWith(repo.projectName);
    return primary ? { primary, isNew: (finding) => baselines.isNew(finding) } : undefined;
  }

  /**
   * Shows what the store already holds for each folder (answers adopted from the disk cache),
   * without a request; false when it holds nothing for any folder. The refresh that follows
   * replaces them whole.
   */
  async showCached(): Promise<boolean> {
    const folders = this.cachedFolders((query) => this.deps.findings.peek(query));
    if (!folders || folders.length === 0) return false;
    await this.show(folders, true, 'change');
    return true;
  }

  /**
   * Draws, before the whole cache is read, the part of it kept for the files that were open in
   * editors (VS Code opens them again): only those files, nothing announced, nothing adopted;
   * `showCached` draws everything over it. False when nothing was drawn.
   */
  previewCached(results: readonly FindingsResult[]): boolean {
    const byQuery = new Map(results.map((r) => [queryKey(r.query), r]));
    const folders = this.cachedFolders((query) => byQuery.get(queryKey(query)));
    if (!folders || folders.length === 0) return false;
    const steps = this.plan(folders);
    let step = steps.next();
    while (!step.done) step = steps.next();
    const entries = [...step.value.byUri.values()];
    this.preview(entries);
    this.previewed = entries.map(([uri]) => uri);
    return entries.length > 0;
  }

  /**
   * Draws what the last session showed (read back from disk), before the findings behind it are
   * read: every file but those `previewCached` drew. Nothing is announced or adopted; the
   * drawing of the findings that follows keeps each file it draws the same. Resolves, true when
   * anything was drawn, once all is handed to VS Code.
   */
  async drawShown(files: readonly (readonly [vscode.Uri, FindingDiagnostic[]])[]): Promise<boolean> {
    if (!this.mayDrawCached()) return false;
    const previewed = new Set(this.previewed.map((uri) => uri.toString()));
    const entries = files.filter(([uri, diagnostics]) => diagnostics.length > 0 && !previewed.has(uri.toString()));
    if (entries.length === 0) return false;
    for (const [uri] of entries) {
      this.unattached.add(uri.toString());
      this.shownUris.add(uri.toString());
    }
    await this.publisher.publish(entries, (d) => d, undefined, SHOWN_CHUNK);
    return true;
  }

  /**
   * What Problems shows, per file (its URI as a string), for keeping on disk; none while a
   * drawing is under way or part of it does not know its findings yet.
   */
  shownFiles(): [string, vscode.Diagnostic[]][] | undefined {
    if (this.running || this.unattached.size > 0 || this.folders.length === 0) return undefined;
    const files: [string, vscode.Diagnostic[]][] = [];
    this.collection.forEach((uri, diagnostics) => {
      if (diagnostics.length > 0 && diagnostics.every(isFindingDiagnostic)) files.push([uri.toString(), [...diagnostics]]);
    });
    return files;
  }

  /**
   * Everything that decides how the same findings are drawn: the deployment, the folders with
   * their projects and branches, the filters and the settings. What Problems showed is drawn
   * again at a start only for the same.
   */
  viewKey(): string | undefined {
    const slug = this.deps.deploymentSlug();
    if (!slug) return undefined;
    const folders = this.deps.repos.repos().map((repo) => [repo.folder.uri.toString(), repo.projectName, repo.branch ?? null]);
    return JSON.stringify([slug, folders, this.deps.selection(), this.deps.mapping(), this.deps.unreachableAsInformation()]);
  }

  /** Takes back what `previewCached` and `drawShown` drew, unless a drawing has replaced it since. */
  dropPreview(): void {
    if (this.folders.length === 0 && !this.running) {
      for (const uri of [...this.previewed, ...[...this.unattached].map((key) => vscode.Uri.parse(key, true))]) {
        this.collection.delete(uri);
        this.shownUris.delete(uri.toString());
      }
    }
    this.previewed = [];
    this.unattached.clear();
  }

  /**
   * The answers drawn in the files open in editors, cut down to those files' findings: kept on
   * disk beside the whole cache, so the next start draws them before reading the rest.
   */
  openAnswers(limit: number): FindingsResult[] {
    const open = [...openDocumentKeys()].flatMap((key) => this.sources.get(key) ?? []);
    const answers: FindingsResult[] = [];
    let room = limit;
    for (const folder of this.folders) {
      const drawnHere = open.filter((source) => source.repo === folder.repo).flatMap((source) => source.findings);
      if (drawnHere.length === 0 || drawnHere.length > room) continue;
      room -= drawnHere.length;
      for (const [i, slot] of folder.slots.entries()) {
        const result = resultOf(this.deps.findings.state(slot));
        if (result) answers.push({ ...result, findings: drawnHere.filter((f) => f.issueType === ISSUE_TYPES[i]) });
      }
    }
    return answers;
  }

  /** The folders' findings as `find` holds them (per folder: its branch's, or else its primary branch's). */
  private cachedFolders(find: (query: FindingsQuery) => FindingsResult | undefined): FolderFindings[] | undefined {
    const slug = this.deps.deploymentSlug();
    if (!slug || !this.mayDrawCached()) return undefined;
    const folders: FolderFindings[] = [];
    for (const repo of this.deps.repos.repos()) {
      const { ref, fallback } = refToShow(repo.branch, this.deps.project(repo.projectName));
      const held = (which: string | undefined): FindingsResult[] | undefined => {
        // A kind that had no answer (it failed) is not kept: the kinds that answered still show.
        const results = ISSUE_TYPES.map((issueType) => find(this.queryOf(slug, repo, which, issueType))).filter((r): r is FindingsResult => r !== undefined);
        return results.length > 0 ? results : undefined;
      };
      const own = held(ref);
      const results = own && own.some((r) => r.findings.length > 0) ? own : (fallback && held(fallback)) || own;
      if (!results) continue;
      const usedFallback = results !== own;
      folders.push({
        ...this.withLocalFilters({ repo, ref: usedFallback ? fallback : ref, usedFallback, findings: results.flatMap((r) => r.findings), slots: [] }, undefined),
        cachedAt: new Date(Math.min(...results.map((r) => r.loadedAt.getTime()))),
      });
    }
    return folders;
  }

  /**
   * Whether findings from the disk cache may be drawn. A refresh under way that has not begun
   * drawing (git reported the branch during start-up) does not stop them: the cache is there to
   * be seen before the platform answers. One that has begun (`drawn`) must not be superseded by
   * older findings.
   */
  private mayDrawCached(): boolean {
    return this.folders.length === 0 && this.drawn.length === 0 && vscode.workspace.isTrusted;
  }

  private queryOf(slug: string, repo: WorkspaceRepo, ref: string | undefined, issueType: IssueType): FindingsQuery {
    // dedup as in the tree: with the ref, it gives the counts of the web UI (docs/platform-api.md, "Paging").
    return { deploymentSlug: slug, issueType, filters: toQueryFilters(this.deps.selection(), issueType, { repo: repo.projectName, dedup: true, ...(ref ? { ref } : {}) }) };
  }

  /**
   * Each kind loads and fails on its own: a kind that failed shows what its slot showed before
   * (marked stale), and the others show their answers. `failed`: some kind did not answer.
   */
  private async loadRef(slug: string, repo: WorkspaceRepo, ref: string | undefined, slots: readonly string[], force: boolean): Promise<{ findings: Finding[]; gaps: KindGap[]; failed: boolean }> {
    const settled = await Promise.allSettled(
      ISSUE_TYPES.map((issueType, i) => this.deps.findings.load(slots[i], this.queryOf(slug, repo, ref, issueType), { force })),
    );
    const findings: Finding[] = [];
    const gaps: KindGap[] = [];
    let failed = false;
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === 'rejected' && isCancellation(outcome.reason)) throw outcome.reason;
      if (outcome.status === 'fulfilled') {
        for (const finding of outcome.value.findings) findings.push(finding);
        gaps.push(...gapsOfResult(outcome.value));
        continue;
      }
      // The slot still holds what it showed before the failure, marked stale.
      const state = this.deps.findings.state(slots[i]);
      for (const finding of resultOf(state)?.findings ?? []) findings.push(finding);
      gaps.push(...gapsOfSlot(ISSUE_TYPES[i], state));
      failed = true;
    }
    return { findings, gaps, failed };
  }

  /** A change in the store to answers Problems shows: shown again from the store, no request. */
  private onStoreChanged(slots: readonly string[]): void {
    if (this.running || this.folders.length === 0) return;
    const shown = new Set(this.folders.flatMap((f) => f.slots));
    if (!slots.some((slot) => shown.has(slot))) return;
    // A load's progress changes no answer: only a different answer is drawn again.
    const answers = this.folders.map((folder) => folder.slots.map((slot) => resultOf(this.deps.findings.state(slot))?.findings));
    if (answers.every((list, i) => list.every((findings, j) => findings === this.drawn[i]?.[j]))) return;
    void this.show(this.folders.map((folder, i) => ({ ...folder, findings: (answers[i] ?? []).flatMap((findings) => findings ?? []) })), true, 'change');
  }

  /** Lets the store drop answers of folders and fallbacks no longer shown. */
  private releaseAllBut(folders: readonly FolderFindings[]): void {
    this.deps.baselines.keepOnly(folders.filter((f) => f.novelty || !f.usedFallback).map((f) => f.repo.projectName));
    const keep = new Set(folders.flatMap((f) => f.slots));
    for (const folder of this.folders) for (const slot of folder.slots) if (!keep.has(slot)) this.deps.findings.release(slot);
  }

  /**
   * Draws the folders; resolves when every diagnostic is handed to VS Code (the open files'
   * first). Findings are planned and placed in slices with a turn of the event loop between
   * them, so 50 000 never hold the extension host for long. A later drawing supersedes one still
   * planning: the earlier one then resolves with the later one.
   */
  private show(folders: readonly FolderFindings[], announce = true, cause: 'refresh' | 'change' = 'refresh'): Promise<void> {
    this.drawn = folders.map((folder) => folder.slots.map((slot) => resultOf(this.deps.findings.state(slot))?.findings));
    const generation = ++this.showGeneration;
    // A drawing that takes over from one that was to be announced announces in its place.
    announce ||= this.announcePending;
    this.announcePending = announce;
    const steps = this.plan(folders);
    // A drawing of one slice (a triage, a small project) is done at once, as the user acted. A
    // bigger one starts on a turn of its own: it is asked for in the turn a load's last page was
    // decoded and its findings indexed (about 30 ms for 40 000), and its first slice after that
    // made the longest stall of a refresh in bench:host.
    const big = folders.reduce((n, folder) => n + folder.findings.length, 0) > PLAN_SLICE;
    let step = big ? undefined : steps.next();
    if (step?.done) {
      this.requestPlaces(step.value);
      const published = this.handOver(folders, step.value, cause);
      this.announce(folders, announce);
      return (this.showing = published);
    }
    const superseded = (): boolean => generation !== this.showGeneration;
    const drawing = (async (): Promise<void> => {
      if (!step) {
        await nextTurn();
        if (superseded()) return this.showing;
        step = steps.next();
      }
      while (!step.done) {
        if (step.value) this.preview(step.value);
        await nextTurn();
        if (superseded()) return this.showing;
        step = steps.next();
      }
      // After 50 000 findings, the hand-over, the mapping onto today's code (it starts git) and each
      // listener (the badge, the status bar) take milliseconds each: each gets a turn of its own.
      const planned = step.value;
      await nextTurn();
      if (superseded()) return this.showing;
      const published = this.handOver(folders, planned, cause);
      await nextTurn();
      if (superseded()) return this.showing;
      this.requestPlaces(planned);
      this.announcePending = false;
      if (announce) await this.changed.fireInTurns(folders);
      return published;
    })();
    this.showing = drawing;
    return drawing;
  }

  /** Hands a planned drawing to VS Code (the first chunk now) and makes it the one shown. */
  private handOver(folders: readonly FolderFindings[], planned: Planned, cause: 'refresh' | 'change'): Promise<void> {
    this.sources = planned.sources;
    this.previewed = [];
    const entries: [vscode.Uri, Placed[] | undefined][] = [...planned.byUri.values()];
    for (const old of this.shownUris) if (!planned.byUri.has(old)) entries.push([vscode.Uri.parse(old), undefined]);
    // Files drawn from what the last session showed keep their diagnostics where they are the
    // same as planned now: those are given their findings instead of being handed over again.
    const unattached = this.unattached;
    this.unattached = new Set();
    const keep = unattached.size === 0 ? undefined : (uri: vscode.Uri, built: readonly vscode.Diagnostic[] | undefined): boolean => {
      if (!built || !unattached.has(uri.toString())) return false;
      const shown = this.collection.get(uri);
      if (!shown || !sameDiagnostics(shown, built)) return false;
      giveFindings(shown, built);
      return true;
    };
    const published = this.publisher.publish(entries, (p) => this.diagnosticOf(p), keep);
    this.shownUris = new Set(planned.byUri.keys());
    this.folders = folders;
    const count = [...planned.byUri.values()].reduce((n, [, d]) => n + d.length, 0);
    this.deps.log.info(`Diagnostics: ${count} in ${planned.byUri.size} files of ${folders.length} folders${planned.gone > 0 ? `; ${planned.gone} no longer in this copy` : ''}`);
    this.lastCause = cause;
    return published;
  }

  /** Shows the open files' diagnostics before the rest is planned (the full hand-over draws them again). */
  private preview(entries: Preview): void {
    for (const [uri, placed] of entries) {
      this.collection.set(uri, placed.map((p) => this.diagnosticOf(p)));
      // Older chunks still being handed over must not undo it; a newer drawing clears it if gone.
      this.publisher.redrew(uri);
      this.shownUris.add(uri.toString());
    }
  }

  private diagnosticOf(p: Placed): vscode.Diagnostic {
    // Drift facts only where the diagnostic moved or its code changed: the hover finds the commit
    // of the others itself, and 50 000 objects saying "not moved" are 40 bytes each.
    const moved = p.changed || p.scannedLine !== p.planned.range.startLine;
    return toDiagnostic(p.planned, p.folder, this.deps.findingUrl, moved ? { changed: p.changed, commit: p.commit, scannedLine: p.scannedLine } : undefined);
  }

  private announce(folders: readonly FolderFindings[], announce: boolean): void {
    this.announcePending = false;
    if (announce) this.changed.fire(folders);
  }

  /** Maps the drawn files onto today's code, in the background; it draws again when done. */
  private requestPlaces(planned: Planned): void {
    for (const { folder, commit, paths } of planned.wanted) this.deps.places.drift.ensure(folder, commit, paths);
  }

  clear(): void {
    this.releaseAllBut([]);
    this.drawn = [];
    this.sources.clear();
    this.publisher.cancel();
    this.showGeneration++;
    this.showing = Promise.resolve();
    this.announcePending = false;
    this.collection.clear();
    this.previewed = [];
    this.unattached.clear();
    this.shownUris.clear();
    this.folders = [];
    this.changed.fire(this.folders);
  }

  dispose(): void {
    for (const d of this.following) d.dispose();
    this.collection.dispose();
    this.changed.dispose();
  }
}

/** The store slots of a folder: its own branch's, or the primary branch's when it falls back. */
function slotsOf(repo: WorkspaceRepo, which: 'branch' | 'primary'): string[] {
  return ISSUE_TYPES.map((issueType) => `problems:${repo.folder.uri.toString()}:${which}:${issueType}`);
}

function resultOf(state: SlotState): FindingsResult | undefined {
  return state.kind === 'loaded' ? state.result : state.kind === 'loading' ? state.previous : undefined;
}
