// An agent outside VS Code, as it really runs: the SDK's client starts the extension's MCP server
// as a child process over stdio, exactly as `appsecFindings.agentServer` says, and the server
// asks this window over its private channel. The server gives a finding the line Problems gives
// it after an unsaved edit; no token is in the launch spec or the child's arguments or environment.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { signedIn, signIn } from './fixture';
import { inEachTheme, putDocumentBack, readWindow, restoreAfterEach, screenshotHandshake, waitFor } from './helpers';

// The extension's diagnostics carry their finding (the suite's bundle has its own copy of the class, so no instanceof).
const withFinding = (d: vscode.Diagnostic): d is KnownFindingDiagnostic => (d as { finding?: unknown }).finding !== undefined;

/** The first finding Problems shows in a file of the workspace that `wanted` accepts, with its file. */
function firstShown(wanted: (d: KnownFindingDiagnostic) => boolean): [vscode.Uri, KnownFindingDiagnostic] | [] {
  for (const [uri, list] of vscode.languages.getDiagnostics()) {
    const found = uri.scheme === 'file' ? list.filter(withFinding).find(wanted) : undefined;
    if (found) return [uri, found];
  }
  return [];
}

interface LaunchSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
}
interface Listed {
  id: number;
  path?: string;
  line?: number;
  codeChanged?: boolean;
  issueType: string;
}

