/**
 * The MCP server offered to VS Code's own agent, when `appsecFindings.agents.mcpServerInVsCode`
 * asks for it: Copilot already has the same tools as language-model tools and counts both kinds
 * against one limit, so by default it gets them once. Feature-detected: the API is VS Code
 * 1.101's, newer than the oldest host the extension supports.
 */
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import { settings } from '../host/settings';
import type { LaunchSpec } from '../core/agent/agent-configs';

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: {
    onDidChangeMcpServerDefinitions: vscode.Event<void>;
    provideMcpServerDefinitions(): Promise<unknown[]>;
  }): vscode.Disposable;
}
type StdioDefinition = new (label: string, command: string, args: string[], env: Record<string, string>, version: string) => unknown;

export const MCP_PROVIDER_ID = 'appsecFindings.mcpServer';

export function offerMcpServerInVsCode(spec: () => Promise<LaunchSpec | undefined>, version: string): vscode.Disposable[] {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinition }).McpStdioServerDefinition;
  if (typeof lm.registerMcpServerDefinitionProvider !== 'function' || !Definition) return [];
  const changed = new Emitter<void>();
  return [
    changed,
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('appsecFindings.agents.mcpServerInVsCode')) changed.fire();
    }),
    lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: async () => {
        const given = settings.mcpServerInVsCode() ? await spec() : undefined;
        return given ? [new Definition('AppSec Findings', given.command, [...given.args], { ...given.env }, version)] : [];
      },
    }),
  ];
}
