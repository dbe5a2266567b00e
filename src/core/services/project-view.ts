/**
 * What a project shows in the tree, at the ref the tree shows it (its override, else the branch
 * checked out, else the primary branch), one kind at a time: its place (`place.ts`, which decides
 * the query, whether the branch was ever scanned, the primary branch offered instead, the filters
 * the extension applies itself and novelty for the workspace's folders too), and the primary
 * branch's findings loaded so that new findings can be marked.
 */
import type { IssueType, Project } from '../model/types';
import type { BranchNovelty } from './branch-baselines';
import type { FilterSelection } from './filters';
import type { FindingsQuery } from './findings-query';
import type { FindingsStore } from './findings-store';
import { placeOf, type Place, type ScanReading } from './place';
import type { RefScans } from './ref-scans';

export type { LocalFilter } from './place';

/** The tree's node for one kind of one project at a ref, shown in a store slot of its own (the tree's issue-type node fits). */
export interface ShownPlace {
  readonly parent: { readonly project: Pick<Project, 'name' | 'primaryBranch' | 'defaultBranch'>; readonly ref?: string };
  readonly issueType: IssueType;
  readonly slot: string;
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
  readonly scans: Pick<RefScans, 'now' | 'known'>;
}

export class ProjectView {
  constructor(private readonly deps: ProjectViewDeps) {}

  /**
   * The node's place; undefined signed out. Read `now` (for a node drawn), whether its branch was
   * scanned is `checking` while the question is on its way, so an empty answer is not shown as a
   * clean branch meanwhile; any other reading asks nothing.
   */
  place(node: ShownPlace, reading: ScanReading = { seen: 0 }): Place | undefined {
    const deployment = this.deps.session.deployment;
    if (!deployment) return undefined;
    const { scans, baselines } = this.deps;
    const deps = { deploymentSlug: deployment.slug, selection: () => this.deps.selection(), scans, baselines };
    return placeOf(deps, { project: node.parent.project, chosen: node.parent.ref }, reading);
  }

  /** The place's query; undefined signed out. */
  query(node: ShownPlace): FindingsQuery | undefined {
    return this.place(node)?.queries[node.issueType];
  }

  /**
   * The primary branch a node's findings are compared with, when the node shows another branch;
   * its findings are loaded (once, through the store) so that new findings can be marked.
   */
  compareWithPrimary(place: Place): string | undefined {
    const { baselines } = this.deps;
    if (place.primary === undefined || !baselines) return undefined;
    if (baselines.comparedWith(place.projectName) === undefined) void baselines.ensure(place.deploymentSlug, place.projectName);
    return place.primary;
  }

  /** The branch never scanned, with the primary branch to offer, as the place says. */
  static unscannedOf(place: Place | undefined): Unscanned | undefined {
    return place?.fallback !== undefined ? { projectName: place.projectName, primary: place.fallback } : undefined;
  }
}
