/**
 * What one workspace folder shows: the findings of its project on the ref shown, the filters the
 * extension applies itself, and what is known of which findings are new on the branch. Pure data
 * (the workspace view decides it); Problems, the status bar, the badge and the cache writer read it.
 */
import type { Finding } from '../model/types';
import { CLOSED_STATUSES } from '../workspace/diagnostic-plan';
import type { KindGap } from './kind-gaps';
import type { Place } from './place';

/** What the view needs of a folder: the project it is matched to and its checked-out branch. */
export interface FolderRef {
  readonly projectName: string;
  /** The checked-out branch, when git knows it (detached HEAD: undefined). */
  readonly branch?: string;
}

export interface FolderFindings<R extends FolderRef = FolderRef> {
  readonly repo: R;
  /** The folder's identity (its URI as a string): names its store slots and its novelty tracking. */
  readonly key: string;
  /** The folder's place (`place.ts`): its branch, whether that was scanned, its fallback and novelty, as the tree decides them too. */
  readonly place: Place;
  /** The ref whose findings are shown (current branch, or primary as fallback). */
  readonly ref: string | undefined;
  readonly usedFallback: boolean;
  readonly findings: readonly Finding[];
  /** The store slots whose answers these findings are (none for findings drawn from the disk cache). */
  readonly slots: readonly string[];
  /** Set when the branch has its own scan and its primary branch's findings are loaded. */
  readonly novelty?: FolderNovelty;
  /** The filter "only new on this branch" is on: Problems shows only new findings. */
  readonly newOnBranch: boolean;
  /** The user's filters in words ("open · critical"), when any is set: an empty list says them. */
  readonly filters?: string;
  /** The filters the extension applies itself (files, only new, AI), when any is set. */
  readonly keep?: (finding: Finding) => boolean;
  /** Set while these findings come from the last session's cache: when they were loaded. */
  readonly cachedAt?: Date;
  /** The kinds not shown fresh: not available for this deployment, or failed (earlier findings kept). */
  readonly gaps?: readonly KindGap[];
}

export interface FolderNovelty {
  /** The branch the findings are compared with. */
  readonly primary: string;
  isNew(finding: Finding): boolean;
}

/** The folder's findings Problems shows: those the extension's own filters keep. */
export function shownInProblems(folder: FolderFindings): readonly Finding[] {
  const { keep } = folder;
  return keep ? folder.findings.filter(keep) : folder.findings;
}

/**
 * What Problems shows of the folder and is open (fixed and ignored ones are not problems). Kept per
 * folder object (they never change), so the badge, the status bar and its every redraw on a
 * change of editor share one pass over the findings.
 */
export function openInProblems(folder: FolderFindings): readonly Finding[] {
  let open = openByFolder.get(folder);
  if (!open) openByFolder.set(folder, (open = shownInProblems(folder).filter((f) => !CLOSED_STATUSES.has(f.status))));
  return open;
}
const openByFolder = new WeakMap<FolderFindings, readonly Finding[]>();
