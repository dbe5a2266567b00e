/**
 * Knows how each workspace file changed since the commit its findings were scanned at, so a
 * finding can be placed where its code is today (`core/workspace/range-mapper.ts`).
 *
 * Per folder and scanned commit: one `git diff --name-status -M` against the working tree
 * (renames, deletions), then one `git cat-file --batch` for the changed files that have
 * findings, each diffed against its text today (the open document's, unsaved edits included,
 * else the file on disk). Unchanged files need nothing. This runs after the findings are shown
 * and never blocks them; until it is done, findings stay at their scanned lines.
 *
 * Typing moves the findings of that one document at once: each change becomes one more hunk on
 * top of the file's map (work per edit, not per finding of the workspace); when the document
 * is saved, reverted, closed or idle, its map is rebuilt from a fresh diff.
 */
import * as vscode from 'vscode';
import { splitLines } from '../core/workspace/line-diff';
import type { PlannedRange } from '../core/workspace/diagnostic-plan';
import type { TodayPlace } from '../core/workspace/today-place';
import {
  addEdits,
  describeDrift,
  driftKey,
  editMaps,
  fileDrift,
  newCommitDrift,
  placesAsScanned,
  placeToday,
  type CommitDrift,
  type DriftState,
  type FileDrift,
} from './commit-drift';
import type { GitCli } from './git-cli';
import type { Logger } from './logger';
import { diskText, openDocument, textToday } from './workspace-text';

export type { DriftState } from './commit-drift';

const IDLE_REDIFF_MS = 400;

