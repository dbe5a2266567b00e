/**
 * What was learnt of how one deployment answers, so the next request waits for nothing it need
 * not (docs/performance.md, "Round trips"):
 * - how its findings spell branches (`main` or `refs/heads/main`), found by the first answer that
 *   had findings;
 * - how many pages each list took last time, so the next read asks them all (and the end) at once.
 *
 * Kept in memory for the signed-in deployment; `src/host/start-memory.ts` keeps it for the next start.
 */
import type { RefSpelling } from '../model/refs';
import type { ListShape } from '../api/paging';

/** Pages asked at once for a findings list never read (docs/platform-api.md, "Paging"). */
export const FIRST_READ_PAGES = 4;
/** Lists whose page counts are kept: the workspace's, the tree's latest; the oldest go first. */
const MAX_KEPT_LISTS = 200;

/** The options a paged read takes from what was learnt, and how it reports what it found. */
export interface PageHints {
  readonly firstWave: number;
  readonly onEnd: (shape: ListShape) => void;
}

/** The form written to disk. */
export interface AnswerShapesRecord {
  readonly version: 1;
  readonly spelling?: RefSpelling;
  readonly pages?: readonly (readonly [string, number])[];
}

export class AnswerShapes {
  private spellingLearnt: RefSpelling | undefined;
  /** Per list key: pages with items last time (newest last). */
  private readonly pages = new Map<string, number>();
  private changed = false;

  get spelling(): RefSpelling | undefined {
    return this.spellingLearnt;
  }

  learnSpelling(spelling: RefSpelling): void {
    if (this.spellingLearnt === spelling) return;
    this.spellingLearnt = spelling;
    this.changed = true;
  }

  /**
   * How to read the list `key` names (the list and its query, page size included); `unread`: the
   * pages asked at once for a list never read.
   */
  hints(key: string, unread = FIRST_READ_PAGES): PageHints {
    const known = this.pages.get(key);
    return {
      // The pages it took, and one more that is empty if it still holds (its end, asked alongside).
      firstWave: known === undefined ? unread : known + 1,
      onEnd: (shape) => this.learnList(key, shape),
    };
  }

  /** True once something was learnt since the last `record()`. */
  get unsaved(): boolean {
    return this.changed;
  }

  record(): AnswerShapesRecord {
    this.changed = false;
    return {
      version: 1,
      ...(this.spellingLearnt ? { spelling: this.spellingLearnt } : {}),
      pages: [...this.pages],
    };
  }

  /** Takes what a record says, unless something was learnt here already (that is newer). */
  adopt(record: unknown): void {
    if (typeof record !== 'object' || record === null || (record as { version?: unknown }).version !== 1) return;
    const r = record as AnswerShapesRecord;
    if (!this.spellingLearnt && (r.spelling === 'short' || r.spelling === 'full')) this.spellingLearnt = r.spelling;
    for (const entry of Array.isArray(r.pages) ? (r.pages as unknown[]) : []) {
      if (!Array.isArray(entry)) continue;
      const [key, pages] = entry as unknown[];
      if (typeof key === 'string' && typeof pages === 'number' && Number.isInteger(pages) && pages >= 0 && !this.pages.has(key)) this.pages.set(key, pages);
    }
  }

  forget(): void {
    this.spellingLearnt = undefined;
    this.pages.clear();
    this.changed = false;
  }

  private learnList(key: string, shape: ListShape): void {
    if (this.pages.get(key) !== shape.pages) this.changed = true;
    this.pages.delete(key);
    this.pages.set(key, shape.pages);
    if (this.pages.size > MAX_KEPT_LISTS) this.pages.delete(this.pages.keys().next().value as string);
  }
}
