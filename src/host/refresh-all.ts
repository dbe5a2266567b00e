/**
 * What "refresh everything" and "forget everything" mean, in one place (the composition root
 * only wires them): reload projects, re-match the workspace's folders, redraw both trees, and
 * resolve once Problems shows the new answers; or clear every service and view on sign-out.
 */
import type { FindingsStore } from '../core/services/findings-store';
import type { PoliciesService } from '../core/services/policies-service';
import type { ProjectsService } from '../core/services/projects-service';
import type { Session } from '../core/services/session';
import type { DiagnosticsController } from '../diagnostics/diagnostics-controller';
import type { GitWorkspaceRepos } from './git-workspace-repos';
import type { KindGap } from '../core/services/kind-gaps';

export interface RefreshAllDeps {
  readonly session: Pick<Session, 'state'>;
  readonly findings: Pick<FindingsStore, 'expire' | 'clear'>;
  readonly projects: Pick<ProjectsService, 'load' | 'clear' | 'state'>;
  readonly policies: Pick<PoliciesService, 'clear' | 'expire'>;
  readonly repos: Pick<GitWorkspaceRepos, 'recompute' | 'repos'>;
  readonly diagnostics: Pick<DiagnosticsController, 'refresh' | 'clear'>;
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
   * Reloads projects, diagnostics and views (`force`: fetch again what is fresh); resolves when
   * Problems shows the answers. A kind that fails does not fail it (it is told to `onKindsFailed`);
   * the project list, the token's own read, does.
   */
  refreshAll(force: boolean): Promise<void>;
  /** Forgets everything shown (sign-out, deployment change). */
  clearAll(): void;
}

export function refreshAllActions(deps: RefreshAllDeps): RefreshAll {
  const clearAll = (): void => {
    void deps.cache?.clear();
    deps.findings.clear();
    deps.projects.clear();
    deps.policies.clear();
    deps.diagnostics.clear();
    deps.trees.projects.refresh();
    deps.trees.policies.refresh();
  };
  return {
    clearAll,
    async refreshAll(force) {
      if (deps.session.state.kind !== 'signedIn') return clearAll();
      if (force) {
        deps.findings.expire();
        deps.policies.expire();
        deps.places.forgetScans();
      }
      deps.places.drift.invalidate();
      // Folders already matched to a project do not wait for the project list: their findings
      // load beside it (on the real service each request takes hundreds of milliseconds). Should
      // the new list match the folders differently, Problems is drawn again from the new match.
      const matched = deps.projects.state.kind === 'loaded' && deps.repos.repos().length > 0;
      const early = matched ? deps.diagnostics.refresh(force) : undefined;
      early?.catch(() => undefined); // its failure is the caller's when awaited below, never unheard
      await deps.projects.load({ force });
      const rematched = deps.repos.recompute();
      deps.trees.projects.refresh();
      deps.trees.policies.refresh();
      const gaps = early && !rematched ? await early : await deps.diagnostics.refresh(force);
      if (gaps.some((gap) => 'failedBecause' in gap)) deps.onKindsFailed?.(gaps);
    },
  };
}
