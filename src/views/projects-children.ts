/**
 * The top levels of the Projects tree: the session and project-list states at the root, the
 * projects (the workspace's first), and each project's issue-type nodes: code (AI findings
 * among them), supply chain, secrets. Pure (no `vscode`).
 */
import { sameBranch } from '../core/model/refs';
import { ISSUE_TYPES, type Project } from '../core/model/types';
import type { ProjectsState } from '../core/services/projects-service';
import type { SessionState } from '../core/services/session';
import { sortProjects } from './project-presentation';
import { loadFailed, loadingProjects, message, noDeployment, noProjects, staleProjects } from './state-messages';
import { nodeIds, type IssueTypeNode, type Node, type ProjectNode } from './tree-nodes';
import { treeSlot } from '../core/services/slot-ids';
import { t } from '../core/l10n';

const ROOT_ID = nodeIds.root('projects');

export interface ProjectsRootContext {
  readonly workspaceProjects: ReadonlySet<string>;
  /** The ref a project shows (decided by the projects model). */
  readonly refOf: (project: Project) => string | undefined;
  /** The branch checked out in the workspace for a project, when it has one. */
  readonly checkedOutOf?: (project: Project) => string | undefined;
  readonly errorMessage: (error: unknown) => string;
}

/**
 * Signed out: nothing (the view's welcome content asks to sign in). No deployment: the reason.
 * Signed in: the projects, or why there are none.
 */
export function projectsRoot(session: SessionState, state: ProjectsState, context: ProjectsRootContext): Node[] {
  if (session.kind === 'signedOut') return [];
  if (session.kind === 'noDeployment') return [message(undefined, ROOT_ID, noDeployment(session.message))];
  const { deployment } = session;
  const say = (spec: Parameters<typeof message>[2]): Node => message(undefined, ROOT_ID, spec);
  switch (state.kind) {
    case 'idle':
      return [say(loadingProjects())];
    case 'failed':
      return [say(loadFailed(t('projects'), context.errorMessage(state.error), { view: 'projects' }))];
    case 'loading': {
      const previous = state.previous ?? [];
      // A refresh keeps the list in place (the view's progress bar shows the load).
      if (previous.length > 0) return projectNodes(deployment.slug, previous, context);
      // The first list: the workspace's projects, known already, above the word that more come.
      return [...projectNodes(deployment.slug, state.known ?? [], context), say(loadingProjects())];
    }
    case 'loaded': {
      const head = state.staleBecause === undefined ? [] : [say(staleProjects(context.errorMessage(state.staleBecause)))];
      if (state.projects.length === 0) return [...head, say(noProjects(deployment.name))];
      return [...head, ...projectNodes(deployment.slug, state.projects, context)];
    }
  }
}

function projectNodes(deploymentSlug: string, projects: readonly Project[], context: ProjectsRootContext): ProjectNode[] {
  return sortProjects(projects, context.workspaceProjects).map((project) => {
    const ref = context.refOf(project);
    const checkedOut = context.checkedOutOf?.(project);
    return {
      kind: 'project',
      id: nodeIds.project(deploymentSlug, project.name),
      deploymentSlug,
      project,
      inWorkspace: context.workspaceProjects.has(project.name),
      ref,
      // Show Findings of Branch… on another branch: the row says Problems and the status bar show the checked-out one.
      ...(ref && checkedOut && !sameBranch(ref, checkedOut) ? { otherThanCheckedOut: checkedOut } : {}),
    };
  });
}

export function issueTypeNodes(project: ProjectNode): IssueTypeNode[] {
  return ISSUE_TYPES.map((issueType) => ({
    kind: 'issueType',
    id: nodeIds.issueType(project.id, issueType),
    parent: project,
    issueType,
    slot: treeSlot(project.project.name, issueType),
  }));
}
