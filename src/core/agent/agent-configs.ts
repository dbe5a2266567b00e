/**
 * Where each agent that reads MCP servers keeps its list of them, and how our entry is added to
 * that list without losing anything else in the file. The entry is the launch spec without the
 * window it was given for: a server started in a repository finds the window open on it. It
 * never holds a token.
 */
import { join } from 'node:path';

/** `claude-code` is the project's list (`.mcp.json`), `claude-code-user` the user's, for every project. */
export const AGENT_CLIENTS = ['claude-code', 'claude-code-user', 'cursor', 'windsurf', 'cline'] as const;
export type AgentClient = (typeof AGENT_CLIENTS)[number];

/** The name our server has in every client's list. */
export const SERVER_NAME = 'appsec-findings';

export interface ConfigPlaces {
  /** The first workspace folder, for the clients whose list belongs to the project. */
  readonly workspace?: string;
  readonly home: string;
  /** VS Code's directory of extensions' global storage (Cline keeps its list there). */
  readonly globalStorage: string;
}

/** The file a client reads its MCP servers from; undefined when it needs a workspace and there is none. */
export function configPath(client: AgentClient, places: ConfigPlaces): string | undefined {
  switch (client) {
    case 'claude-code':
      return places.workspace && join(places.workspace, '.mcp.json');
    // Claude Code keeps its own state in the same file: only `mcpServers` is touched.
    case 'claude-code-user':
      return join(places.home, '.claude.json');
    case 'cursor':
      return places.workspace && join(places.workspace, '.cursor', 'mcp.json');
    case 'windsurf':
      return join(places.home, '.codeium', 'windsurf', 'mcp_config.json');
    case 'cline':
      return join(places.globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json');
  }
}

/** How an MCP client starts the server (`appsecFindings.agentServer`, an agent's list): never a token in it. */
export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The file's text with our entry set in its `mcpServers` (kept in its place if there, else
 * added last); every other key stays as it was. A file that is not a JSON object is left alone:
 * the problem says so.
 */
/** Why a file was left alone: not JSON, not an object, or its list of servers not an object. */
export type ConfigProblem = 'not-json' | 'not-object' | 'servers-not-object';

export function withServer(
  existing: string | undefined,
  entry: LaunchSpec,
  client: AgentClient,
): { readonly text: string } | { readonly problem: ConfigProblem } {
  let config: Record<string, unknown> = {};
  if (existing !== undefined && existing.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(existing);
    } catch {
      return { problem: 'not-json' };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'not-object' };
    config = parsed as Record<string, unknown>;
  }
  const servers = config.mcpServers ?? {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return { problem: 'servers-not-object' };
  // Claude Code names the transport; Cline has a switch of its own.
  const extra = client === 'claude-code' || client === 'claude-code-user' ? { type: 'stdio' } : client === 'cline' ? { disabled: false } : {};
  const ours = { ...extra, command: entry.command, args: [...entry.args], env: { ...entry.env } };
  return { text: `${JSON.stringify({ ...config, mcpServers: { ...(servers as Record<string, unknown>), [SERVER_NAME]: ours } }, null, 2)}\n` };
}
