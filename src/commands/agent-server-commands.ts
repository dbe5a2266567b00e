/**
 * `appsecFindings.agentServer`: how an MCP client starts the extension's server connected to
 * this window. It resolves with the launch spec at once; run from the palette it also shows the
 * spec, with a button to copy it (not awaited, so automation is never held by a message).
 * `appsecFindings.connectAgent`: Connect an Agent…, which writes that server into an agent's list.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import { showError, showInformation } from '../host/notify';
import type { LaunchSpec } from '../core/agent/agent-configs';
import { AGENT_CLIENTS, configPath, SERVER_NAME, type AgentClient } from '../core/agent/agent-configs';
import { argumentList, noSuchOption, object, oneOf, optional } from '../host/schema';
import { CLIENT_NAMES, configPlaces, connectAgent, type Connected } from '../agent/connect-agent';

export interface AgentServerCommandsDeps {
  agentServer(): Promise<LaunchSpec | undefined>;
}

export async function agentServer(app: AgentServerCommandsDeps): Promise<LaunchSpec | undefined> {
  const spec = await app.agentServer();
  if (!spec) {
    void showError(t('AppSec: agents outside VS Code cannot reach this window; the log says why.'));
    return undefined;
  }
  const copy = t('Copy');
  const text = JSON.stringify(spec);
  void showInformation(t('AppSec: an MCP client starts the server for this window with {0}. It holds no token.', text), copy).then(async (chosen) => {
    if (chosen === copy) await vscode.env.clipboard.writeText(text);
  });
  return spec;
}

/** `appsecFindings.connectAgent`'s argument: which agent (else the user picks). */
export const CONNECT_AGENT_ARGUMENT = argumentList(
  optional(
    object(
      {
        client: oneOf(AGENT_CLIENTS, `client takes ${AGENT_CLIENTS.join(', ')}.`),
      },
      `appsecFindings.connectAgent takes { client: ${AGENT_CLIENTS.join(' | ')} }.`,
      noSuchOption('appsecFindings.connectAgent'),
    ),
  ),
);

export interface ConnectAgentDeps {
  agentEntry(): LaunchSpec;
  /** VS Code's storage of this extension (Cline's list is beside it). */
  readonly agentStorage: vscode.Uri;
}

export async function connectAgentCommand(app: ConnectAgentDeps, request?: { readonly client: AgentClient }): Promise<Connected | undefined> {
  const client = request?.client ?? (await pickClient(app.agentStorage));
  if (!client) return undefined;
  const connected = connectAgent(client, app.agentEntry(), app.agentStorage);
  if ('problem' in connected) {
    void showError(t('AppSec: {0} was not connected: {1}', CLIENT_NAMES[client], connected.problem));
    return connected;
  }
  if ('registered' in connected) {
    void showInformation(t('AppSec: Cursor now starts the AppSec Findings server (registered through its own API). It holds no token.'));
    return connected;
  }
  const open = t('Open File');
  void showInformation(
    t('AppSec: {0} now starts the AppSec Findings server: its entry "{1}" is in {2}. It holds no token.', CLIENT_NAMES[client], SERVER_NAME, connected.path),
    open,
  ).then(async (chosen) => {
    if (chosen === open) await vscode.window.showTextDocument(vscode.Uri.file(connected.path));
  });
  return connected;
}

async function pickClient(globalStorage: vscode.Uri): Promise<AgentClient | undefined> {
  const places = configPlaces(globalStorage);
  const items = AGENT_CLIENTS.map((client) => ({
    client,
    label: CLIENT_NAMES[client],
    description: configPath(client, places) ?? t('needs an open folder'),
    ...(client === 'claude-code' ? { detail: t('For this project: anyone who opens it with Claude Code gets the server') } : {}),
    ...(client === 'claude-code-user' ? { detail: t('For every project of yours, in your own Claude Code settings') } : {}),
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: t('AppSec: Connect an Agent'),
    placeHolder: t('Which agent should start the AppSec Findings server? (one entry, no token)'),
  });
  return picked?.client;
}
