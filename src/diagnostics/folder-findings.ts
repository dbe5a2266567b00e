/**
 * What Problems shows for one workspace folder: the findings of its project on the branch shown,
 * and the filters the extension applies itself. Pure data and filters over it (no `vscode`
 * calls), shared by the diagnostics, the status bar and the view badge.
 */
import type { Finding } from '../core/model/types';
import type { KindGap } from '../core/services/kind-gaps';
import { CLOSED_STATUSES } from '../core/workspace/diagnostic-plan';
import type { WorkspaceRepo } from '../host/workspace-repos';

export interface FolderFindings {
  readonly repo: WorkspaceRepo;
  /** The ref whose findings are shown (current branch, or primary as fallback). */
  readonly ref: string | undefined;
  readonly usedFallback: boolean;
  readonly findings: readonly Finding[];
  /** The store slots whose answers these findings are. */
  readonly slots: readonly string[];
  /** Set when the branch has its own scan and its primary branch's findings are loaded. */
  readonly novelty?: FolderNovelty;
  /** The filter "only new on this branch" is on: Problems shows only new findings. */
  readonly onlyNew: boolean;
  /** The filters the extension applies itself (files, only new), when any is set. */
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

/** The folder's findings Problems shows: those the extension's own filters (files, only new) keep. */
export function shownInProblems(folder: FolderFindings): readonly Finding[] {
  const { keep } = folder;
  return keep ? folder.findings.filter(keep) : folder.findings;
}

/**
 * What Problems shows of the folder and is open (fixed and ignored ones are not problems). Kept per
 * folder object (they never change), so the badge, the status bar and its every redraw on a
 * change of editor share one pass over 50 000 findings.
 */
export function openInProblems(folder: FolderFindings): readonly Finding[] {
  let open = openByFolder.get(folder);
  if (!open) openByFolder.set(folder, (open = shownInProblems(folder).filter((f) => !CLOSED_STATUSES.has(f.status))));
  return open;
}
const openByFolder = new WeakMap<FolderFindings, readonly Finding[]>();
