/**
 * The rules every place that shows a project's findings follows, so they ask the same queries
 * (one answer in the store serves them all) and keep the same findings. Problems' folders and the
 * tree's nodes read them through `place.ts`, one model of a place for both; SARIF and the agent
 * call them directly. Whether a ref was scanned, so falls back to its primary branch, is decided
 * in `ref-scans.ts`.
 */
import { refToShow } from '../model/refs';
import type { Finding, IssueType } from '../model/types';
import type { BranchNovelty } from './branch-baselines';
import { localFilterOf, toQueryFilters, type FilterSelection } from './filters';
import type { FindingsQuery } from './findings-query';

/**
 * The ref a project shows, with the primary branch to fall back on when that ref was never
 * scanned: the ref chosen (in the tree, or a command's argument), else the branch checked out in
 * the workspace (what Problems shows), else the primary branch, else the default branch.
 */
export function shownRef(project: Parameters<typeof refToShow>[1], chosen: string | undefined, checkedOut: string | undefined): ReturnType<typeof refToShow> {
  return refToShow(chosen ?? checkedOut, project);
}

/** The branch checked out in the workspace folder that holds a project, when one does. */
export function checkedOutBranch(repos: readonly { readonly projectName?: string; readonly branch?: string }[], projectName: string): string | undefined {
  return repos.find((repo) => repo.projectName === projectName)?.branch;
}

/**
 * The query for one kind of a project's findings at a ref, with the user's filters. Deduplicated
 * as the web UI counts them (docs/platform-api.md, "Paging").
 */
export function shownQuery(
  deploymentSlug: string,
  selection: FilterSelection,
  issueType: IssueType,
  projectName: string,
  ref: string | undefined,
): FindingsQuery {
  return { deploymentSlug, issueType, filters: toQueryFilters(selection, issueType, { repo: projectName, dedup: true, ...(ref ? { ref } : {}) }) };
}

/**
 * The filters the extension applies itself (files, AI only or without, only new on the branch);
 * undefined when none is set. Without novelty known, "only new" keeps nothing new.
 */
export function shownFilter(selection: FilterSelection, novelty?: Pick<BranchNovelty, 'isNew'>): ((finding: Finding) => boolean) | undefined {
  return localFilterOf(selection, novelty && ((finding) => novelty.isNew(finding)));
}
