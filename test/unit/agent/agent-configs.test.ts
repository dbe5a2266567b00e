// Connect an Agent's writing, as pure functions: where each agent keeps its MCP servers, and our
// entry set in that list with everything else in the file kept, never a token, and a file that
// cannot be read safely left alone with the reason.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { AGENT_CLIENTS, configPath, withServer } from '../../../src/core/agent/agent-configs';

const ENTRY = { command: '/usr/share/code/code', args: ['/home/u/.config/Code/User/globalStorage/x/mcp/mcp-server.js'], env: { ELECTRON_RUN_AS_NODE: '1' } };
const PLACES = { workspace: '/work/repo', home: '/home/u', globalStorage: '/home/u/.config/Code/User/globalStorage' };

void describe("an agent's list of MCP servers", () => {
  void test("each agent's file: the project's for Claude Code and Cursor, the user's for Claude Code, Windsurf and Cline", () => {
    assert.deepEqual(
      AGENT_CLIENTS.map((c) => configPath(c, PLACES)),
      [
        join('/work/repo', '.mcp.json'),
        join('/home/u', '.claude.json'),
        join('/work/repo', '.cursor', 'mcp.json'),
        join('/home/u', '.codeium', 'windsurf', 'mcp_config.json'),
        join('/home/u/.config/Code/User/globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
      ],
    );
    assert.equal(configPath('claude-code', { home: '/home/u', globalStorage: '/g' }), undefined, "no folder open: nowhere to write a project's list");
    assert.equal(configPath('claude-code-user', { home: '/home/u', globalStorage: '/g' }), join('/home/u', '.claude.json'), "the user's list needs no folder");
  });

  void test("a new file holds our entry alone, in each agent's shape", () => {
    const claude = withServer(undefined, ENTRY, 'claude-code');
    assert.ok('text' in claude);
    assert.deepEqual(JSON.parse(claude.text), { mcpServers: { 'appsec-findings': { type: 'stdio', ...ENTRY } } });
    const cline = withServer('', ENTRY, 'cline');
    assert.ok('text' in cline);
    assert.deepEqual(JSON.parse(cline.text), { mcpServers: { 'appsec-findings': { disabled: false, ...ENTRY } } });
  });

  void test("Claude Code's own file for every project: its state kept, our entry added to its servers", () => {
    const existing = JSON.stringify({
      numStartups: 12,
      projects: { '/work/repo': { allowedTools: [] } },
      mcpServers: { github: { type: 'stdio', command: 'gh-mcp' } },
    });
    const next = withServer(existing, ENTRY, 'claude-code-user');
    assert.ok('text' in next);
    assert.deepEqual(JSON.parse(next.text), {
      numStartups: 12,
      projects: { '/work/repo': { allowedTools: [] } },
      mcpServers: { github: { type: 'stdio', command: 'gh-mcp' }, 'appsec-findings': { type: 'stdio', ...ENTRY } },
    });
  });

  void test('the other servers and keys stay as they were; ours is replaced, not doubled', () => {
    const existing = JSON.stringify({
      theme: 'dark',
      mcpServers: { github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'theirs' } }, 'appsec-findings': { command: 'old' } },
    });
    const next = withServer(existing, ENTRY, 'cursor');
    assert.ok('text' in next);
    const parsed = JSON.parse(next.text) as { theme: string; mcpServers: Record<string, unknown> };
    assert.equal(parsed.theme, 'dark');
    assert.deepEqual(Object.keys(parsed.mcpServers), ['github', 'appsec-findings']);
    assert.deepEqual(parsed.mcpServers.github, { command: 'gh-mcp', env: { GITHUB_TOKEN: 'theirs' } });
    assert.deepEqual(parsed.mcpServers['appsec-findings'], ENTRY);
  });

  void test('a file with comments, one that is not an object, or a list that is not an object: left alone, with why', () => {
    assert.deepEqual(withServer('{ // mine\n "mcpServers": {} }', ENTRY, 'windsurf'), { problem: 'not-json' });
    assert.deepEqual(withServer('[1, 2]', ENTRY, 'windsurf'), { problem: 'not-object' });
    assert.deepEqual(withServer('{"mcpServers": []}', ENTRY, 'windsurf'), { problem: 'servers-not-object' });
  });
});
