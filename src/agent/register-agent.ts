/**
 * The agent's registration: one handler per tool (`core/agent/`), over the store and the same
 * services the commands use, and two adapters over them: the language-model tools for the
 * editor's chat, and the channel through which the MCP server asks this window.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Project } from '../core/model/types';
import { dependenciesHandler, type DependenciesHandlerDeps } from '../core/agent/dependencies-handler';
import type { AgentHandlerDeps } from '../core/agent/findings-handler';
import type { FindingPlaces } from '../code-places/finding-places';
import type { WorkspaceRepos } from '../host/workspace-repos';
import { errorMessage } from '../host/user-errors';
import type { LaunchSpec } from '../core/agent/agent-configs';
import { WINDOW_VARIABLE } from '../core/agent/window-channel';
import type { Logger } from '../host/logger';
import { openAgentChannel, type AgentChannel } from './agent-channel';
import { offerMcpServerInVsCode, type OfferedMcpServer } from './mcp-in-vscode';
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
  logger(component: string): Logger;
};

export interface AgentRegistration {
  /** The launch spec, once this window listens; undefined when agents cannot reach it (logged). */
  agentServer(): Promise<LaunchSpec | undefined>;
  /** The spec an agent's own list takes: no window named, and a copy of the script that outlives this version's folder. */
  agentEntry(): LaunchSpec;
  /** VS Code's storage of this extension (Cline's list is beside it). */
  readonly agentStorage: vscode.Uri;
  /** The MCP server provider VS Code's own agent asks; undefined where this VS Code has none to register. */
  readonly mcpServerInVsCode: OfferedMcpServer['provider'];
}

/** Copies the server script beside the extension's storage once per version, so an agent's list keeps working after an update. */
function stableScript(context: vscode.ExtensionContext): string {
  const dir = vscode.Uri.joinPath(context.globalStorageUri, 'mcp').fsPath;
  const script = `${dir}/mcp-server.js`;
  const version = String((context.extension.packageJSON as { version?: unknown }).version);
  const marker = `${dir}/version`;
  if (!existsSync(script) || (existsSync(marker) ? readFileSync(marker, 'utf8') : '') !== version) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(context.asAbsolutePath('dist/mcp-server.js'), script);
    writeFileSync(marker, version);
  }
  return script;
}

export function registerAgent(context: vscode.ExtensionContext, deps: AgentDeps): AgentRegistration {
  const { deploymentSlug, scans, details, triage, findingUrl, stories } = deps;
  const handlerDeps: AgentHandlerDeps = {
    deploymentSlug,
    project: (name) => deps.projects.find(name),
    store: deps.findings,
    scans,
    novelty: deps.baselines,
    details,
    triage,
    findingUrl,
    errorMessage,
    stories,
    ...workspaceSight(deps.repos, deps.places),
  };
  const handlers = {
    ...findingsToolHandlers(handlerDeps),
    dependencies: dependenciesHandler({ dependencies: deps.dependencies, signedIn: deps.signedIn, errorMessage }),
  };
  context.subscriptions.push(...registerAgentTools(handlers, handlerDeps));
  // Opened off activation's path: agents outside VS Code ask the window once it is up.
  const folders = (): string[] => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const channel: Promise<AgentChannel | undefined> = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
    openAgentChannel(handlers, folders, deps.logger('Agents')),
  );
  void channel.then((opened) => {
    if (opened)
      context.subscriptions.push(
        opened,
        vscode.workspace.onDidChangeWorkspaceFolders(() => opened.foldersChanged()),
      );
    // An agent's list names the copy: after an update, the copy is this version's.
    if (existsSync(vscode.Uri.joinPath(context.globalStorageUri, 'mcp', 'version').fsPath)) stableScript(context);
  });
  const agentServer = async (): Promise<LaunchSpec | undefined> => {
    const opened = await channel;
    // VS Code's own runtime runs the script as Node; ELECTRON_RUN_AS_NODE is harmless where it is Node already.
    return (
      opened && {
        command: process.execPath,
        args: [context.asAbsolutePath('dist/mcp-server.js')],
        env: { ELECTRON_RUN_AS_NODE: '1', [WINDOW_VARIABLE]: opened.socket },
      }
    );
  };
  const offered = offerMcpServerInVsCode(agentServer, String((context.extension.packageJSON as { version?: unknown }).version), deps.logger('Agents'));
  context.subscriptions.push(...offered.disposables);
  return {
    // What VS Code's agent is offered, for the suite (VS Code lists no provider's servers to an extension).
    mcpServerInVsCode: offered.provider,
    agentServer,
    agentStorage: context.globalStorageUri,
    agentEntry: () => ({ command: process.execPath, args: [stableScript(context)], env: { ELECTRON_RUN_AS_NODE: '1' } }),
  };
}
