/**
 * The files Problems was given at a start before the view's first snapshot: the part of the
 * cache kept for the files that were open, and what the last session showed (read back from
 * disk before the findings behind it). The renderer keeps them here until its first hand-over,
 * which keeps the remembered files it would draw the same (giving them their findings) and
 * otherwise draws over them.
 */
import type * as vscode from 'vscode';
import type { Keep } from './diagnostics-publisher';
import { isFindingDiagnostic } from './finding-diagnostic';
import { giveFindings, sameDiagnostics } from './shown-diagnostics';

export class EarlyFiles {
  /** Every file drawn early (its URI as a string). */
  private readonly early = new Set<string>();
  /** Of those, the files whose diagnostics do not know their findings yet. */
  private readonly remembered = new Set<string>();

  add(uri: vscode.Uri, remembered: boolean): void {
    this.early.add(uri.toString());
    if (remembered) this.remembered.add(uri.toString());
  }

  get files(): ReadonlySet<string> {
    return this.early;
  }

  /** Some diagnostic shown does not know its finding yet. */
  get unattached(): boolean {
    return this.remembered.size > 0;
  }

  clear(): void {
    this.early.clear();
    this.remembered.clear();
  }

  /**
   * Which files a hand-over leaves as they are: remembered files whose diagnostics are the same
   * as planned now get their findings instead of being handed over again. Asked once per
   * hand-over: from then on, what was drawn early is that drawing's.
   */
  keepOnHandOver(collection: vscode.DiagnosticCollection): Keep | undefined {
    const remembered = new Set(this.remembered);
    this.clear();
    if (remembered.size === 0) return undefined;
    return (uri, built) => {
      if (!built || !remembered.has(uri.toString())) return false;
      const shown = collection.get(uri);
      if (!shown || !sameDiagnostics(shown, built)) return false;
      giveFindings(shown, built);
      return true;
    };
  }
}

/** Our diagnostics per file (URIs as strings), each knowing its finding, for keeping on disk. */
export function findingDiagnosticsOf(collection: vscode.DiagnosticCollection): [string, vscode.Diagnostic[]][] {
  const files: [string, vscode.Diagnostic[]][] = [];
  collection.forEach((uri, diagnostics) => {
    if (diagnostics.length > 0 && diagnostics.every(isFindingDiagnostic)) files.push([uri.toString(), [...diagnostics]]);
  });
  return files;
}
