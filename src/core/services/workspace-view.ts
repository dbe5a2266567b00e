/**
 * What the workspace shows. Each workspace folder matched to a project is a place: `place.ts`
 * decides its ref, queries, whether its branch was scanned (else its primary branch is shown), the
 * filters and novelty, as it does for the tree. This view loads each kind (loaded, not available,
 * failed and kept stale) and gives out immutable, versioned snapshots with one change event;
 * Problems draws them, and the status bar, the badge and the cache writer follow what Problems
 * drew. Why a snapshot changes is part of it (`cause`): only a refresh brings news, and only a
 * refresh's answers are worth keeping on disk. This class decides when to load and publish; what
 * one folder shows is beside it (`workspace-folders.ts`).
 */
import { Emitter, type Disposable, type Event } from '../events';
import type { Finding } from '../model/types';
import type { BranchBaselines } from './branch-baselines';
import type { FindingsStore } from './findings-store';
import type { FindingsQuery, FindingsResult } from './findings-query';
import type { FolderFindings, FolderRef } from './folder-view';
import type { KindGap } from './kind-gaps';
import { shownResult } from './slot-bindings';
import { decorate, heldFolder, loadFolder, placeDeps, type FolderDeps, type LoadedFolder } from './workspace-folders';

/**
 * Why the snapshot changed: `refresh` (answers loaded for it), `change` (a patch, or another
 * view's load of the same answers), `novelty` (a primary branch's findings landed), `cached`
 * (the last session's findings, before any answer), `arriving` (the pages of a first load that
 * have come, while nothing else is shown), `cleared` (signed out, nothing to show).
 */
export type ShownCause = 'refresh' | 'change' | 'novelty' | 'cached' | 'arriving' | 'cleared';

export interface WorkspaceSnapshot<R extends FolderRef = FolderRef> {
  /** Grows with every snapshot: a drawing of an older one is superseded. */
  readonly version: number;
  readonly cause: ShownCause;
  readonly folders: readonly FolderFindings<R>[];
}

/** Draws a snapshot; resolves when it is shown (or a later one took over). */
export type SnapshotRenderer<R extends FolderRef> = (snapshot: WorkspaceSnapshot<R>) => Promise<void>;

export interface WorkspaceViewDeps<R extends FolderRef> extends FolderDeps<R> {
  readonly store: Pick<FindingsStore, 'load' | 'peek' | 'arriving' | 'state' | 'release' | 'onDidChange'>;
  readonly baselines: Pick<BranchBaselines, 'ensure' | 'comparedWith' | 'isNew' | 'version' | 'keepOnly' | 'onDidChange'>;
  /** The folders matched to a project, as the host sees them now. */
  folders(): readonly R[];
  deploymentSlug(): string | undefined;
  /** False in an untrusted workspace: nothing is shown. */
  mayShow(): boolean;
}

export class WorkspaceView<R extends FolderRef> implements Disposable {
  private current: WorkspaceSnapshot<R> = { version: 0, cause: 'cleared', folders: [] };
  private loaded: readonly LoadedFolder<R>[] = [];
  /** Per folder, per slot: the answers the snapshot holds, so a change that is not an answer publishes nothing. */
  private answers: (readonly (readonly Finding[] | undefined)[])[] = [];
  private running: Promise<readonly KindGap[]> | undefined;
  private queued: Promise<readonly KindGap[]> | undefined;
  private loads = 0;
  /** What the last refresh could not show fresh. */
  private lastGaps: readonly KindGap[] = [];
  private render: SnapshotRenderer<R> = () => Promise.resolve();
  private readonly changed = new Emitter<WorkspaceSnapshot<R>>();
  /** Fires with every new snapshot, before it is drawn. */
  readonly onDidChange: Event<WorkspaceSnapshot<R>> = this.changed.event;
  private readonly following: Disposable[];
  /** The drawing of arrived pages under way, and whether more pages came meanwhile. */
  private arrivingDrawn: Promise<void> | undefined;
  private arrivedSince = false;

  constructor(private readonly deps: WorkspaceViewDeps<R>) {
    this.following = [
      deps.store.onDidChange((slots) => this.onStoreChanged(slots), 'the workspace view'),
      deps.baselines.onDidChange(() => this.onNoveltyChanged(), 'the workspace view'),
    ];
  }

  get snapshot(): WorkspaceSnapshot<R> {
    return this.current;
  }

  /** True while a refresh waits for answers: what it publishes will be drawn with today's places. */
  get loading(): boolean {
    return this.loads > 0;
  }

  /** True from a refresh's start until its drawing is done (and while another waits to run). */
  get refreshing(): boolean {
    return this.running !== undefined;
  }

  /** The one renderer whose drawing a refresh waits for (Problems). */
  attach(render: SnapshotRenderer<R>): Disposable {
    this.render = render;
    return { dispose: () => void (this.render = () => Promise.resolve()) };
  }

