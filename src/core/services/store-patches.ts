/**
 * The findings store's patches on what it holds: a local change applied at once to every held
 * answer of its deployment and issue type (one change event), undone exactly when rolled back,
 * and applied to the answer of a load that started before it when that answer lands. How a patch
 * changes one answer is `finding-patches.ts`'s; when to patch, and when a load lands, the store's.
 */
import type { IssueType } from '../model/types';
import { indexKey, type FindingIndex } from './finding-index';
import { applyPatch, PatchSequence, undoPatch, type ActivePatch, type FindingChange, type PatchHandle } from './finding-patches';
import type { Entry } from './store-entries';

export class StorePatches {
  private readonly patches = new PatchSequence();

  constructor(
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly index: FindingIndex,
    private readonly fire: (keys: readonly string[]) => void,
  ) {}

  /** The number of the latest patch: a load that starts now has seen every patch up to it. */
  get latest(): number {
    return this.patches.latest;
  }

  /** Changes the loaded findings with these ids in every held answer, with one change event. */
  patch(deploymentSlug: string, issueType: IssueType, ids: readonly number[], change: FindingChange): PatchHandle {
    const patch = this.patches.start(indexKey(deploymentSlug, issueType), ids, change);
    const touched = this.applyPatch(patch, [...this.entries.values()]);
    this.fire(touched);
    return {
      rollback: () => this.rollback(patch),
      commit: () => {
        patch.committed = true;
        this.patches.dropSeen(this.entries.values());
      },
    };
  }

  /** Applies the patches made after a load started (at `startSeq`) to its landed answer. */
  landed(entry: Entry, startSeq: number): void {
    for (const patch of this.patches.after(startSeq)) this.applyPatch(patch, [entry]);
    this.patches.dropSeen(this.entries.values());
  }

  clear(): void {
    this.patches.clear();
  }

  private applyPatch(patch: ActivePatch, entries: readonly Entry[]): string[] {
    const targets = entries.filter((e) => indexKey(e.query.deploymentSlug, e.query.issueType) === patch.indexKey);
    return applyPatch(patch, targets, this.index.ids(patch.indexKey));
  }

  private rollback(patch: ActivePatch): void {
    if (!this.patches.remove(patch)) return;
    this.fire(undoPatch(patch, this.entries, this.index.ids(patch.indexKey)));
  }
}
