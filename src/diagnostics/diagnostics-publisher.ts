/**
 * Hands diagnostics to VS Code without freezing the extension host. A few thousand go in one
 * `set`; more are handed over in chunks with a turn of the event loop between them, the files
 * open in an editor first, so what the user looks at is drawn at once and the host keeps
 * answering (hovers, typing, other extensions) while the rest follows. Each diagnostic object is
 * built just before its chunk is handed over, so the building is sliced too.
 */
import * as vscode from 'vscode';
import { nextTurn } from '../core/slices';
import { DIAGNOSTICS_PER_SET, setBatches } from '../core/workspace/set-batches';

/**
 * Diagnostics built and handed over per turn of the event loop at most, in one `set` call (at
 * most 1 000 reach the window from one call, see set-batches.ts). Fewer per turn leave room for a
 * minor collection in the same turn without a long stall (docs/performance.md, "Drawing
 * diagnostics").
 */
export const PUBLISH_CHUNK = 1000;

/**
 * A turn that has run this long hands over no further `set`, whatever its chunk allows. VS Code
 * serializes and writes out each `set` at once, and how long that takes varies widely with the
 * machine and the garbage collector, so two slow ones in one turn make a long stall; under this
 * budget a quick host still takes several per turn (docs/performance.md, "Drawing diagnostics").
 */
const TURN_BUDGET_MS = 10;

export type Publication<T> = readonly (readonly [vscode.Uri, readonly T[] | undefined])[];

/**
 * Asked with each file's diagnostics as built: true when what VS Code already has for the file
 * stays (it is the same), so the file is not handed over again.
 */
export type Keep = (uri: vscode.Uri, built: readonly vscode.Diagnostic[] | undefined) => boolean;

/** A file whose diagnostics stay as they are. */
const KEPT = Symbol('kept');

export class DiagnosticsPublisher {
  private generation = 0;
  /** Files redrawn on their own (an edit) since the publication began: its chunks leave them. */
  private readonly redrawn = new Set<string>();

  constructor(
    private readonly collection: vscode.DiagnosticCollection,
    private readonly chunk = PUBLISH_CHUNK,
    private readonly turnBudgetMs = TURN_BUDGET_MS,
  ) {}

  /**
   * Publishes every entry (undefined: clear that file), at most `chunk` diagnostics per turn
   * and fewer when VS Code is slow to take them (see TURN_BUDGET_MS). Resolves true
   * when all are handed over, or false at once when a later publication or `cancel` replaces
   * this one (it draws everything itself).
   */
  async publish<T>(entries: Publication<T>, build: (item: T) => vscode.Diagnostic, keep?: Keep, chunk = this.chunk): Promise<boolean> {
    const generation = ++this.generation;
    this.redrawn.clear();
    const total = entries.reduce((n, [, items]) => n + (items?.length ?? 0), 0);
    const built = (uri: vscode.Uri, items: readonly T[] | undefined): vscode.Diagnostic[] | undefined | typeof KEPT => {
      const diagnostics = items?.map(build);
      return keep?.(uri, diagnostics) ? KEPT : diagnostics;
    };
    if (total <= chunk) {
      this.hand(entries.map(([uri, items]) => [uri, built(uri, items)]));
      return true;
    }
    // One `set` at a time (the same batches `hand` makes); the turn is given away before the next
    // once it would pass `chunk`, or once this turn has run its budget (VS Code took its time, or
    // building files that stay as they are did). Files kept count only against the budget: no
    // `set` carries them.
    let handedThisTurn = 0;
    let turnStarted = performance.now();
    for (const part of setBatches(openFirst(entries))) {
      if (performance.now() - turnStarted >= this.turnBudgetMs || (handedThisTurn > 0 && handedThisTurn + DIAGNOSTICS_PER_SET > chunk)) {
        await nextTurn();
        if (generation !== this.generation) return false;
        handedThisTurn = 0;
        turnStarted = performance.now();
      }
      handedThisTurn += this.hand(part.map(([uri, items]) => [uri, built(uri, items)]));
    }
    return true;
  }

  /** A file drawn again by itself while a publication is under way: its later chunk must not undo that. */
  redrew(uri: vscode.Uri): void {
    this.redrawn.add(uri.toString());
  }

  /** Stops a publication under way (the collection is about to be cleared). */
  cancel(): void {
    this.generation++;
  }

  /** Sets what changed of `batch`; returns how many diagnostics that handed over (a file emptied counts one). */
  private hand(batch: [vscode.Uri, vscode.Diagnostic[] | undefined | typeof KEPT][]): number {
    const handed = batch.filter((entry): entry is [vscode.Uri, vscode.Diagnostic[] | undefined] => entry[1] !== KEPT && !this.redrawn.has(entry[0].toString()));
    for (const part of setBatches(handed)) this.collection.set(part);
    return handed.reduce((n, [, diagnostics]) => n + (diagnostics?.length ?? 1), 0);
  }
}

/** Files in a visible editor, then other open documents, then the rest (in their order). */
function openFirst<T>(entries: Publication<T>): Publication<T> {
  const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
  const open = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
  const rank = (uri: vscode.Uri): number => (visible.has(uri.toString()) ? 0 : open.has(uri.toString()) ? 1 : 2);
  return [...entries].sort((a, b) => rank(a[0]) - rank(b[0]));
}
