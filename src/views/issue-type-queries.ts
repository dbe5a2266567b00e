/**
 * What an issue-type node of the Projects tree asks the findings store: its query (project,
 * branch, filters), the filters the extension applies itself, the primary branch its findings
 * are compared with, and whether an empty answer means the branch was never scanned.
 */
import { refToShow } from '../core/model/refs';
import { shownFilter, shownQuery } from '../core/services/shown-queries';
import { queryKey, type FindingsQuery } from '../core/services/findings-query';
import type { LocalFilter } from './findings-children';
import type { ProjectsTreeDeps } from './projects-tree-deps';
import type { Unscanned } from './state-messages';
import type { IssueTypeNode } from './tree-nodes';

/** The slot of the "was this branch scanned at all?" question of an issue-type node. */
const PROBE_SUFFIX = ':scanned';

/** The issue-type node's slot a changed slot belongs to (its own, or its probe's). */
export function nodeSlotOf(slot: string): string {
  return slot.endsWith(PROBE_SUFFIX) ? slot.slice(0, -PROBE_SUFFIX.length) : slot;
}

export class IssueTypeQueries {
  constructor(private readonly deps: ProjectsTreeDeps) {}

  /** The node's query; undefined signed out. */
  query(node: IssueTypeNode): FindingsQuery | undefined {
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
  compareWithPrimary(node: IssueTypeNode): string | undefined {
    const { project, ref } = node.parent;
    const { fallback } = refToShow(ref, project);
    const deployment = this.deps.session.deployment;
    if (!fallback || !deployment || !this.deps.novelty) return undefined;
    if (this.deps.novelty.comparedWith(project.name) === undefined) void this.deps.novelty.ensure(deployment.slug, project.name);
    return fallback;
  }

  /**
   * Whether an empty answer means "this branch was never scanned": only for a branch other than
   * the primary one, and only when the branch has no finding of this type at all, filters aside
   * (asked once through the store, answered from it afterwards).
   */
  unscanned(node: IssueTypeNode): Unscanned | undefined {
    const { project, ref } = node.parent;
    const deployment = this.deps.session.deployment;
    const { fallback } = refToShow(ref, project);
    // A branch without secrets is the usual case, not a sign that it was never scanned.
    if (!deployment || !ref || !fallback || node.issueType === 'secrets') return undefined;
    const probe = { deploymentSlug: deployment.slug, issueType: node.issueType, filters: { repos: [project.name], ref, dedup: true } };
    const slot = `${node.slot}${PROBE_SUFFIX}`;
    const state = this.deps.findings.state(slot);
    const answered = state.kind === 'loaded' && queryKey(state.result.query) === queryKey(probe) ? state.result : undefined;
    if (!answered) {
      this.deps.findings.load(slot, probe).catch(() => undefined);
      return undefined;
    }
    return answered.findings.length === 0 ? { projectName: project.name, primary: fallback } : undefined;
  }
}
