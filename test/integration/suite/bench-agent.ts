// (m) The MCP server in connected mode, as an agent calls it in a loop: one file's findings with
// 50 000 shown, asked through a real stdio process started from the window's launch spec. It
// answers from what the window holds: the time is the server's and the window's, not the network's.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
}
export interface AgentFigure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  reference?: string;
}

export async function measureConnectedServer(
  file: vscode.Uri,
  shown: number,
  latencyMs: number,
  median: (values: number[]) => number,
  runs = 15,
): Promise<AgentFigure> {
  const spec = await vscode.commands.executeCommand<LaunchSpec>('appsecFindings.agentServer');
  assert.ok(spec, 'the window gives a launch spec');
  const client = new Client({ name: 'bench-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: spec.command, args: spec.args, env: spec.env, stderr: 'ignore' }));
  try {
    const times: number[] = [];
    let listed = 0;
    let said = '';
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'findings', arguments: { path: file.fsPath, limit: 500 } });
      times.push(performance.now() - started);
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      listed = (result.structuredContent as { total: number }).total;
      said = JSON.stringify(result.content).slice(0, 300);
    }
    return {
      name: `(m) MCP server, connected: one file's findings (${listed}) with ${shown} shown, ${latencyMs} ms latency`,
      value: median(times),
      unit: 'ms',
      target: '≤ 50 ms',
      reference: `median of ${runs} calls after the server started; first ${times[0].toFixed(0)} ms, slowest ${Math.max(...times).toFixed(0)} ms${listed === 0 ? `; it said ${said}` : ''}`,
    };
  } finally {
    await client.close();
  }
}
