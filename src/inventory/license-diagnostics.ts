/**
 * License diagnostics: on each line of a workspace manifest or lockfile whose dependency the
 * organization's license policy blocks (an error) or comments on (a warning). A collection of
 * their own, apart from the findings', so a refresh of one never clears the other.
 *
 * Problems lists them for every such file the inventory knows, open or not, as it lists findings
 * of files never opened: a file not open in an editor is read from disk (never opened as a
 * document, which would fire `onDidOpenTextDocument` and keep a model), and its lines are located
 * by the same rule as an open document's (`DependencyLines.linesOfText`). An open document's lines
 * follow its edits, located again in each version; closing it reads the file from disk again, so
 * its problems stay (as saved) for as long as the inventory knows the file.
 */
import * as vscode from 'vscode';
import { licenseDiagnosticMessage, licenseDiagnosticSeverity, type DependencyFacts } from '../core/workspace/dependency-facts';
import { INVENTORY_FILES, INVENTORY_SELECTOR, type DependencyLines, type LocatedFacts } from './dependency-lines';
import { DIAGNOSTIC_SOURCE } from '../diagnostics/finding-diagnostic';

/** Typing settles before the lines are located again. */
const EDIT_PAUSE_MS = 300;

const SEVERITIES = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning } as const;

/** A dependency whose license the policy blocks or comments on: its files are read even when not open. */
const hasLicenseProblem = (facts: DependencyFacts): boolean => licenseDiagnosticSeverity(facts) !== undefined;