  /**
   * Loads what every folder shows and publishes it; resolves, with what could not be shown fresh,
   * when it is drawn. A call while one runs is coalesced into one more run after it.
   */
  refresh(force = false): Promise<readonly KindGap[]> {
    if (!this.running) {
      // Started on the next microtask so `loading` is true before the run's first load: the store
      // announces a load synchronously, and the old folder must not be published with the slot's
      // new answer (its novelty is still the old branch's).
      this.running = Promise.resolve()
        .then(() => this.run(force))
        .finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.refresh(force);
      });
    return this.queued;
  }

  /** Resolves when no refresh runs or waits, with what the last one could not show fresh. */
  settled(): Promise<readonly KindGap[]> {
    return this.queued ?? this.running ?? Promise.resolve(this.lastGaps);
  }

  private async run(force: boolean): Promise<readonly KindGap[]> {
    const slug = this.deps.deploymentSlug();
    if (!slug || !this.deps.mayShow()) {
      this.lastGaps = [];
      this.clear();
      return [];
    }
    this.loads++;
    let folders: LoadedFolder<R>[];
    try {
      folders = await Promise.all(this.deps.folders().map((repo) => loadFolder(this.deps, slug, repo, force)));
    } finally {
      this.loads--;
    }
    this.releaseAllBut(folders);
    this.lastGaps = folders.flatMap((folder) => folder.gaps ?? []);
    await this.publish(folders, 'refresh');
    return this.lastGaps;
  }

  /**
   * Publishes what the store already holds for each folder (answers adopted from the disk cache),
   * without a request; false when it holds nothing for any folder. The refresh that follows
   * replaces it whole. Resolves once it is drawn.
   */
  async showHeld(): Promise<boolean> {
    const folders = this.heldFolders((query) => this.deps.store.peek(query));
    if (!folders || folders.length === 0) return false;
    await this.publish(folders, 'cached');
    return true;
  }

  /**
   * The folders as `find` holds their answers (per folder: its branch's, or else its primary
   * branch's), with today's filters; undefined once anything fresher is shown.
   */
  heldFolders(find: (query: FindingsQuery) => FindingsResult | undefined, from: 'cache' | 'arriving' = 'cache'): FolderFindings<R>[] | undefined {
    const slug = this.deps.deploymentSlug();
    if (!slug || !this.mayShowHeld()) return undefined;
    const folders: FolderFindings<R>[] = [];
    const deps = placeDeps(this.deps, slug, false);
    for (const repo of this.deps.folders()) {
      const folder = heldFolder(this.deps, deps, repo, find, from);
      if (folder) folders.push(folder);
    }
    return folders;
  }

  /**
   * Whether the last session's findings may be shown: nothing fresher than a first load's pages
   * is. A refresh that has not published yet does not stop them.
   */
  mayShowHeld(): boolean {
    return (this.current.folders.length === 0 || this.current.cause === 'arriving') && this.deps.mayShow();
  }

  /**
   * With nothing else shown, first loads' pages are drawn as they come (open files first), one
   * drawing at a time; the refresh's own drawing replaces them.
   */
  private showArriving(): void {
    if (this.arrivingDrawn) {
      this.arrivedSince = true;
      return;
    }
    const folders = this.heldFolders((query) => this.deps.store.arriving(query), 'arriving');
    if (!folders || folders.length === 0) return;
    this.arrivedSince = false;
    this.arrivingDrawn = this.publish(folders, 'arriving').finally(() => {
      this.arrivingDrawn = undefined;
      if (this.arrivedSince && this.loading) this.showArriving();
    });
  }

  /** A change in the store to answers shown: published again from the store, no request. */
  private onStoreChanged(slots: readonly string[]): void {
    if (this.loading) return this.showArriving();
    if (this.loaded.length === 0) return;
    const shown = new Set(this.loaded.flatMap((f) => f.slots));
    if (!slots.some((slot) => shown.has(slot))) return;
    // A load's progress changes no answer: only a different answer is published.
    const answers = this.answersOf(this.loaded);
    if (answers.every((list, i) => list.every((findings, j) => findings === this.answers[i]?.[j]))) return;
    void this.publish(
      this.loaded.map((folder, i) => ({ ...folder, findings: (answers[i] ?? []).flatMap((findings) => findings ?? []) })),
      'change',
    );
  }

  /** A primary branch's findings landed or went: which findings are new may differ. */
  private onNoveltyChanged(): void {
    // A refresh under way publishes with what is known when it ends.
    if (this.loading || this.loaded.length === 0) return;
    void this.publish(this.loaded, 'novelty');
  }

  private publish(folders: readonly LoadedFolder<R>[], cause: ShownCause): Promise<void> {
    this.loaded = folders;
    this.answers = this.answersOf(folders);
    const snapshot: WorkspaceSnapshot<R> = {
      version: this.current.version + 1,
      cause,
      folders: folders.map((f) => decorate(this.deps, f, f.cachedAt === undefined)),
    };
    this.current = snapshot;
    this.changed.fire(snapshot);
    return this.render(snapshot);
  }

  private answersOf(folders: readonly LoadedFolder<R>[]): (readonly (readonly Finding[] | undefined)[])[] {
    return folders.map((folder) => folder.slots.map((slot) => shownResult(this.deps.store.state(slot))?.findings));
  }

  /** Lets the store drop answers of folders and fallbacks no longer shown. */
  private releaseAllBut(folders: readonly LoadedFolder<R>[]): void {
    this.deps.baselines.keepOnly(folders.filter((f) => !f.usedFallback).map((f) => f.repo.projectName));
    const keep = new Set(folders.flatMap((f) => f.slots));
    for (const folder of this.loaded) for (const slot of folder.slots) if (!keep.has(slot)) this.deps.store.release(slot);
  }

  /** Shows nothing (signed out, an untrusted workspace). */
  clear(): void {
    this.releaseAllBut([]);
    void this.publish([], 'cleared');
  }

  dispose(): void {
    for (const d of this.following) d.dispose();
    this.changed.dispose();
  }
}
