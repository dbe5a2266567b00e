/**
 * Which findings are **new on a branch**: those whose `match_based_id` the project's primary
 * branch does not have. That is what a developer fixes before merging.
 *
 * The primary branch's findings (every status: one fixed or ignored there is still not new) are
 * loaded through the store like any other answer, so the tree, Problems and a baseline that ask
 * the same query share one load. A finding is judged on its own `ref` and project, so the answer
 * is the same wherever it is shown. Until the baseline is loaded, or when it fails, nothing is
 * called new: claiming novelty we cannot check would send a developer after old findings.
 *
 * Names: a *baseline* is a project's primary-branch findings (one store answer per kind, slot
 * `baseline:…`), and whatever holds this service is `baselines`; *novelty* is the answer readers
 * get from it (`BranchNovelty`, a folder's `FolderNovelty`, the `novelty` snapshot cause);
 * `newOnBranch` is only the filter that keeps new findings.
 */
import { Emitter, type Disposable, type ListenerErrorReporter } from '../events';
import { primaryRef, sameBranch } from '../model/refs';
import type { Finding, IssueType, Project } from '../model/types';
import type { FindingsStore } from './findings-store';
import type { FindingsQuery, FindingsResult } from './findings-query';
import { shownResult } from './slot-bindings';
import { baselineSlot } from './slot-ids';

/**
 * The kinds whose findings carry a match key (`match_based_id`), the only way a finding is told
 * apart from its copy on the primary branch: secrets have none, so none is ever called new.
 */
const MATCH_KEYED_ISSUE_TYPES: readonly IssueType[] = ['sast', 'sca'];

export interface BranchBaselinesDeps {
  readonly store: FindingsStore;
  readonly project: (name: string) => Pick<Project, 'primaryBranch' | 'defaultBranch'> | undefined;
  /** Told of a baseline that could not be loaded (its findings are then not called new). */
  readonly onLoadFailed?: (projectName: string, error: unknown) => void;
  readonly onListenerError?: ListenerErrorReporter;
}

/** What views need to mark and filter new findings: the novelty the baselines give. */
export interface BranchNovelty {
  isNew(finding: Finding): boolean;
  /** The branch new findings are compared with, once its findings are loaded. */
  comparedWith(projectName: string): string | undefined;
  /** Changes whenever a baseline answer changes: a cache key for views that filter on novelty. */
  readonly version: number;
}

/** The store slot holding a project's primary-branch findings of one issue type. */

export class BranchBaselines implements BranchNovelty, Disposable {
  private readonly keysByResult = new WeakMap<FindingsResult, Set<number>>();
  private readonly projects = new Set<string>();
  /** Projects whose baseline failed: asked again only by a forced load (a refresh), not on every redraw. */
  private readonly failed = new Set<string>();
  private changes = 0;
  private readonly changed: Emitter<void>;
  /** Fires when a baseline landed or was dropped (which findings are new may have changed). */
  readonly onDidChange: Emitter<void>['event'];

  constructor(private readonly deps: BranchBaselinesDeps) {
    this.changed = new Emitter<void>(deps.onListenerError);
    this.onDidChange = this.changed.event;
  }

  get version(): number {
    return this.changes;
  }

  /** The query of a project's baseline: its primary branch, every status, deduplicated like the views. */
  static query(deploymentSlug: string, projectName: string, primary: string, issueType: IssueType): FindingsQuery {
    return { deploymentSlug, issueType, filters: { repos: [projectName], ref: primary, dedup: true } };
  }

  /**
   * Loads (or keeps) the primary branch's findings of a project; never rejects. `force` reloads
   * them, as a refresh does for everything it shows.
   */
  async ensure(deploymentSlug: string, projectName: string, force = false): Promise<void> {
    const primary = primaryRef(this.deps.project(projectName));
    if (!primary || (this.failed.has(projectName) && !force)) return;
    this.projects.add(projectName);
    this.failed.delete(projectName);
    const before = MATCH_KEYED_ISSUE_TYPES.map((issueType) => this.resultOf(projectName, issueType));
    const loads = MATCH_KEYED_ISSUE_TYPES.map((issueType) =>
      this.deps.store.load(baselineSlot(projectName, issueType), BranchBaselines.query(deploymentSlug, projectName, primary, issueType), { force }),
    );
    const outcomes = await Promise.allSettled(loads);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failure) {
      this.failed.add(projectName);
      this.deps.onLoadFailed?.(projectName, failure.reason);
    }
    if (MATCH_KEYED_ISSUE_TYPES.some((issueType, i) => this.resultOf(projectName, issueType) !== before[i])) this.announce();
  }

  /** Drops the baselines of projects not named (no folder shows them any more). */
  keepOnly(projectNames: Iterable<string>): void {
    const keep = new Set(projectNames);
    let dropped = false;
    for (const name of [...this.projects]) {
      if (keep.has(name)) continue;
      this.projects.delete(name);
      for (const issueType of MATCH_KEYED_ISSUE_TYPES) this.deps.store.release(baselineSlot(name, issueType));
      dropped = true;
    }
    if (dropped) this.announce();
  }

  isNew(finding: Finding): boolean {
    const name = finding.repositoryName;
    if (name === undefined || finding.matchKey === undefined || finding.ref === undefined) return false;
    const primary = primaryRef(this.deps.project(name));
    if (primary === undefined || sameBranch(finding.ref, primary)) return false;
    const keys = this.keysOf(name, finding.issueType, primary);
    return keys !== undefined && !keys.has(finding.matchKey);
  }

  comparedWith(projectName: string): string | undefined {
    const primary = primaryRef(this.deps.project(projectName));
    return MATCH_KEYED_ISSUE_TYPES.every((issueType) => this.keysOf(projectName, issueType, primary)) ? primary : undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private announce(): void {
    this.changes++;
    this.changed.fire();
  }

  /**
   * The baseline's answer, only while it is of the project's primary branch as it is now: once the
   * primary branch changes, the old branch's findings would call the wrong findings new. A caller
   * that has the primary branch already passes it: finding the project is a search of the list.
   */
  private resultOf(projectName: string, issueType: IssueType, primary = primaryRef(this.deps.project(projectName))): FindingsResult | undefined {
    if (!this.projects.has(projectName)) return undefined;
    const result = shownResult(this.deps.store.state(baselineSlot(projectName, issueType)));
    return result && sameBranch(result.query.filters.ref, primary) ? result : undefined;
  }

  /** The match keys of the primary branch's findings, computed once per answer. */
  private keysOf(projectName: string, issueType: IssueType, primary: string | undefined): ReadonlySet<number> | undefined {
    const result = this.resultOf(projectName, issueType, primary);
    if (!result) return undefined;
    let keys = this.keysByResult.get(result);
    if (!keys) {
      keys = new Set<number>();
      for (const finding of result.findings) if (finding.matchKey !== undefined) keys.add(finding.matchKey);
      this.keysByResult.set(result, keys);
    }
    return keys;
  }
}
