/**
 * The MCP server offered to VS Code's own agent, when `appsecFindings.agents.mcpServerInVsCode`
 * asks for it: Copilot already has the same tools as language-model tools and counts both kinds
 * against one limit, so by default it gets them once. Feature-detected: the API is VS Code
 * 1.101's, newer than the oldest host the extension supports.
 */
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import { errorMessage } from '../core/model/errors';
import type { Logger } from '../host/logger';
import { settings } from '../host/settings';
import type { LaunchSpec } from '../core/agent/agent-configs';

interface McpApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions: vscode.Event<void>;
      provideMcpServerDefinitions(): Promise<unknown[]>;
    },
  ): vscode.Disposable;
}
type StdioDefinition = new (label: string, command: string, args: string[], env: Record<string, string>, version: string) => unknown;

export const MCP_PROVIDER_ID = 'appsecFindings.mcpServer';

/** What was offered: the provider VS Code asks (undefined where this VS Code cannot be offered one). */
export interface OfferedMcpServer {
  readonly disposables: vscode.Disposable[];
  readonly provider?: McpProvider;
}

type McpProvider = Parameters<McpApi['registerMcpServerDefinitionProvider']>[1];

export function offerMcpServerInVsCode(spec: () => Promise<LaunchSpec | undefined>, version: string, log: Logger): OfferedMcpServer {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || !Definition) return { disposables: [] };
  const changed = new Emitter<void>();
  const provider: McpProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      const given = settings.mcpServerInVsCode() ? await spec() : undefined;
      return given ? [new Definition('AppSec Findings', given.command, [...given.args], { ...given.env }, version)] : [];
    },
  };
  let registered: vscode.Disposable;
  try {
    registered = lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  } catch (error) {
    // VS Code 1.100 has the call but wants another contribution point: the rest must still activate.
    log.warn(`This VS Code cannot be offered the MCP server (its agent keeps the language-model tools): ${errorMessage(error)}`);
    changed.dispose();
    return { disposables: [] };
  }
  const following = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('appsecFindings.agents.mcpServerInVsCode')) changed.fire();
  });
  return { disposables: [changed, registered, following], provider };
}
