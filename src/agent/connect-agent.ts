/**
 * Connect an Agent…: puts our MCP server in the list of an agent outside VS Code's chat (Claude
 * Code's for this project or for all the user's, Cursor, Windsurf, Cline), with the launch spec
 * minus the window (a server started in a repository finds the window open on it). In Cursor its own API registers it instead. The file
 * is read, our entry set, everything else kept; one we cannot read safely is left alone. No
 * token is ever written: the server asks the window, which keeps it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { configPath, SERVER_NAME, withServer, type AgentClient, type ConfigProblem, type LaunchSpec } from '../core/agent/agent-configs';
import { t } from '../core/l10n';

const PROBLEMS: Record<ConfigProblem, () => string> = {
  'not-json': () => t('it is not plain JSON (it has comments or a syntax error).'),
  'not-object': () => t('it does not hold a JSON object.'),
  'servers-not-object': () => t('its "mcpServers" is not an object.'),
};

export const CLIENT_NAMES: Record<AgentClient, string> = {
  'claude-code': 'Claude Code',
  'claude-code-user': 'Claude Code',
  cursor: 'Cursor',
  windsurf: 'Windsurf',
  cline: 'Cline',
};

export type Connected =
  | { readonly client: AgentClient; readonly path: string; readonly entry: LaunchSpec }
  | { readonly client: AgentClient; readonly registered: 'cursor-api'; readonly entry: LaunchSpec }
  | { readonly client: AgentClient; readonly problem: string };

interface CursorMcp {
  registerServer(config: { name: string; server: { command: string; args: string[]; env: Record<string, string> } }): unknown;
}

/** Cursor's own API, where this runs inside Cursor. */
function cursorMcp(): CursorMcp | undefined {
  const mcp = (vscode as unknown as { cursor?: { mcp?: Partial<CursorMcp> } }).cursor?.mcp;
  return typeof mcp?.registerServer === 'function' ? (mcp as CursorMcp) : undefined;
}

/** Where each client's list is, here (the first folder of the workspace, the home directory, VS Code's global storage). */
export function configPlaces(globalStorage: vscode.Uri): { workspace?: string; home: string; globalStorage: string } {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return { ...(folder ? { workspace: folder.uri.fsPath } : {}), home: homedir(), globalStorage: dirname(globalStorage.fsPath) };
}

export function connectAgent(client: AgentClient, entry: LaunchSpec, globalStorage: vscode.Uri): Connected {
  const cursor = client === 'cursor' ? cursorMcp() : undefined;
  if (cursor) {
    cursor.registerServer({ name: SERVER_NAME, server: { command: entry.command, args: [...entry.args], env: { ...entry.env } } });
    return { client, registered: 'cursor-api', entry };
  }
  const path = configPath(client, configPlaces(globalStorage));
  if (!path) return { client, problem: t('{0} keeps its servers in the project: open a folder first.', CLIENT_NAMES[client]) };
  let existing: string | undefined;
  try {
    existing = readFileSync(path, 'utf8');
  } catch {
    existing = undefined; // none yet
  }
  const next = withServer(existing, entry, client);
  if ('problem' in next) return { client, problem: t('{0} was left as it is: {1}', path, PROBLEMS[next.problem]()) };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, next.text, { mode: 0o600 });
  return { client, path, entry };
}
