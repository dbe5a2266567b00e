/**
 * The files Problems was given at a start before the view's first snapshot: the part of the
 * cache kept for the files that were open, and what the last session showed (read back from
 * disk before the findings behind it). The renderer keeps them here until its first hand-over,
 * which, as every hand-over, leaves the files it would draw the same and draws over the others
 * (`keepWhatIsShown`).
 */
import * as vscode from 'vscode';
import { isFindingDiagnostic } from './finding-diagnostic';

export class EarlyFiles {
  /** Every file drawn early (its URI as a string). */
  private readonly early = new Set<string>();
  /** Of those, the files whose diagnostics do not know their findings yet. */
  private readonly remembered = new Set<string>();

  /** Returns the file's key (its URI as a string). */
  add(uri: vscode.Uri, remembered: boolean): string {
    const key = uri.toString();
    this.early.add(key);
    if (remembered) this.remembered.add(key);
    return key;
  }

  /** Deletes what was drawn early from `collection`; returns the files it was in. */
  takeBack(collection: vscode.DiagnosticCollection): string[] {
    const files = [...this.early];
    for (const key of files) collection.delete(vscode.Uri.parse(key, true));
    this.clear();
    return files;
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
}

/** Our diagnostics per file (URIs as strings), each knowing its finding, for keeping on disk. */
export function findingDiagnosticsOf(collection: vscode.DiagnosticCollection): [string, vscode.Diagnostic[]][] {
  const files: [string, vscode.Diagnostic[]][] = [];
  collection.forEach((uri, diagnostics) => {
    if (diagnostics.length > 0 && diagnostics.every(isFindingDiagnostic)) files.push([uri.toString(), [...diagnostics]]);
  });
  return files;
}
