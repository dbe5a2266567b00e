/**
 * The MCP server's entry point (`dist/mcp-server.js`), started by an agent over stdio as
 * `appsecFindings.agentServer` says. It answers from the VS Code window open on the repository
 * in its working directory (or the one its launch spec names), and holds no token then; with no
 * window, by itself for that repository when its environment has `SEMGREP_APP_TOKEN`.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAgentServer } from './agent-server';
import { standaloneBackend } from './standalone-backend';
import { windowAddress, windowBackend } from './window-backend';

async function main(): Promise<void> {
  const { cwd, env } = { cwd: process.cwd(), env: process.env };
  const standalone = standaloneBackend({ cwd, env });
  const server = createAgentServer(windowBackend({ cwd, env, ...(standalone ? { standalone } : {}) }));
  await server.connect(new StdioServerTransport());
  // With no window to ask, the repository's findings are read before the agent's first call.
  if (standalone && windowAddress(cwd, env) === undefined) standalone.warm();
}

main().catch((error: unknown) => {
  process.stderr.write(`appsec-findings MCP server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
