/**
 * The agent's registration: the findings, finding and triage tools for the editor's agent, thin
 * adapters over the store and the same services the commands use (the dependencies tool is the
 * inventory's).
 */
import type * as vscode from 'vscode';
import type { Project } from '../core/model/types';
import { errorMessage } from '../host/user-errors';
import { registerAgentTools, type AgentToolsDeps } from './findings-tools';

export type AgentDeps = Omit<AgentToolsDeps, 'store' | 'project' | 'errorMessage' | 'novelty'> & {
  readonly findings: AgentToolsDeps['store'];
  /** Which findings are new on their branch. */
  readonly baselines: AgentToolsDeps['novelty'];
  readonly projects: { find(name: string): Project | undefined };
};

export function registerAgent(context: vscode.ExtensionContext, deps: AgentDeps): object {
  const { deploymentSlug, scans, repos, places, details, triage, findingUrl, stories } = deps;
  context.subscriptions.push(...registerAgentTools({
    deploymentSlug, project: (name) => deps.projects.find(name), store: deps.findings, scans, repos, places, novelty: deps.baselines, details,
    triage, findingUrl, errorMessage, stories,
  }));
  return {};
}
