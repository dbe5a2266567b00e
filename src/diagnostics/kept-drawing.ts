/**
 * What the last drawing planned per scanned file, and whether VS Code holds it: the next drawing
 * with the same inputs leaves the files it would draw the same (`drawing-plan.ts`, `DrawnPath`).
 * The record is trusted only once a drawing was handed over whole, and a file drawn on its own
 * since (an edit, a trace read) is planned again.
 */
import type * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { WorkspaceRepo } from '../host/workspace-repos';

/**
 * The findings drawn in one file (of one folder), planned again when the file is edited: keeping
 * the findings rather than their planned diagnostics keeps less alive per finding
 * (docs/performance.md, "Memory").
 */
export interface FileSource {
  readonly repo: WorkspaceRepo;
  readonly findings: Finding[];
}

/**
 * What a drawing planned for the findings of one scanned file of one folder. The next drawing
 * with the same inputs (where findings are today, the settings) leaves that file as it is when
 * its findings are the same objects in the same order, without planning or building them: a
 * refresh that changed a few files plans and builds a few files (docs/performance.md, "After the
 * last answer").
 */
export interface DrawnPath {
  readonly findings: readonly Finding[];
  readonly repo: WorkspaceRepo;
  /** Today's file its diagnostics went to, when they all went to one file no other scanned file shares. */
  readonly file: { readonly uri: vscode.Uri; readonly key: string; readonly source: FileSource } | undefined;
  /** Its diagnostics in that file, and its findings whose code is gone. */
  readonly shown: number;
  readonly gone: number;
  /** What it asked to have mapped onto today's code: scanned paths by commit. */
  readonly wanted: ReadonlyMap<string, ReadonlySet<string>>;
}

export type DrawnPaths = ReadonlyMap<string, DrawnPath>;

export class KeptDrawing {
  private record: { readonly paths: DrawnPaths; readonly inputs: number } | undefined;
  /** Files drawn on their own and not planned since. */
  private readonly redrawn = new Set<string>();

  /** What a drawing made with `inputs` may keep, if anything. */
  previousFor(inputs: number): { previous: DrawnPaths; redrawn: ReadonlySet<string> } | undefined {
    return this.record?.inputs === inputs ? { previous: this.record.paths, redrawn: new Set(this.redrawn) } : undefined;
  }

  /** A file was drawn on its own (its diagnostics are no longer what the record says). */
  drewAlone(key: string): void {
    this.redrawn.add(key);
  }

  /**
   * A drawing starts handing over the files it `planned`: nothing is trusted until it is all
   * handed over (`handedOver`).
   */
  handingOver(planned: Iterable<string>): void {
    this.record = undefined;
    for (const key of planned) this.redrawn.delete(key);
  }

  handedOver(paths: DrawnPaths, inputs: number): void {
    this.record = { paths, inputs };
  }

  /** Problems was drawn otherwise (cleared, a preview of a drawing that may not land). */
  forget(): void {
    this.record = undefined;
  }
}

export function sameRepo(a: WorkspaceRepo, b: WorkspaceRepo): boolean {
  return a.folder.uri.toString() === b.folder.uri.toString() && a.projectName === b.projectName && a.commit === b.commit && a.branch === b.branch;
}

/** The same items in the same order, by identity. */
export function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
