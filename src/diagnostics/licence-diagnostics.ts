/**
 * Licence diagnostics: on each line of an open manifest or lockfile whose dependency the
 * organization's licence policy blocks (an error) or comments on (a warning). A collection of
 * their own, apart from the findings', so a refresh of one never clears the other; the lines
 * follow edits because they are located again in each version of the document.
 */
import * as vscode from 'vscode';
import { licenceDiagnosticMessage, licenceDiagnosticSeverity } from '../core/workspace/dependency-facts';
import { INVENTORY_SELECTOR, type DependencyLines } from '../editor/dependency-lines';
import { DIAGNOSTIC_SOURCE } from './finding-diagnostic';

/** Typing settles before the lines are located again. */
const EDIT_PAUSE_MS = 300;

const SEVERITIES = { error: vscode.DiagnosticSeverity.Error, warning: vscode.DiagnosticSeverity.Warning } as const;

export class LicenceDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('appsecFindings.licences');
  private readonly subscriptions: vscode.Disposable[];
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly lines: DependencyLines) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => void this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      lines.onDidChange(() => this.updateAll()),
    ];
    this.updateAll();
  }

  /** Every open manifest and lockfile, located again (the inventory or the findings changed). */
  updateAll(): void {
    for (const document of vscode.workspace.textDocuments) void this.update(document);
  }

  private later(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(key, setTimeout(() => {
      this.timers.delete(key);
      void this.update(document);
    }, EDIT_PAUSE_MS));
  }

  private async update(document: vscode.TextDocument): Promise<void> {
    if (vscode.languages.match(INVENTORY_SELECTOR, document) === 0) return;
    const version = document.version;
    const located = await this.lines.linesOf(document);
    // A newer version is on its way: it sets its own.
    if (document.isClosed || document.version !== version) return;
    const diagnostics: vscode.Diagnostic[] = [];
    for (const { line, start, end, item } of located) {
      const message = licenceDiagnosticMessage(item);
      const severity = licenceDiagnosticSeverity(item);
      if (!message || !severity) continue;
      const diagnostic = new vscode.Diagnostic(new vscode.Range(line, start, line, end), message, SEVERITIES[severity]);
      diagnostic.source = DIAGNOSTIC_SOURCE;
      diagnostic.code = 'licence-policy';
      diagnostics.push(diagnostic);
    }
    this.collection.set(document.uri, diagnostics);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    for (const s of this.subscriptions) s.dispose();
    this.collection.dispose();
  }
}
