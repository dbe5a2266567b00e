/**
 * The agent's registration: one handler per tool (`core/agent/`), over the store and the same
 * services the commands use, and two adapters over them: the language-model tools for the
 * editor's chat, and the channel through which the MCP server asks this window.
 */
import type * as vscode from 'vscode';
import type { Project } from '../core/model/types';
import { dependenciesHandler, type DependenciesHandlerDeps } from '../core/agent/dependencies-handler';
import type { AgentHandlerDeps } from '../core/agent/findings-handler';
import type { FindingPlaces } from '../code-places/finding-places';
import type { WorkspaceRepos } from '../host/workspace-repos';
import { errorMessage } from '../host/user-errors';
import { findingsToolHandlers, registerAgentTools, workspaceSight } from './findings-tools';

export type AgentDeps = Omit<AgentHandlerDeps, 'store' | 'project' | 'errorMessage' | 'novelty' | 'folders' | 'place' | 'trace'> & {
  readonly findings: AgentHandlerDeps['store'];
  /** Which findings are new on their branch. */
  readonly baselines: AgentHandlerDeps['novelty'];
  readonly projects: { find(name: string): Project | undefined };
  readonly repos: WorkspaceRepos;
  readonly places: FindingPlaces;
  readonly dependencies: DependenciesHandlerDeps['dependencies'];
  readonly signedIn: () => boolean;
};

export function registerAgent(context: vscode.ExtensionContext, deps: AgentDeps): object {
  const { deploymentSlug, scans, details, triage, findingUrl, stories } = deps;
  const handlerDeps: AgentHandlerDeps = {
    deploymentSlug, project: (name) => deps.projects.find(name), store: deps.findings, scans, novelty: deps.baselines, details,
    triage, findingUrl, errorMessage, stories, ...workspaceSight(deps.repos, deps.places),
  };
  const handlers = { ...findingsToolHandlers(handlerDeps), dependencies: dependenciesHandler({ dependencies: deps.dependencies, signedIn: deps.signedIn, errorMessage }) };
  context.subscriptions.push(...registerAgentTools(handlers, handlerDeps));
  return {};
}
