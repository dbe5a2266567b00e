/**
 * What each cause of a refresh does, in one place (`register-refresh.ts` only wires them), and
 * the one path a refresh takes: forget what is stale → the workspace view loads what the matched
 * folders show, while the project list and the workspace's own projects load beside it (nothing
 * waits for the list: the folders are matched by what is known before it) → Problems draws one
 * snapshot → the badge, the status bar and the cache writer follow what Problems drew. The list,
 * once read, matches the folders again; a different match is a refresh of its own. Each cause
 * starts one refresh of the view; a refresh asked for while one runs is coalesced into one more
 * after it.
 */
import type { FindingsStore } from '../core/services/findings-store';
import type { KindGap } from '../core/services/kind-gaps';
import type { PoliciesService } from '../core/services/policies-service';
import type { ProjectsService } from '../core/services/projects-service';
import type { Session } from '../core/services/session';
import type { WorkspaceView } from '../core/services/workspace-view';
import type { GitWorkspaceRepos } from './git-workspace-repos';

export interface RefreshAllDeps {
  readonly session: Pick<Session, 'state' | 'restore'>;
  /** The base URL requests go to: with the deployment, it says whose data the views show. */
  readonly baseUrl: () => string;
  /** Told when the deployment at changed settings could not be read (what is shown stays). */
  readonly onDeploymentUnread?: (error: unknown) => void;
  readonly findings: Pick<FindingsStore, 'expire' | 'clear'>;
  readonly projects: Pick<ProjectsService, 'load' | 'clear' | 'state' | 'find' | 'readKnown'>;
  readonly policies: Pick<PoliciesService, 'clear' | 'expire'>;
  /** The supply-chain inventory: read again after a forced refresh, forgotten on sign-out. */
  readonly inventory?: { expire(): void };
  readonly repos: Pick<GitWorkspaceRepos, 'recompute' | 'repos'>;
  readonly view: Pick<WorkspaceView<never>, 'refresh' | 'settled' | 'clear'>;
  readonly trees: { readonly projects: { refresh(): void }; readonly policies: { refresh(): void } };
  /** Where findings are today: a refresh may bring other scans and the copy may have moved on. */
  readonly places: { forgetScans(): void; readonly drift: { invalidate(): void } };
  /** The findings kept on disk: forgotten with everything else (sign-out). */
  readonly cache?: { clear(): Promise<void> };
  /** Told once per refresh of the kinds that failed (their earlier findings stay, marked stale). */
  readonly onKindsFailed?: (gaps: readonly KindGap[]) => void;
}

export interface RefreshAll {
  /**
   * Reloads projects, findings and views (`force`: fetch again what is fresh); resolves when
   * Problems shows the answers. A kind that fails does not fail it (it is told to `onKindsFailed`);
   * the project list, the token's own read, does when no folder could be matched without it.
   */
  refreshAll(force: boolean): Promise<void>;
  /** Forgets everything shown (sign-out, deployment change). */
  clearAll(): void;
  /**
   * The base URL or the deployment settings changed: the deployment they name is read again and,
   * when it is another than the views show, everything shown is forgotten and loaded from it.
   * Changes are followed one at a time, in order.
   */
  deploymentSettingsChanged(): Promise<void>;
  /**
   * The workspace's repositories changed (a checkout, a commit, a folder, a new match): what
   * differs from the scanned commit is computed again, and the view loads what the folders show.
   */
  reposChanged(): Promise<readonly KindGap[]>;
}

export function refreshAllActions(deps: RefreshAllDeps): RefreshAll {
  // Whose data the views show: the base URL and the deployment of the last refresh.
  let shownFrom: string | undefined;
  const clearAll = (): void => {
    shownFrom = undefined;
    forgetEverything(deps);
  };
  const reposChanged = (): Promise<readonly KindGap[]> => {
    // The tree's model hears the repositories' change itself.
    deps.places.drift.invalidate();
    return deps.view.refresh(false);
  };
  const whereNow = (): string | undefined => (deps.session.state.kind === 'signedIn' ? `${deps.baseUrl()} ${deps.session.state.deployment.id}` : undefined);
  let following = Promise.resolve();
  const actions: RefreshAll = {
    clearAll,
    reposChanged,
    deploymentSettingsChanged() {
      following = following
        .then(async () => {
          const state = await deps.session.restore();
          if (state.kind !== 'signedIn') return clearAll();
          if (whereNow() === shownFrom) return;
          clearAll();
          await actions.refreshAll(false);
        })
        .catch((error: unknown) => deps.onDeploymentUnread?.(error));
      return following;
    },
    async refreshAll(force) {
      if (deps.session.state.kind !== 'signedIn') return clearAll();
      shownFrom = whereNow();
      await refreshEverything(deps, force);
    },
  };
  return actions;
}

/** What the views show of the last session or deployment, dropped: caches, lists, trees and Problems. */
function forgetEverything(deps: RefreshAllDeps): void {
  void deps.cache?.clear();
  deps.findings.clear();
  deps.projects.clear();
  deps.policies.clear();
  deps.inventory?.expire();
  deps.view.clear();
  deps.trees.projects.refresh();
  deps.trees.policies.refresh();
}

/** Everything read again (asked afresh when `force`), the workspace's folders first. */
async function refreshEverything(deps: RefreshAllDeps, force: boolean): Promise<void> {
  if (force) {
    deps.findings.expire();
    deps.policies.expire();
    deps.inventory?.expire();
    deps.places.forgetScans();
  }
  deps.places.drift.invalidate();
  // Folders matched to a project (by the list, by what is remembered of it, or by their
  // remote) do not wait for the project list: on the real service each request takes
  // hundreds of milliseconds, and the list of a large organization several pages.
  const repos = deps.repos.repos();
  const matched = repos.length > 0;
  // A folder whose project is not known yet shows its branch: once the project is, its
  // primary branch may be the one to show (a branch without a scan falls back to it).
  const unknown = repos.some((repo) => !deps.projects.find(repo.projectName));
  if (matched) void deps.view.refresh(force).catch(() => undefined); // its failure is heard through `settled` below
  // The workspace's own projects are read beside the list, so the tree shows them at once.
  void deps.projects.readKnown(repos.map((repo) => repo.projectName)).catch(() => undefined);
  const listed = deps.projects.load({ force }).then(() => {
    // A different match is a cause of its own: the repositories' change event refreshes the view.
    const rematched = deps.repos.recompute();
    if (!rematched && (!matched || unknown)) void deps.view.refresh(force && !matched).catch(() => undefined);
    deps.trees.projects.refresh();
    deps.trees.policies.refresh();
  });
  if (matched)
    listed.catch(() => undefined); // the tree shows why the list failed
  else await listed;
  const gaps = await deps.view.settled();
  if (gaps.some((gap) => 'failedBecause' in gap)) deps.onKindsFailed?.(gaps);
}
