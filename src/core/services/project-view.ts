/**
 * What a project shows in the tree, at the ref the tree shows it (its override, else the primary
 * branch), one kind at a time: the query it asks the store, the filters the extension applies
 * itself, the primary branch its findings are compared with, and whether its branch was ever
 * scanned (as `ref-scans.ts` decides). The workspace's folders are decided by `workspace-view.ts`; both
 * follow the rules of `shown-queries.ts`.
 */
import { refToShow } from '../model/refs';
import type { Finding, IssueType, Project } from '../model/types';
import type { BranchNovelty } from './branch-baselines';
import type { FilterSelection } from './filters';
import type { FindingsQuery } from './findings-query';
import type { FindingsStore } from './findings-store';
import type { RefScans } from './ref-scans';
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
  readonly baselines?: BranchNovelty & { ensure(deploymentSlug: string, projectName: string): Promise<void> };
  /** Whether a ref was scanned: the one rule, which Problems follows too. */
  readonly scans: Pick<RefScans, 'now'>;
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
    const novelty = this.deps.baselines;
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
    if (!fallback || !deployment || !this.deps.baselines) return undefined;
    if (this.deps.baselines.comparedWith(project.name) === undefined) void this.deps.baselines.ensure(deployment.slug, project.name);
    return fallback;
  }

  /**
   * Whether the place's branch was never scanned (`ref-scans.ts` decides, for every view alike):
   * asked only for a branch other than the primary one. `checking` while the question is on its
   * way, so an empty answer is not shown as a clean branch meanwhile.
   */
  scanOf(node: ShownPlace): { readonly unscanned?: Unscanned; readonly checking: boolean } {
    const { project, ref } = node.parent;
    const deployment = this.deps.session.deployment;
    const { fallback } = refToShow(ref, project);
    if (!deployment || !ref || !fallback) return { checking: false };
    const scan = this.deps.scans.now(deployment.slug, project.name, ref);
    return scan === 'unscanned' ? { unscanned: { projectName: project.name, primary: fallback }, checking: false } : { checking: scan === 'checking' };
  }
}
