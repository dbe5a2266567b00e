/**
 * The deployment last resolved, remembered with the base URL it was resolved at: a restart
 * needs no network, and another base URL (another platform, maybe with the same slug) is never
 * taken for the one remembered.
 */
import type * as vscode from 'vscode';
import type { DeploymentMemory } from '../core/services/session';
import type { Deployment } from '../core/model/types';

const KEY = 'appsecFindings.deploymentAt';

interface Remembered {
  readonly baseUrl: string;
  readonly deployment: Deployment;
}

export function deploymentMemory(state: vscode.Memento, baseUrl: () => string): DeploymentMemory {
  return {
    get: () => {
      const remembered = state.get<Remembered>(KEY);
      return remembered?.baseUrl === baseUrl() ? remembered.deployment : undefined;
    },
    set: (deployment) => Promise.resolve(state.update(KEY, deployment && { baseUrl: baseUrl(), deployment })),
  };
}