describe('the MCP server, started by an agent', () => {
  const undo = restoreAfterEach();

  async function started(): Promise<{ client: Client; spec: LaunchSpec; pid: number }> {
    const spec = await vscode.commands.executeCommand<LaunchSpec>('appsecFindings.agentServer');
    assert.ok(spec, 'the window gives a launch spec');
    const transport = new StdioClientTransport({ command: spec.command, args: spec.args, env: spec.env, stderr: 'pipe' });
    const client = new Client({ name: 'in-host-agent', version: '1.0.0' });
    await client.connect(transport);
    undo(() => client.close());
    assert.ok(transport.pid, 'the server runs as a process of its own');
    return { client, spec, pid: transport.pid };
  }

  it('gives a finding the line Problems gives it after an unsaved edit, from a process that holds no token', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const { client, spec, pid } = await started();
    for (const [what, text] of [
      ['launch spec', JSON.stringify(spec)],
      ['arguments', readFileSync(`/proc/${pid}/cmdline`, 'utf8')],
      ['environment', readFileSync(`/proc/${pid}/environ`, 'utf8')],
    ]) {
      assert.ok(!text.includes(f.server.token), `no token in the server's ${what}`);
    }
    assert.ok(!readFileSync(`/proc/${pid}/environ`, 'utf8').includes('SEMGREP_APP_TOKEN'), 'no token variable either');

    // A code finding Problems shows in a file of the workspace; three lines typed above it, unsaved.
    const [uri, diagnostic] = firstShown((d) => d.finding.issueType === 'sast' && d.range.start.line > 0);
    assert.ok(uri && diagnostic, "Problems shows a code finding below a file's first line");
    const document = await vscode.workspace.openTextDocument(uri);
    const original = document.getText();
    undo(() => putDocumentBack(document, original));
    const id = diagnostic.finding.id;
    const lineOf = (): number | undefined =>
      vscode.languages
        .getDiagnostics(uri)
        .filter(withFinding)
        .find((d) => d.finding.id === id)?.range.start.line;
    const before = lineOf()!;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), 'typed one\ntyped two\ntyped three\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await waitFor(() => lineOf() === before + 3, 10_000, 'Problems moves the finding down three lines');
    assert.ok(document.isDirty, 'the edit is not saved');

    const listed = await client.callTool({ name: 'findings', arguments: { path: uri.fsPath, status: 'all', limit: 500 } });
    assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
    const found = (listed.structuredContent as { findings: Listed[] }).findings.find((x) => x.id === id);
    assert.ok(found, `the server lists finding #${id}`);
    assert.equal(found.path, vscode.workspace.asRelativePath(uri, false), 'its path, relative to the repository root');
    assert.equal(found.line, before + 3 + 1, 'the line Problems shows (1-based), unsaved edit included');

    const one = await client.callTool({ name: 'finding', arguments: { id } });
    assert.equal(one.isError, undefined, JSON.stringify(one.content));
    const { finding } = one.structuredContent as { finding: Listed };
    assert.equal(finding.line, before + 3 + 1, 'the finding tool places it the same');
    assert.match(JSON.stringify(one.content), new RegExp(`Where today: [^\\n]*:${before + 4}`));
  });

  it('signed out: every findings tool is an MCP error that says to sign in', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const { client } = await started();
    undo(async () => {
      await signIn(f);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    });
    await vscode.commands.executeCommand('appsecFindings.signOut');
    for (const [name, args] of [
      ['findings', {}],
      ['finding', { id: 1 }],
      ['dependencies', { package: 'lodash' }],
      ['triage', { findingIds: [1], issueType: 'sast', state: 'reviewing' }],
    ] as const) {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, `${name} is an error`);
      assert.match(JSON.stringify(result.content), /Not signed in to the AppSec platform.*Sign In/, `${name} says to sign in`);
    }
  });

  it("Connect an Agent writes the server into an agent's list beside what it held, with no token; that entry, started in the repository, finds this window", async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const root = f.folder.uri.fsPath;
    const listFile = join(root, '.mcp.json');
    undo(() => rmSync(listFile, { force: true }));
    writeFileSync(listFile, JSON.stringify({ mcpServers: { github: { command: 'gh-mcp' } } }));
    const connected = await vscode.commands.executeCommand<{ path?: string; problem?: string }>('appsecFindings.connectAgent', { client: 'claude-code' });
    assert.equal(connected?.path, listFile, `written where Claude Code reads its project's servers: ${JSON.stringify(connected)}`);
    const written = readFileSync(listFile, 'utf8');
    assert.ok(!written.includes(f.server.token), 'no token in the file');
    const { mcpServers } = JSON.parse(written) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
    assert.deepEqual(Object.keys(mcpServers), ['github', 'appsec-findings'], 'the other server stays');
    const entry = mcpServers['appsec-findings'];
    assert.ok(existsSync(entry.args[0]), 'the script it names is there');
    assert.equal(entry.env.APPSEC_FINDINGS_WINDOW, undefined, 'no window pinned: the server finds the one open on the repository');

    // As the agent starts it: in the repository, from the entry alone.
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: entry.env, cwd: join(root, 'src'), stderr: 'pipe' });
    const client = new Client({ name: 'claude-code-like', version: '1.0.0' });
    await client.connect(transport);
    undo(() => client.close());
    const listed = await client.callTool({ name: 'findings', arguments: {} });
    assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
    assert.ok((listed.structuredContent as { total: number }).total > 0, "the window's findings");

    // A list with comments is not ours to rewrite: left as it was, and said why.
    const cursorFile = join(root, '.cursor', 'mcp.json');
    undo(() => rmSync(join(root, '.cursor'), { recursive: true, force: true }));
    mkdirSync(join(root, '.cursor'), { recursive: true });
    const commented = '{\n  // my servers\n  "mcpServers": {}\n}\n';
    writeFileSync(cursorFile, commented);
    const refused = await vscode.commands.executeCommand<{ problem?: string }>('appsecFindings.connectAgent', { client: 'cursor' });
    assert.match(refused?.problem ?? '', /left as it is: it is not plain JSON/);
    assert.equal(readFileSync(cursorFile, 'utf8'), commented, 'the file is untouched');
  });

  it('Connect an Agent from the palette: a picker of the agents and where each keeps its servers', async function () {
    this.timeout(60_000);
    await signedIn();
    await inEachTheme(['light', 'dark'], async (theme) => {
      const picking = Promise.resolve(vscode.commands.executeCommand('appsecFindings.connectAgent'));
      let rows: string[] = [];
      await waitFor(
        async () => (rows = (await readWindow('.quick-input-list .monaco-list-row')).map((r) => r.text)).length === 5,
        10_000,
        () => `the picker lists the agents' five lists: ${rows.join(' | ')}`,
      );
      ['Claude Code', 'Claude Code', 'Cursor', 'Windsurf', 'Cline'].forEach((name, i) =>
        assert.ok(rows[i].startsWith(name), `row ${i + 1} is ${name}: ${rows[i]}`),
      );
      assert.ok(rows[0].includes('.mcp.json') && rows[0].includes('For this project'), `Claude Code's project list, said so: ${rows[0]}`);
      assert.ok(rows[1].includes('.claude.json') && rows[1].includes('every project of yours'), `Claude Code's own list, said so: ${rows[1]}`);
      assert.ok(rows[4].includes('cline_mcp_settings.json'), `each with its file: ${rows.join(' | ')}`);
      await screenshotHandshake(`connect-agent-pick-${theme}`);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(await picking, undefined, 'closing the picker writes nothing');
    });
  });

  it('Open Finding from Link opens a platform link where the finding is today; another link, or a finding not loaded, opens nothing', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    undo(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    const [uri, diagnostic] = firstShown((d) => d.finding.issueType === 'sast');
    assert.ok(uri && diagnostic, 'Problems shows a code finding');
    const link = f.api.app.findingUrl(diagnostic.finding);
    assert.ok(link, 'the finding has a platform link');
    assert.equal(await vscode.commands.executeCommand('appsecFindings.openFindingLink', link), 'editor');
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.uri.toString(), uri.toString(), 'its file is open');
    assert.equal(editor.selection.start.line, diagnostic.range.start.line, 'at the line Problems shows');
    assert.equal(
      await vscode.commands.executeCommand('appsecFindings.openFindingLink', 'command:workbench.action.quit'),
      undefined,
      "not a finding's link: nothing opens",
    );
    assert.equal(
      await vscode.commands.executeCommand('appsecFindings.openFindingLink', link.replace(/\d+$/, '987654321')),
      'notLoaded',
      'a finding the editor has not loaded is offered on the platform',
    );
  });

  it('a vscode:// link to a finding opens it where it is today, as VS Code hands the link to the extension', async function () {
    this.timeout(60_000);
    const f = await signedIn();
    undo(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));
    const [uri, diagnostic] = firstShown(() => true);
    assert.ok(uri && diagnostic, 'Problems shows a finding');
    const link = f.api.app.findingUrl(diagnostic.finding);
    assert.ok(link, 'the finding has a platform link');
    // The web workbench sends vscode:// links to its own page, so the handler is called as VS Code calls it.
    f.api.app.findingLinks.handleUri(vscode.Uri.parse(`${vscode.env.uriScheme}://appsec-findings.appsec-findings/finding?url=${encodeURIComponent(link)}`));
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.toString() === uri.toString(),
      10_000,
      () => `the link opens ${uri.fsPath}: ${vscode.window.activeTextEditor?.document.uri.fsPath ?? 'nothing'} is open`,
    );
    assert.equal(vscode.window.activeTextEditor?.selection.start.line, diagnostic.range.start.line, 'at the line Problems shows');
  });

  it("VS Code's own agent is offered the server only when the setting asks, without a token", async function () {
    this.timeout(60_000);
    const f = await signedIn();
    const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
    const provider = f.api.app.mcpServerInVsCode;
    if (major === 1 && minor < 101) {
      // Older VS Code has no such provider to register; the extension activates all the same.
      assert.equal(provider, undefined, `VS Code ${vscode.version} is offered no MCP server`);
      return;
    }
    assert.ok(provider, `VS Code ${vscode.version} has the provider registered`);
    assert.deepEqual(await provider.provideMcpServerDefinitions(), [], 'off by default: Copilot keeps the language-model tools alone');
    const settings = vscode.workspace.getConfiguration('appsecFindings');
    undo(() => settings.update('agents.mcpServerInVsCode', undefined, vscode.ConfigurationTarget.Global));
    const changed = new Promise<void>((resolve) => {
      const once = provider.onDidChangeMcpServerDefinitions(() => {
        once.dispose();
        resolve();
      });
    });
    await settings.update('agents.mcpServerInVsCode', true, vscode.ConfigurationTarget.Global);
    await changed;
    const definitions = (await provider.provideMcpServerDefinitions()) as { label: string; command: string; args: string[]; env: Record<string, string> }[];
    assert.equal(definitions.length, 1, 'one server once asked for');
    const [definition] = definitions;
    const spec = await vscode.commands.executeCommand<LaunchSpec>('appsecFindings.agentServer');
    assert.deepEqual([definition.command, definition.args, definition.env], [spec.command, spec.args, spec.env], 'the launch spec of this window');
    assert.ok(!JSON.stringify(definition).includes(f.server.token), 'no token in what VS Code is given');
    const client = new Client({ name: 'vscode-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: definition.command, args: definition.args, env: definition.env, stderr: 'pipe' }));
    undo(() => client.close());
    const listed = await client.callTool({ name: 'findings', arguments: { limit: 5 } });
    assert.equal(listed.isError, undefined, JSON.stringify(listed.content));
  });
});