export class DriftTracker implements vscode.Disposable {
  private readonly entries = new Map<string, CommitDrift>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** A mapping of whole folders ended (the tree shows its state). */
  readonly onDidChange = this.changed.event;
  private readonly moved = new vscode.EventEmitter<void>();
  /** Findings of whole folders may be placed elsewhere than before: redraw everything. */
  readonly onDidChangePlaces = this.moved.event;
  private readonly edited = new vscode.EventEmitter<vscode.Uri>();
  /** One document's findings moved with its edits: redraw that document. */
  readonly onDidEditDocument = this.edited.event;
  private readonly missing = new vscode.EventEmitter<{ folder: vscode.WorkspaceFolder; commit: string }>();
  /** A scanned commit is not in the local repository. */
  readonly onMissingCommit = this.missing.event;
  private readonly idleTimers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly git: GitCli,
    private readonly log: Logger,
  ) {
    this.disposables = [
      this.changed,
      this.moved,
      this.edited,
      this.missing,
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidSaveTextDocument((d) => this.scheduleRediff(d.uri, 0)),
      vscode.workspace.onDidCloseTextDocument((d) => this.scheduleRediff(d.uri, 0)),
    ];
  }

  state(folder: vscode.WorkspaceFolder, commit: string): DriftState | undefined {
    return this.entries.get(driftKey(folder, commit))?.state;
  }

  /** Where a scanned place is today; undefined while unknown (not mapped yet, commit missing). */
  place(folder: vscode.WorkspaceFolder, commit: string, scannedPath: string, range: PlannedRange): TodayPlace | undefined {
    const entry = this.entries.get(driftKey(folder, commit));
    return entry?.state === 'mapped' ? placeToday(entry, scannedPath, range) : undefined;
  }

  /** Makes sure these scanned paths of the folder at this commit are mapped (in the background). */
  ensure(folder: vscode.WorkspaceFolder, commit: string, scannedPaths: ReadonlySet<string>): void {
    if (folder.uri.scheme !== 'file') return;
    const key = driftKey(folder, commit);
    let entry = this.entries.get(key);
    if (entry && !entry.stale && [...scannedPaths].every((p) => entry!.requested.has(p))) return;
    if (!entry) {
      entry = newCommitDrift(folder, commit);
      this.entries.set(key, entry);
    }
    for (const path of scannedPaths) entry.requested.add(path);
    entry.stale = false;
    this.compute(entry);
  }

  /** Every map may be out of date (a refresh, a checkout): the next `ensure` maps again. */
  invalidate(): void {
    for (const entry of this.entries.values()) entry.stale = true;
  }

  /** One line per folder and commit, as the log writes them (tests show it when they fail). */
  summary(): string {
    return [...this.entries.values()].map(describeDrift).join('; ') || 'nothing mapped';
  }

  /** Scanned commits that are not in the local repository. */
  missingCommits(): { folder: vscode.WorkspaceFolder; commit: string }[] {
    return [...this.entries.values()].filter((e) => e.state === 'missing').map(({ folder, commit }) => ({ folder, commit }));
  }

  /** A folder-relative file as it is at a commit (undefined where the commit has no such file). */
  async textAt(folder: vscode.WorkspaceFolder, commit: string, relativePath: string): Promise<string | undefined> {
    return (await this.git.filesAt(folder.uri.fsPath, commit, [relativePath])).get(relativePath);
  }

  /** Fetches a scanned commit that is not here from the folder's remotes. */
  fetchCommit(folder: vscode.WorkspaceFolder, commit: string): Promise<boolean> {
    return this.git.fetchCommit(folder.uri.fsPath, commit).catch(() => false);
  }

  /** After a fetch: maps the folder's entries at this commit again. */
  retry(folder: vscode.WorkspaceFolder, commit: string): void {
    const entry = this.entries.get(driftKey(folder, commit));
    if (entry) this.compute(entry);
  }

  private compute(entry: CommitDrift): void {
    if (entry.running) {
      entry.again = true;
      return;
    }
    const started = Date.now();
    entry.running = this.map(entry)
      .catch((error: unknown) => {
        entry.state = 'failed';
        this.log.warn(
          `Could not map findings of ${entry.folder.name} onto today's code (commit ${entry.commit.slice(0, 7)}): ${error instanceof Error ? error.message : String(error)}`,
        );
      })
      .finally(() => {
        entry.running = undefined;
        this.log.info(`Drift: ${describeDrift(entry)}, ${Date.now() - started} ms`);
        if (entry.again) {
          entry.again = false;
          this.compute(entry);
          return;
        }
        if (entry.state === 'missing') this.missing.fire({ folder: entry.folder, commit: entry.commit });
        this.changed.fire();
        // A copy at the scanned commit maps every finding to its scanned place, as before the
        // mapping: nothing to draw again (a redraw of 50 000 after every refresh otherwise).
        const asScanned = placesAsScanned(entry);
        if (entry.toldAsScanned && asScanned) return;
        entry.toldAsScanned = asScanned;
        this.moved.fire();
      });
  }

  private async map(entry: CommitDrift): Promise<void> {
    const cwd = entry.folder.uri.fsPath;
    if (!(await this.git.hasCommit(cwd, entry.commit))) {
      entry.state = 'missing';
      return;
    }
    const changes = await this.git.changedSince(cwd, entry.commit);
    // Code can be gone only where something changed: a copy at the scanned commit asks git nothing more.
    const inHistory = changes.length === 0 || (await this.git.inHistory(cwd, entry.commit));
    const changed = new Map(changes.map((c) => [c.scannedPath, c]));
    const wanted = [...entry.requested].filter((p) => changed.has(p) && !changed.get(p)!.deleted);
    const scannedTexts = await this.git.filesAt(cwd, entry.commit, wanted);
    const files = new Map<string, FileDrift>();
    await Promise.all(
      wanted.map(async (scannedPath) => {
        const scannedText = scannedTexts.get(scannedPath);
        const today = await textToday(entry.folder, changed.get(scannedPath)!.path);
        if (scannedText === undefined || today === undefined) return;
        files.set(scannedPath, fileDrift(splitLines(scannedText), today));
      }),
    );
    // Unchanged files with unsaved edits: the saved text is the scanned text.
    for (const path of entry.requested) {
      if (changed.has(path)) continue;
      const document = openDocument(entry.folder, path);
      if (!document?.isDirty) continue;
      const saved = await diskText(entry.folder, path);
      if (saved === undefined) continue;
      files.set(path, fileDrift(splitLines(saved), document.getText()));
    }
    entry.changed = changed;
    entry.scannedPathOf = new Map(changes.filter((c) => !c.deleted).map((c) => [c.path, c.scannedPath]));
    entry.files = files;
    entry.inHistory = inHistory;
    entry.state = 'mapped';
  }

  private onEdit(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    const found = this.entriesOf(event.document.uri);
    if (found.length === 0) return;
    const maps = editMaps(event.document, event.contentChanges);
    for (const { entry, scannedPath } of found) addEdits(entry, scannedPath, maps);
    this.edited.fire(event.document.uri);
    // The dirty flag reaches the extension host after the change itself: decide at the re-diff.
    this.scheduleRediff(event.document.uri, IDLE_REDIFF_MS);
  }

  /** Rebuilds a document's maps from a fresh diff: after a save, a revert, a close, or when idle. */
  private scheduleRediff(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.idleTimers.get(key));
    if (this.entriesOf(uri).length === 0) return;
    this.idleTimers.set(
      key,
      setTimeout(() => {
        this.idleTimers.delete(key);
        void this.rediff(uri);
      }, delayMs),
    );
  }

  private async rediff(uri: vscode.Uri): Promise<void> {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const version = document?.version;
    for (const { entry, scannedPath } of this.entriesOf(uri)) {
      const file = entry.files.get(scannedPath);
      if (!file) continue;
      const relative = entry.changed.get(scannedPath)?.path ?? scannedPath;
      const scannedLines =
        file.scannedLines ?? splitLines((await this.git.filesAt(entry.folder.uri.fsPath, entry.commit, [scannedPath])).get(scannedPath) ?? '');
      const today = await textToday(entry.folder, relative);
      if (today === undefined || (document && document.version !== version)) return;
      entry.files.set(scannedPath, fileDrift(scannedLines, today));
    }
    this.edited.fire(uri);
  }

  /** The mapped entries whose folder holds this document, with its path at the scan. */
  private entriesOf(uri: vscode.Uri): { entry: CommitDrift; scannedPath: string }[] {
    const found: { entry: CommitDrift; scannedPath: string }[] = [];
    for (const entry of this.entries.values()) {
      if (entry.state !== 'mapped') continue;
      const root = `${entry.folder.uri.toString()}/`;
      const text = uri.toString();
      if (!text.startsWith(root)) continue;
      const relative = decodeURIComponent(text.slice(root.length));
      const scannedPath = entry.scannedPathOf.get(relative) ?? relative;
      if (entry.requested.has(scannedPath)) found.push({ entry, scannedPath });
    }
    return found;
  }

  dispose(): void {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    for (const d of this.disposables) d.dispose();
  }
}
