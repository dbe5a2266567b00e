// Standalone mode as an agent in a terminal runs it: the SDK's client starts the MCP server as a
// real process over stdio, in a git clone of a project, with SEMGREP_APP_TOKEN and
// SEMGREP_APP_URL pointing at the local platform and no window anywhere. The server finds the
// project from the remote and gives each finding its line in today's code: two lines were
// inserted above the finding since the scanned commit. A refused token, a repository the platform
// has no project for, and a folder outside git are tool errors that name the cause.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateDeployment, startPlatformServer, type RunningPlatform } from '../../platform';
import { cloneProject, git } from '../../platform/project-clone';

const MAIN = resolve(__dirname, '../../../src/mcp/main.ts');
/** The server as it ships, bundled once for this file (the process starts in the clone, where no node_modules is). */
const BUNDLE = join(mkdtempSync(join(tmpdir(), 'mcp-bundle-')), 'mcp-server.js');

interface Listed {
  id: number;
  path?: string;
  line?: number;
  codeChanged?: boolean;
  scannedLine?: number;
}

async function serverIn(cwd: string, env: Record<string, string>): Promise<Client> {
  // No window to find: the channel's directory is one of this test's own, empty.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE],
    cwd,
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', TMPDIR: mkdtempSync(join(tmpdir(), 'mcp-nowindow-')), ...env },
  });
  const client = new Client({ name: 'terminal-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

void describe('the MCP server, standalone', () => {
  let platform: RunningPlatform;
  let repo: string;
  let finding: { id: number; path: string; line: number };
  const clients: Client[] = [];

  before(async () => {
    await build({
      entryPoints: [MAIN],
      outfile: BUNDLE,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      external: ['vscode'],
      logLevel: 'warning',
    });
    const data = generateDeployment({ seed: 21, projects: 2, sastPerProject: 30, scaPerProject: 5, refsPerProject: 1 });
    platform = await startPlatformServer({ data, shape: 'spec' });
    const project = data.projects[0];
    const ours = data.sast.filter(
      (f) => f.repository?.name === project.name && f.ref === project.primary_branch && f.status === 'open' && f.location?.file_path,
    );
    const first = ours.find((f) => (f.location?.line ?? 0) > 3)!;
    finding = { id: first.id!, path: first.location!.file_path!, line: first.location!.line! };
    repo = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-clone-')));
    // Its commit is the one scanned: the findings' links name it.
    cloneProject(repo, project, data, 400);
    // Since the scan, two lines were typed in above the finding (not committed).
    const file = join(repo, finding.path);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(finding.line - 2, 0, 'new one', 'new two');
    writeFileSync(file, lines.join('\n'));
  });
  after(async () => {
    for (const c of clients) await c.close();
    await platform.close();
  });

  void test("finds the project from the remote and places each finding in today's code", async () => {
    const client = await serverIn(join(repo, dirname(finding.path)), { SEMGREP_APP_TOKEN: platform.token, SEMGREP_APP_URL: platform.url });
    clients.push(client);
    const result = await client.callTool({ name: 'findings', arguments: { path: finding.path } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const listed = (result.structuredContent as { findings: Listed[] }).findings.find((f) => f.id === finding.id);
    assert.ok(listed, `finding #${finding.id} is listed: ${JSON.stringify(result.content)}`);
    assert.equal(listed.path, finding.path);
    assert.equal(listed.line, finding.line + 2, 'two lines down, where the code is now');
    const one = await client.callTool({ name: 'finding', arguments: { id: finding.id } });
    assert.equal(one.isError, undefined, JSON.stringify(one.content));
    assert.equal((one.structuredContent as { finding: Listed }).finding.line, finding.line + 2);
  });

  void test("with no window, it reads the repository's findings as it starts, before the agent asks", async () => {
    const seen = platform.requests.length;
    const client = await serverIn(repo, { SEMGREP_APP_TOKEN: platform.token, SEMGREP_APP_URL: platform.url });
    clients.push(client);
    const asked = (): string[] => platform.requests.slice(seen).map((r) => r.path);
    await until(() => asked().some((path) => path.endsWith('/findings')));
    assert.ok(
      asked().some((path) => path.includes('/scan')),
      `the branch's scanned commit is asked at once too: ${asked().join(', ')}`,
    );
    const result = await client.callTool({ name: 'findings', arguments: { path: finding.path } });
    assert.equal((result.structuredContent as { findings: Listed[] }).findings.find((f) => f.id === finding.id)?.line, finding.line + 2);
  });

  void test('a refused token, a repository without a project, a folder outside git: tool errors that name the cause', async () => {
    const refused = await serverIn(repo, { SEMGREP_APP_TOKEN: 'sgp_not-the-token', SEMGREP_APP_URL: platform.url });
    clients.push(refused);
    const bad = await refused.callTool({ name: 'findings', arguments: {} });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /did not accept SEMGREP_APP_TOKEN/);
    assert.ok(!JSON.stringify(bad.content).includes('sgp_not-the-token'), 'the token is not repeated');

    const other = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-other-')));
    git(other, 'init', '-q');
    git(other, 'remote', 'add', 'origin', 'git@github.com:nobody/unknown.git');
    const unmatched = await serverIn(other, { SEMGREP_APP_TOKEN: platform.token, SEMGREP_APP_URL: platform.url });
    clients.push(unmatched);
    assert.match(
      JSON.stringify((await unmatched.callTool({ name: 'findings', arguments: {} })).content),
      /No project of the platform matches this repository's remote/,
    );

    const outside = await serverIn(realpathSync(mkdtempSync(join(tmpdir(), 'mcp-nogit-'))), {
      SEMGREP_APP_TOKEN: platform.token,
      SEMGREP_APP_URL: platform.url,
    });
    clients.push(outside);
    assert.match(JSON.stringify((await outside.callTool({ name: 'findings', arguments: {} })).content), /is not in a git repository/);
  });
});

/** Resolves once `condition` holds (the platform has no event to wait on); fails after 20 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition never held');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
