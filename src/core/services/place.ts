/**
 * The one model of what a *place* shows, for every view. A place is one project at one ref with
 * the user's filters: a workspace folder (Problems, the status bar, the badge: `workspace-view.ts`)
 * and a project node of the Projects tree (`project-view.ts`) are both places, and both ask
 * `placeOf` instead of deciding on their own:
 * - the ref: the one chosen (in the tree, a command's argument), else the branch checked out,
 *   else the primary branch (`shownRef`);
 * - each kind's query, with the user's filters (`shownQuery`), so equal places share one answer;
 * - whether the ref was scanned, as `ref-scans.ts` decides (asked only of a branch other than the
 *   primary one), and the primary branch to fall back on when it never was: Problems shows its
 *   findings instead, the tree offers them;
 * - the branch its findings are compared with (novelty: never while falling back) and the filters
 *   the extension applies itself (`shownFilter`).
 */
import { perKind } from '../model/finding-kinds';
import type { Finding, IssueType, Project } from '../model/types';
import type { BranchNovelty } from './branch-baselines';
import type { FilterSelection } from './filters';
import type { FindingsQuery } from './findings-query';
import type { RefScan, RefScanNow, RefScanOptions, RefScans } from './ref-scans';
import { checkedOutBranch, shownFilter, shownQuery, shownRef } from './shown-queries';

export interface PlaceDeps {
  readonly deploymentSlug: string;
  selection(): FilterSelection;
  readonly scans: Pick<RefScans, 'now' | 'known'>;
  /** What is new on a branch; without it nothing is compared (the last session's findings). */
  readonly baselines?: Pick<BranchNovelty, 'isNew' | 'comparedWith' | 'version'>;
}

/** What a reader that asks the platform (a refresh) gives. */
export interface AskingPlaceDeps extends PlaceDeps {
  readonly scans: Pick<RefScans, 'now' | 'known' | 'ask'>;
}

/** Where a place is: a project (as listed, else by name alone) and the ref chosen or checked out. */
export interface PlaceAt {
  readonly project: Pick<Project, 'name'> & Partial<Pick<Project, 'primaryBranch' | 'defaultBranch'>>;
  /** The ref chosen for the project (the tree's choice, a command's argument). */
  readonly chosen?: string;
  /** The branch checked out in the workspace folder that holds the project. */
  readonly checkedOut?: string;
}

/**
 * How a reader learns from `ref-scans.ts` whether the ref was scanned: `now` for a view that draws
 * at once (`checking` while the question is asked in the background); `seen` asks nothing (what
 * the answers held say, with the findings an answer under the user's filters brought); `answer`
 * is what was found earlier (`askedPlace`, or the place a snapshot was loaded with).
 */
export type ScanReading = 'now' | { readonly seen: number } | { readonly answer: RefScanNow | undefined };

/** The filters the extension applies itself, keyed by what they depend on. */
export interface LocalFilter {
  /** Changes whenever `keep` may answer differently. */
  readonly key: string;
  readonly keep: (finding: Finding) => boolean;
}

export interface Place {
  readonly deploymentSlug: string;
  readonly projectName: string;
  /** The ref the place is at (undefined: the platform's default). */
  readonly ref: string | undefined;
  /** The project's primary branch, when `ref` is another branch. */
  readonly primary?: string;
  /** Each kind's query: the project at `ref`, with the user's filters. */
  readonly queries: Readonly<Record<IssueType, FindingsQuery>>;
  /** Whether `ref` was scanned; undefined when nothing is asked (the primary branch itself, or no ref). */
  readonly scan?: RefScanNow;
  /** The primary branch, when `ref` was never scanned: shown (Problems) or offered (the tree) instead. */
  readonly fallback?: string;
  /** The branch the findings are compared with, once its findings are loaded; never while falling back. */
  readonly comparedWith?: string;
  /** The filters the extension applies itself, when any is set. */
  readonly keep?: LocalFilter;
}

/** Where a project's place is: the ref chosen for it (the tree's, a command's), and the branch its workspace folder has checked out. */
export function placeAt(
  project: PlaceAt['project'],
  chosen: string | undefined,
  repos: readonly { readonly projectName?: string; readonly branch?: string }[],
): PlaceAt {
  return { project, chosen, checkedOut: checkedOutBranch(repos, project.name) };
}

/** The ref a place is at, which needs no answer of the platform's: chosen, else checked out, else the primary branch. */
export function refAt(at: PlaceAt): string | undefined {
  return shownRef(at.project, at.chosen, at.checkedOut).ref;
}

/** What a place shows, as far as the reading says whether its ref was scanned. */
export function placeOf(deps: PlaceDeps, at: PlaceAt, reading: ScanReading): Place {
  const { name } = at.project;
  const { ref, fallback: primary } = shownRef(at.project, at.chosen, at.checkedOut);
  const selection = deps.selection();
  const queryOf = (issueType: IssueType): FindingsQuery => shownQuery(deps.deploymentSlug, selection, issueType, name, ref);
  const scan = primary !== undefined && ref !== undefined ? scanOf(deps, name, ref, reading) : undefined;
  const fallback = scan === 'unscanned' ? primary : undefined;
  const { baselines } = deps;
  const comparedWith = primary !== undefined && fallback === undefined ? baselines?.comparedWith(name) : undefined;
  // Without the comparison known, "only new" keeps nothing new: no finding is claimed new unchecked.
  const keep = shownFilter(selection, comparedWith !== undefined ? baselines : undefined);
  return {
    deploymentSlug: deps.deploymentSlug,
    projectName: name,
    ref,
    queries: perKind(queryOf),
    ...(primary !== undefined ? { primary } : {}),
    ...(scan !== undefined ? { scan } : {}),
    ...(fallback !== undefined ? { fallback } : {}),
    ...(comparedWith !== undefined ? { comparedWith } : {}),
    ...(keep
      ? {
          keep: {
            key: JSON.stringify([selection.paths, selection.newOnBranch === true, selection.aiFindings ?? '', comparedWith ?? '', baselines?.version ?? 0]),
            keep,
          },
        }
      : {}),
  };
}

/**
 * The place once the platform was asked whether its ref was scanned (a refresh waits for it);
 * `seen` is how many findings its own answers brought under the user's filters (one proves it).
 */
export async function askedPlace(deps: AskingPlaceDeps, at: PlaceAt, place: Place, options: RefScanOptions): Promise<Place> {
  if (place.scan === undefined || place.ref === undefined) return place;
  const answer: RefScan = await deps.scans.ask(deps.deploymentSlug, place.projectName, place.ref, options);
  return placeOf(deps, at, { answer });
}

/** The place whose findings are shown instead, when the ref was never scanned: its primary branch. */
export function fallbackPlace(deps: PlaceDeps, at: PlaceAt, place: Place): Place | undefined {
  return place.fallback === undefined ? undefined : placeOf(deps, { project: at.project, chosen: place.fallback }, { seen: 0 });
}

function scanOf(deps: PlaceDeps, projectName: string, ref: string, reading: ScanReading): RefScanNow | undefined {
  if (reading === 'now') return deps.scans.now(deps.deploymentSlug, projectName, ref);
  if ('answer' in reading) return reading.answer;
  return deps.scans.known(deps.deploymentSlug, projectName, ref, reading.seen) ?? 'unknown';
}
