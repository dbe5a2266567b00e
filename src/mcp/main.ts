/**
 * The MCP server's entry point (`dist/mcp-server.js`), started by an agent over stdio as
 * `appsecFindings.agentServer` says. It answers from the VS Code window open on the repository
 * in its working directory (or the one its launch spec names). It holds no token and reads none.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createAgentServer } from './agent-server';
import { windowBackend } from './window-backend';

async function main(): Promise<void> {
  const server = createAgentServer(windowBackend({ cwd: process.cwd(), env: process.env }));
  await server.connect(new StdioServerTransport());
}

main().catch((error: unknown) => {
  process.stderr.write(`appsec-findings MCP server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
