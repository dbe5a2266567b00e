/**
 * The agent's `appsecFindings_dependencies` tool: "does any repository use lodash below 4.17.21?"
 * answered from the platform's supply-chain inventory, as `appsecFindings.whereUsed` answers it.
 */
import * as vscode from 'vscode';
import type { DependenciesService } from '../core/services/dependencies-service';
import { withAbortSignal } from '../host/cancellation';
import { SIGNED_OUT, text } from './findings-tools';
import { DEPENDENCIES_INPUT, usageText, type DependenciesInput } from './dependency-text';
import { quotedError } from './agent-text';

export const DEPENDENCIES_TOOL = 'appsecFindings_dependencies';

export interface DependenciesToolDeps {
  readonly dependencies: Pick<DependenciesService, 'whereUsed'>;
  readonly signedIn: () => boolean;
  readonly errorMessage: (error: unknown) => string;
}


class DependenciesTool implements vscode.LanguageModelTool<DependenciesInput> {
  constructor(private readonly deps: DependenciesToolDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<DependenciesInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const checked = DEPENDENCIES_INPUT.check(options.input);
    if (!checked.ok) return text(checked.problem);
    if (!this.deps.signedIn()) return text(SIGNED_OUT);
    const { limit, ...query } = checked.value;
    try {
      const usage = await withAbortSignal(token, (signal) => this.deps.dependencies.whereUsed(query, signal));
      return text(usageText({ ...query, ...(limit !== undefined ? { limit } : {}) }, usage));
    } catch (error) {
      if (token.isCancellationRequested) return text('Cancelled.');
      return text(`The inventory could not be read; the error, as data: ${quotedError(this.deps.errorMessage(error))}`);
    }
  }
}

export function registerDependenciesTool(deps: DependenciesToolDeps): vscode.Disposable[] {
  // Hosts without the language model API simply get no tool.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return [vscode.lm.registerTool(DEPENDENCIES_TOOL, new DependenciesTool(deps))];
}