export class LicenseDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('appsecFindings.licenses');
  private readonly subscriptions: vscode.Disposable[];
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** The latest update asked for each file: an older one finishing later sets nothing. */
  private readonly turns = new Map<string, number>();
  private turn = 0;
  /** The files of the last sweep: the workspace's manifests and lockfiles with a license problem. */
  private known = new Map<string, vscode.Uri>();
  /** A sweep under way, and whether another was asked for meanwhile (it runs once this one ends). */
  private sweeping: Promise<void> | undefined;
  private sweepAgain = false;
  private disposed = false;

  constructor(private readonly lines: DependencyLines) {
    // Changes on disk of a file not open (a checkout, a package manager); a deleted folder is one
    // event for the folder, so deletions are watched for every path.
    const changes = vscode.workspace.createFileSystemWatcher(INVENTORY_FILES, false, false, true);
    const deletions = vscode.workspace.createFileSystemWatcher('**/*', true, true, false);
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => void this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document.uri, () => this.update(e.document))),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      changes,
      changes.onDidCreate((uri) => this.changedOnDisk(uri)),
      changes.onDidChange((uri) => this.changedOnDisk(uri)),
      deletions,
      deletions.onDidDelete((uri) => this.deleted(uri)),
      lines.onDidChange(() => this.updateAll()),
    ];
    this.updateAll();
  }

  /** Every open manifest and lockfile located again, and the workspace's others read again (the inventory or the findings changed). */
  updateAll(): void {
    for (const document of vscode.workspace.textDocuments) void this.update(document);
    this.sweep();
  }

  /** Runs `update` once typing (or a burst of changes on disk) pauses. */
  private later(uri: vscode.Uri, update: () => Promise<void>): void {
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void update();
      }, EDIT_PAUSE_MS),
    );
  }

  private async update(document: vscode.TextDocument): Promise<void> {
    if (vscode.languages.match(INVENTORY_SELECTOR, document) === 0) return;
    const version = document.version;
    const turn = this.nextTurn(document.uri);
    const located = await this.lines.linesOf(document);
    // A newer version is on its way: it sets its own.
    if (document.isClosed || document.version !== version || !this.isTurn(document.uri, turn)) return;
    this.show(document.uri, located);
  }

  /** A file not open in an editor: its text read from disk (none when it is gone). */
  private async updateFromDisk(uri: vscode.Uri): Promise<void> {
    const turn = this.nextTurn(uri);
    let located: readonly LocatedFacts[] = [];
    try {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      located = await this.lines.linesOfText(uri, text);
    } catch {
      // Deleted or unreadable: nothing to show on it.
    }
    // Opened meanwhile: the document's own update sets it.
    if (!this.isTurn(uri, turn) || isOpen(uri)) return;
    this.show(uri, located);
  }

  private show(uri: vscode.Uri, located: readonly LocatedFacts[]): void {
    const diagnostics = diagnosticsOf(located);
    if (diagnostics.length > 0) this.collection.set(uri, diagnostics);
    else this.forget(uri);
  }

  /**
   * The workspace's manifests and lockfiles the inventory knows with a license problem, each not
   * open read from disk; a file no longer among them (and not open) loses its diagnostics. One at
   * a time: asked for during one, it runs again once that one ends.
   */
  private sweep(): void {
    if (this.sweeping) {
      this.sweepAgain = true;
      return;
    }
    this.sweeping = (async () => {
      const files = await this.lines.filesWith(hasLicenseProblem);
      if (this.disposed) return;
      this.known = new Map(files.map((uri) => [uri.toString(), uri]));
      const gone: vscode.Uri[] = [];
      this.collection.forEach((uri) => {
        if (!this.known.has(uri.toString()) && !isOpen(uri)) gone.push(uri);
      });
      for (const uri of gone) this.forget(uri);
      await Promise.all(files.filter((uri) => !isOpen(uri)).map((uri) => this.updateFromDisk(uri)));
    })()
      .catch(() => undefined)
      .finally(() => {
        this.sweeping = undefined;
        if (this.sweepAgain && !this.disposed) {
          this.sweepAgain = false;
          this.sweep();
        }
      });
  }

  /** Closed: a file the inventory knows shows what is saved on disk; another shows nothing. */
  private closed(document: vscode.TextDocument): void {
    if (vscode.languages.match(INVENTORY_SELECTOR, document) === 0) return;
    if (this.known.has(document.uri.toString())) void this.updateFromDisk(document.uri);
    else this.forget(document.uri);
  }

  private changedOnDisk(uri: vscode.Uri): void {
    if (this.known.has(uri.toString()) && !isOpen(uri)) this.later(uri, () => this.updateFromDisk(uri));
  }

  /**
   * A file or folder deleted: the files it held show nothing, unless unsaved edits hold them (the
   * user may save them again). A document with no unsaved edit is no reason to keep them: VS Code
   * keeps a document open for a while after its editor is closed, and Problems would keep the
   * problems of a file that is gone until then.
   */
  private deleted(deleted: vscode.Uri): void {
    const inside = `${deleted.path.replace(/\/+$/, '')}/`;
    const held: vscode.Uri[] = [];
    this.collection.forEach((uri) => {
      if (uri.scheme === deleted.scheme && (uri.path === deleted.path || uri.path.startsWith(inside)) && !isDirty(uri)) held.push(uri);
    });
    for (const uri of held) this.forget(uri);
  }

  /** No diagnostics on the file, and any update of it under way sets none. */
  private forget(uri: vscode.Uri): void {
    this.turns.delete(uri.toString());
    this.collection.delete(uri);
  }

  private nextTurn(uri: vscode.Uri): number {
    this.turns.set(uri.toString(), ++this.turn);
    return this.turn;
  }

  private isTurn(uri: vscode.Uri, turn: number): boolean {
    return !this.disposed && this.turns.get(uri.toString()) === turn;
  }

  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

function isOpen(uri: vscode.Uri): boolean {
  return openDocument(uri) !== undefined;
}

function isDirty(uri: vscode.Uri): boolean {
  return openDocument(uri)?.isDirty === true;
}

function diagnosticsOf(located: readonly LocatedFacts[]): vscode.Diagnostic[] {
  const diagnostics: vscode.Diagnostic[] = [];
  for (const { line, start, end, item } of located) {
    const message = licenseDiagnosticMessage(item);
    const severity = licenseDiagnosticSeverity(item);
    if (!message || !severity) continue;
    const diagnostic = new vscode.Diagnostic(new vscode.Range(line, start, line, end), message, SEVERITIES[severity]);
    diagnostic.source = DIAGNOSTIC_SOURCE;
    diagnostic.code = 'license-policy';
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}
