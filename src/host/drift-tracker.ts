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
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { diffLines, splitLines } from '../core/workspace/line-diff';
import { LineMap, editHunk, mapThrough, mergeLineKeeping } from '../core/workspace/range-mapper';
import type { PlannedRange } from '../core/workspace/diagnostic-plan';
import type { Placement } from '../core/workspace/placement';
import type { ChangedFile, GitCli } from './git-cli';
import type { Logger } from './logger';

export type DriftState = 'pending' | 'mapped' | 'missing' | 'failed';

interface FileDrift {
  /** The file at the scanned commit; undefined until needed (an unchanged file being edited). */
  readonly scannedLines?: readonly string[];
  base: LineMap;
  edits: LineMap[];
}

interface CommitDrift {
  readonly folder: vscode.WorkspaceFolder;
  readonly commit: string;
  state: DriftState;
  /** Scanned path → today's, for files git reports changed, renamed or deleted. */
  changed: Map<string, ChangedFile>;
  /** Today's path → scanned path (renames), for edits arriving by today's name. */
  scannedPathOf: Map<string, string>;
  files: Map<string, FileDrift>;
  requested: Set<string>;
  running?: Promise<void>;
  again: boolean;
  /** A refresh or checkout happened: map again at the next `ensure`, showing the old maps meanwhile. */
  stale: boolean;
  /** What listeners last heard: every finding at its scanned place (so far as mapping goes). */
  toldAsScanned: boolean;
}

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

  constructor(private readonly git: GitCli, private readonly log: Logger) {
    this.disposables = [
      this.changed, this.moved, this.edited, this.missing,
      vscode.workspace.onDidChangeTextDocument((e) => this.onEdit(e)),
      vscode.workspace.onDidSaveTextDocument((d) => this.scheduleRediff(d.uri, 0)),
      vscode.workspace.onDidCloseTextDocument((d) => this.scheduleRediff(d.uri, 0)),
    ];
  }

  state(folder: vscode.WorkspaceFolder, commit: string): DriftState | undefined {
    return this.entries.get(keyOf(folder, commit))?.state;
  }

  /** Where a scanned place is today; undefined while unknown (not mapped yet, commit missing). */
  place(folder: vscode.WorkspaceFolder, commit: string, scannedPath: string, range: PlannedRange): Placement | undefined {
    const entry = this.entries.get(keyOf(folder, commit));
    if (!entry || entry.state !== 'mapped') return undefined;
    const change = entry.changed.get(scannedPath);
    if (change?.deleted) return { kind: 'deleted' };
    const file = entry.files.get(scannedPath);
    const mapped = file ? mapThrough([file.base, ...file.edits], range) : { kind: 'same' as const, range };
    return mapped.kind === 'deleted' ? mapped : { ...mapped, relativePath: change?.path ?? scannedPath };
  }

  /** Makes sure these scanned paths of the folder at this commit are mapped (in the background). */
  ensure(folder: vscode.WorkspaceFolder, commit: string, scannedPaths: ReadonlySet<string>): void {
    if (folder.uri.scheme !== 'file') return;
    const key = keyOf(folder, commit);
    let entry = this.entries.get(key);
    if (entry && !entry.stale && [...scannedPaths].every((p) => entry!.requested.has(p))) return;
    if (!entry) {
      entry = { folder, commit, state: 'pending', changed: new Map(), scannedPathOf: new Map(), files: new Map(), requested: new Set(), again: false, stale: false, toldAsScanned: true };
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
    return [...this.entries.values()].map(describeEntry).join('; ') || 'nothing mapped';
  }

  /** Scanned commits that are not in the local repository. */
  missingCommits(): { folder: vscode.WorkspaceFolder; commit: string }[] {
    return [...this.entries.values()].filter((e) => e.state === 'missing').map(({ folder, commit }) => ({ folder, commit }));
  }

  /** Fetches a scanned commit that is not here from the folder's remotes. */
  fetchCommit(folder: vscode.WorkspaceFolder, commit: string): Promise<boolean> {
    return this.git.fetchCommit(folder.uri.fsPath, commit).catch(() => false);
  }

  /** After a fetch: maps the folder's entries at this commit again. */
  retry(folder: vscode.WorkspaceFolder, commit: string): void {
    const entry = this.entries.get(keyOf(folder, commit));
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
        this.log.warn(`Could not map findings of ${entry.folder.name} onto today's code (commit ${entry.commit.slice(0, 7)}): ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        entry.running = undefined;
        this.log.info(`Drift: ${describeEntry(entry)}, ${Date.now() - started} ms`);
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
    const changed = new Map(changes.map((c) => [c.scannedPath, c]));
    const wanted = [...entry.requested].filter((p) => changed.has(p) && !changed.get(p)!.deleted);
    const scannedTexts = await this.git.filesAt(cwd, entry.commit, wanted);
    const files = new Map<string, FileDrift>();
    await Promise.all(wanted.map(async (scannedPath) => {
      const scannedText = scannedTexts.get(scannedPath);
      const today = await this.textToday(entry.folder, changed.get(scannedPath)!.path);
      if (scannedText === undefined || today === undefined) return;
      files.set(scannedPath, fileDrift(splitLines(scannedText), today));
    }));
    // Unchanged files with unsaved edits: the saved text is the scanned text.
    for (const path of entry.requested) {
      if (changed.has(path)) continue;
      const document = this.openDocument(entry.folder, path);
      if (!document?.isDirty) continue;
      const saved = await this.diskText(entry.folder, path);
      if (saved === undefined) continue;
      files.set(path, fileDrift(splitLines(saved), document.getText()));
    }
    entry.changed = changed;
    entry.scannedPathOf = new Map(changes.filter((c) => !c.deleted).map((c) => [c.path, c.scannedPath]));
    entry.files = files;
    entry.state = 'mapped';
  }

  private onEdit(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    const found = this.entriesOf(event.document.uri);
    if (found.length === 0) return;
    // Applied from the bottom up, each change is in the coordinates of the text before the event.
    const changes = [...event.contentChanges].sort((a, b) => b.range.start.compareTo(a.range.start));
    const maps = changes.map((change) => new LineMap([editHunk({
      startLine: change.range.start.line,
      startCharacter: change.range.start.character,
      endLine: change.range.end.line,
      endCharacter: change.range.end.character,
      text: change.text,
      atLineEnd: atLineEnd(event.document, change),
    })]));
    for (const { entry, scannedPath } of found) {
      let file = entry.files.get(scannedPath);
      if (!file) {
        if (entry.changed.has(scannedPath)) continue; // changed but without findings: nothing to move
        file = { base: LineMap.identity, edits: [] };
        entry.files.set(scannedPath, file);
      }
      for (const map of maps) {
        const merged = file.edits.length > 0 ? mergeLineKeeping(file.edits[file.edits.length - 1], map) : undefined;
        if (merged) file.edits[file.edits.length - 1] = merged;
        else file.edits.push(map);
      }
    }
    this.edited.fire(event.document.uri);
    // The dirty flag reaches the extension host after the change itself: decide at the re-diff.
    this.scheduleRediff(event.document.uri, IDLE_REDIFF_MS);
  }

  /** Rebuilds a document's maps from a fresh diff: after a save, a revert, a close, or when idle. */
  private scheduleRediff(uri: vscode.Uri, delayMs: number): void {
    const key = uri.toString();
    clearTimeout(this.idleTimers.get(key));
    if (this.entriesOf(uri).length === 0) return;
    this.idleTimers.set(key, setTimeout(() => {
      this.idleTimers.delete(key);
      void this.rediff(uri);
    }, delayMs));
  }

  private async rediff(uri: vscode.Uri): Promise<void> {
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    const version = document?.version;
    for (const { entry, scannedPath } of this.entriesOf(uri)) {
      const file = entry.files.get(scannedPath);
      if (!file) continue;
      const relative = entry.changed.get(scannedPath)?.path ?? scannedPath;
      const scannedLines = file.scannedLines ?? splitLines((await this.git.filesAt(entry.folder.uri.fsPath, entry.commit, [scannedPath])).get(scannedPath) ?? '');
      const today = await this.textToday(entry.folder, relative);
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

  private openDocument(folder: vscode.WorkspaceFolder, relativePath: string): vscode.TextDocument | undefined {
    const uri = vscode.Uri.joinPath(folder.uri, relativePath).toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  }

  /**
   * Unsaved edits count; otherwise the file on disk does (a closed editor's document can linger
   * in `textDocuments` with text older than the disk's).
   */
  private async textToday(folder: vscode.WorkspaceFolder, relativePath: string): Promise<string | undefined> {
    const document = this.openDocument(folder, relativePath);
    return document?.isDirty ? document.getText() : this.diskText(folder, relativePath);
  }

  private async diskText(folder: vscode.WorkspaceFolder, relativePath: string): Promise<string | undefined> {
    try {
      return await readFile(vscode.Uri.joinPath(folder.uri, relativePath).fsPath, 'utf8');
    } catch {
      return undefined;
    }
  }

  dispose(): void {
    for (const timer of this.idleTimers.values()) clearTimeout(timer);
    for (const d of this.disposables) d.dispose();
  }
}

/** A file's map from its scanned lines to its text today, with no edits on top yet. */
function fileDrift(scannedLines: readonly string[], today: string): FileDrift {
  return { scannedLines, base: new LineMap(diffLines(scannedLines, splitLines(today))), edits: [] };
}

function describeEntry(e: CommitDrift): string {
  return `${e.folder.name}@${e.commit.slice(0, 7)}: ${e.state}${e.stale ? ' (stale)' : ''}${e.running ? ' (mapping)' : ''}, ${e.changed.size} files changed since the scan, ${e.files.size} mapped`;
}

function keyOf(folder: vscode.WorkspaceFolder, commit: string): string {
  return `${folder.uri.toString()}|${commit}`;
}

/** Nothing followed the cursor: the line after the inserted text is exactly the text's last line. */
function atLineEnd(document: vscode.TextDocument, change: vscode.TextDocumentContentChangeEvent): boolean {
  if (!change.range.isEmpty) return false;
  const parts = change.text.split(/\r\n|\r|\n/);
  const lastLine = change.range.start.line + parts.length - 1;
  if (lastLine >= document.lineCount) return false;
  const tail = parts[parts.length - 1] ?? '';
  const line = document.lineAt(lastLine).text;
  return parts.length > 1 ? line === tail : line.length === change.range.start.character + tail.length;
}

/** Every finding of this entry is placed where it was scanned: not mapped (yet), or nothing differs. */
function placesAsScanned(entry: CommitDrift): boolean {
  return entry.state !== 'mapped' || (entry.changed.size === 0 && entry.files.size === 0);
}
