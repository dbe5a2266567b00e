/**
 * (m) standalone: the MCP server with no window, as an agent in a terminal starts it, answering
 * for a clone of a project of 10 000 findings with the platform at 150 ms. The server runs as it
 * ships (bundled) in a real process over stdio; the local platform counts the round trips in a
 * row that its first answer waited for. Timed: the first call made as soon as the server starts
 * (it reads the deployment, the projects, the findings and the scanned commit), the first call
 * of a server that had the moment an agent's session gives it to read them, and the calls after
 * it (one file's findings).
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDeployment, startPlatformServer, type RunningPlatform } from '../platform/index';
import { cloneProject } from '../platform/project-clone';
import { median } from './measure';
import type { Figure } from './report';

const FINDINGS = 10_000;
const LATENCY_MS = 150;
const RUNS = 7;

export async function standaloneServerFigures(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
  const bundle = join(dir, 'mcp-server.js');
  await build({
    entryPoints: [resolve(__dirname, '../../src/mcp/main.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const data = generateDeployment({ seed: 3, projects: 1, sastPerProject: FINDINGS, scaPerProject: 0, refsPerProject: 1 });
  const platform = await startPlatformServer({ data, shape: 'spec' });
  const project = data.projects[0];
  const repo = join(dir, 'clone');
  mkdirSync(repo);
  const { paths } = cloneProject(repo, project, data, 300);
  platform.setLatency(LATENCY_MS);
  const env = { PATH: process.env.PATH ?? '', TMPDIR: dir, SEMGREP_APP_TOKEN: platform.token, SEMGREP_APP_URL: platform.url };
  const client = await serverIn(bundle, repo, env);
  try {
    platform.roundTrips.mark();
    const started = performance.now();
    const first = await client.callTool({ name: 'findings', arguments: { limit: 50 } });
    const firstMs = performance.now() - started;
    const trips = platform.roundTrips.report();
    if (first.isError) throw new Error(`bench: the standalone server refused: ${JSON.stringify(first.content)}`);
    const file = paths[0];
    const later: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const at = performance.now();
      await client.callTool({ name: 'findings', arguments: { path: file } });
      later.push(performance.now() - at);
    }
    // An agent starts its servers when a session opens, and calls a tool once asked something:
    // the server has read the repository's findings by then.
    const warmed = await serverIn(bundle, repo, env);
    let warmMs: number;
    try {
      await platformQuiet(platform);
      const at = performance.now();
      const answer = await warmed.callTool({ name: 'findings', arguments: { limit: 50 } });
      warmMs = performance.now() - at;
      if (answer.isError) throw new Error(`bench: the warmed standalone server refused: ${JSON.stringify(answer.content)}`);
    } finally {
      await warmed.close();
    }
    return [
      {
        key: 'mcpStandaloneWarm',
        label: `MCP server standalone: first answer once the server has read the repository (started with the agent's session), ${FINDINGS} findings`,
        value: warmMs,
        unit: 'ms',
        max: LATENCY_MS + 200,
      },
      {
        key: 'mcpStandaloneFirst',
        label: `MCP server standalone: first answer, ${FINDINGS} findings, ${LATENCY_MS} ms latency (${trips.depth} round trips in a row, ${trips.requests} requests)`,
        value: firstMs,
        unit: 'ms',
      },
      // The target of an agent calling it in a loop: within one round trip and 200 ms.
      {
        key: 'mcpStandaloneLater',
        label: "MCP server standalone: one file's findings after it",
        value: median(later),
        unit: 'ms',
        max: LATENCY_MS + 200,
        runs: later,
      },
    ];
  } finally {
    await client.close();
    await platform.close();
  }
}

async function serverIn(bundle: string, cwd: string, env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'bench-terminal-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bundle], cwd, stderr: 'ignore', env }));
  return client;
}

/** Resolves once the platform has had no request for a while: the server's reading is done. */
async function platformQuiet(platform: RunningPlatform, quietMs = 500, atMostMs = 30_000): Promise<void> {
  const until = performance.now() + atMostMs;
  let seen = -1;
  while (performance.now() < until) {
    if (platform.requests.length === seen) return;
    seen = platform.requests.length;
    await new Promise((resolve) => setTimeout(resolve, quietMs));
  }
  throw new Error('bench: the standalone server kept asking the platform');
}
