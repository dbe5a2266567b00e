/**
 * What one folder of the workspace shows, for the workspace view: its place asked and its answers
 * loaded (its branch's, else its primary branch's when the branch was never scanned), the folder
 * read from answers already held without a request, and a folder with today's filters and what is
 * known now of which findings are new. The view decides when to load and to publish; this
 * decides what a folder is, from the view's deps.
 */
import { ISSUE_TYPES, type Finding, type Project } from '../model/types';
import type { BranchBaselines } from './branch-baselines';
import { describeSelection, type FilterSelection } from './filters';
import type { FindingsStore } from './findings-store';
import type { FindingsQuery, FindingsResult } from './findings-query';
import type { FolderFindings, FolderRef } from './folder-view';
import { loadEachKind } from './each-kind';
import { heldPlace, slotOf, slotsOf } from './folder-loads';
import { askedPlace, fallbackPlace, placeOf, type Place, type AskingPlaceDeps, type PlaceAt } from './place';

/** What a folder is loaded and placed with. */
export interface FolderDeps<R extends FolderRef> {
  readonly store: Pick<FindingsStore, 'load' | 'release' | 'state'>;
  readonly baselines: Pick<BranchBaselines, 'ensure' | 'comparedWith' | 'isNew' | 'version'>;
  /** Whether a ref was scanned: the one rule (a branch never scanned shows its primary branch). */
  readonly scans: AskingPlaceDeps['scans'];
  /** A folder's identity (stable while the folder is open). */
  keyOf(repo: R): string;
  project(name: string): Project | undefined;
  selection(): FilterSelection;
}

/** A folder as loaded, before what depends on the moment it is drawn (novelty, local filters). */
export type LoadedFolder<R extends FolderRef> = Omit<FolderFindings<R>, 'newOnBranch' | 'keep' | 'novelty'>;

/** Loads what the folder shows: its branch's answers, else (the branch never scanned) its primary branch's. */
export async function loadFolder<R extends FolderRef>(view: FolderDeps<R>, slug: string, repo: R, force: boolean): Promise<LoadedFolder<R>> {
  const key = view.keyOf(repo);
  const deps = placeDeps(view, slug, true);
  const at = atOf(view, repo);
  const load = (which: 'branch' | 'primary', place: Place) =>
    loadEachKind(view.store, ISSUE_TYPES, slotOf(key, which), (issueType) => place.queries[issueType], { force });
  const asking = placeOf(deps, at, { seen: 0 });
  // On a branch other than the primary one, its findings are compared with the primary's
  // (loaded alongside, never failing the folder) to tell which are new on it.
  const compared = asking.primary !== undefined ? view.baselines.ensure(slug, repo.projectName, force) : Promise.resolve();
  const own = await load('branch', asking);
  const findings = own.results.flatMap((r) => r.findings);
  const place = await askedPlace(deps, at, asking, { seen: findings.length, force });
  await compared;
  const fallback = fallbackPlace(deps, at, place);
  if (!fallback) return { repo, key, place, ref: place.ref, usedFallback: false, findings, slots: slotsOf(key, 'branch'), gaps: own.gaps };
  const primary = await load('primary', fallback);
  return {
    repo,
    key,
    place,
    ref: fallback.ref,
    usedFallback: true,
    findings: primary.results.flatMap((r) => r.findings),
    slots: slotsOf(key, 'primary'),
    gaps: primary.gaps,
  };
}

/** What the places of folders are asked with; without `compare`, nothing is compared (the last session's findings). */
export function placeDeps<R extends FolderRef>(view: FolderDeps<R>, slug: string, compare: boolean): AskingPlaceDeps {
  return { deploymentSlug: slug, selection: () => view.selection(), scans: view.scans, ...(compare ? { baselines: view.baselines } : {}) };
}

const atOf = <R extends FolderRef>(view: FolderDeps<R>, repo: R): PlaceAt => ({
  project: view.project(repo.projectName) ?? { name: repo.projectName },
  checkedOut: repo.branch,
});

/** The folder as `find` holds its answers (its branch's, or else its primary branch's), with today's filters; undefined when it holds none. */
export function heldFolder<R extends FolderRef>(
  view: FolderDeps<R>,
  deps: AskingPlaceDeps,
  repo: R,
  find: (query: FindingsQuery) => FindingsResult | undefined,
  from: 'cache' | 'arriving',
): FolderFindings<R> | undefined {
  const at = atOf(view, repo);
  const own = heldPlace(find, placeOf(deps, at, { seen: 0 }));
  // Asks nothing: what the answers held say (the disk cache keeps the questions' answers too).
  const place = placeOf(deps, at, { seen: own?.reduce((n, r) => n + r.findings.length, 0) ?? 0 });
  const fallback = fallbackPlace(deps, at, place);
  const results = (fallback && heldPlace(find, fallback)) || own;
  if (!results) return undefined;
  const usedFallback = results !== own;
  return decorate(
    view,
    {
      repo,
      key: view.keyOf(repo),
      place,
      ref: usedFallback ? place.fallback : place.ref,
      usedFallback,
      findings: results.flatMap((r) => r.findings),
      slots: [],
      ...(from === 'cache' ? { cachedAt: new Date(Math.min(...results.map((r) => r.loadedAt.getTime()))) } : {}),
    },
    false,
  );
}

/** The folder with today's filters and what is known now of which findings are new (its place again, as scanned when loaded). */
export function decorate<R extends FolderRef>(view: FolderDeps<R>, folder: LoadedFolder<R>, compare: boolean): FolderFindings<R> {
  const place = placeOf(placeDeps(view, folder.place.deploymentSlug, compare), atOf(view, folder.repo), { answer: folder.place.scan });
  const novelty = place.comparedWith !== undefined ? { primary: place.comparedWith, isNew: (finding: Finding) => view.baselines.isNew(finding) } : undefined;
  const selection = view.selection();
  const filters = describeSelection(selection);
  return {
    ...folder,
    place,
    novelty,
    newOnBranch: selection.newOnBranch === true,
    ...(place.keep ? { keep: place.keep.keep } : {}),
    ...(filters ? { filters } : {}),
  };
}
