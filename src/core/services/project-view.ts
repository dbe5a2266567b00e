/**
 * What a project shows in the tree, at the ref the tree shows it (its override, else the primary
 * branch), one kind at a time: the query it asks the store, the filters the extension applies
 * itself, the primary branch its findings are compared with, and whether an empty answer means
 * the branch was never scanned. The workspace's folders are decided by `workspace-view.ts`; both
 * follow the rules of `shown-queries.ts`.
 */
import { refToShow } from '../model/refs';
import type { Finding, IssueType, Project } from '../model/types';
import type { BranchNovelty } from './branch-baselines';
import type { FilterSelection } from './filters';
import { queryKey, type FindingsQuery } from './findings-query';
import type { FindingsStore } from './findings-store';
import { shownFilter, shownQuery } from './shown-queries';

/** One kind of one project at a ref, shown in a store slot of its own (the tree's issue-type node fits). */
export interface ShownPlace {
  readonly parent: { readonly project: Pick<Project, 'name' | 'primaryBranch' | 'defaultBranch'>; readonly ref?: string };
  readonly issueType: IssueType;
  readonly slot: string;
}

/** The filters the extension applies itself, keyed by what they depend on. */
export interface LocalFilter {
  /** Changes whenever `keep` may answer differently. */
  readonly key: string;
  keep(finding: Finding): boolean;
}

/** A branch never scanned: the primary branch's findings are offered instead. */
export interface Unscanned {
  readonly projectName: string;
  /** The branch the platform scans, whose findings are offered instead. */
  readonly primary: string;
}

export interface ProjectViewDeps {
  readonly session: { readonly deployment: { readonly slug: string } | undefined };
  readonly findings: Pick<FindingsStore, 'state' | 'load'>;
  selection(): FilterSelection;
  readonly novelty?: BranchNovelty & { ensure(deploymentSlug: string, projectName: string): Promise<void> };
}

/** The slot of the "was this branch scanned at all?" question of a place. */
const PROBE_SUFFIX = ':scanned';

/** The place's slot a changed slot belongs to (its own, or its probe's). */
export function placeSlotOf(slot: string): string {
  return slot.endsWith(PROBE_SUFFIX) ? slot.slice(0, -PROBE_SUFFIX.length) : slot;
}

export class ProjectView {
  constructor(private readonly deps: ProjectViewDeps) {}

  /** The place's query; undefined signed out. */
  query(node: ShownPlace): FindingsQuery | undefined {
    const deployment = this.deps.session.deployment;
    if (!deployment) return undefined;
    const { project, ref } = node.parent;
    return shownQuery(deployment.slug, this.deps.selection(), node.issueType, project.name, ref);
  }

  /** The filters the extension applies itself (files, only new), keyed by what they depend on. */
  localFilter(): LocalFilter | undefined {
    const novelty = this.deps.novelty;
    const selection = this.deps.selection();
    const keep = shownFilter(selection, novelty);
    return keep && { key: JSON.stringify([selection.paths, selection.newOnBranch === true, selection.aiFindings ?? '', novelty?.version ?? 0]), keep };
  }

  /**
   * The primary branch a node's findings are compared with, when the node shows another branch;
   * its findings are loaded (once, through the store) so that new findings can be marked.
   */
  compareWithPrimary(node: ShownPlace): string | undefined {
    const { project, ref } = node.parent;
    const { fallback } = refToShow(ref, project);
    const deployment = this.deps.session.deployment;
    if (!fallback || !deployment || !this.deps.novelty) return undefined;
    if (this.deps.novelty.comparedWith(project.name) === undefined) void this.deps.novelty.ensure(deployment.slug, project.name);
    return fallback;
  }

  /**
   * Whether an empty answer means "this branch was never scanned": only for a branch other than
   * the primary one, and only when the branch has no code or supply-chain finding at all, filters
   * aside (asked once through the store, answered from it afterwards). `checking` while that
   * question is on its way, so an empty answer is not shown as a clean branch meanwhile.
   */
  scanOf(node: ShownPlace): { readonly unscanned?: Unscanned; readonly checking: boolean } {
    const { project, ref } = node.parent;
    const deployment = this.deps.session.deployment;
    const { fallback } = refToShow(ref, project);
    if (!deployment || !ref || !fallback) return { checking: false };
    // A branch without secrets is the usual case: secrets ask whether it has code findings.
    const issueType = node.issueType === 'secrets' ? 'sast' : node.issueType;
    const probe = { deploymentSlug: deployment.slug, issueType, filters: { repos: [project.name], ref, dedup: true } };
    const slot = `${node.slot}${PROBE_SUFFIX}`;
    const state = this.deps.findings.state(slot);
    const answered = state.kind === 'loaded' && queryKey(state.result.query) === queryKey(probe) ? state.result : undefined;
    if (!answered) {
      // A failed question proves nothing: the branch is shown as its answer says (asking again
      // here would ask on every redraw that the failure itself causes).
      if (state.kind === 'failed') return { checking: false };
      if (state.kind !== 'loading') this.deps.findings.load(slot, probe).catch(() => undefined);
      return { checking: true };
    }
    return answered.findings.length === 0 ? { unscanned: { projectName: project.name, primary: fallback }, checking: false } : { checking: false };
  }
}
