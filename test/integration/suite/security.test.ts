// The token stays in SecretStorage only, and text or links from the server can never act.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlatformError } from '../../../src/core/model/errors';
import { fixture, type Fixture, signedIn, storedState } from './fixture';
import { restoreAfterEach } from './helpers';
import { walkTree } from './tree-snapshot';

const HOSTILE = '<img src=x onerror=alert(1)> [click](command:workbench.action.quit) **bold** `code`';

function everywhere(f: Fixture): string {
  return [
    JSON.stringify(vscode.workspace.getConfiguration('appsecFindings')),
    JSON.stringify(vscode.workspace.getConfiguration('http')),
    storedState(f.api),
    f.api.app.log.recent().join('\n'),
    f.api.statusBar.text,
  ].join('\n');
}

describe('security', () => {
  // Stands alone: signs in (and fills Problems) when run first or by itself.
  before(async () => {
    await signedIn();
  });
  const undo = restoreAfterEach();

  it('keeps the token out of logs (trace level included), settings, state and the status bar', async () => {
    const f = await fixture();
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.ok(f.api.app.log.recent().length > 0, 'something was logged');
    assert.ok(!everywhere(f).includes(f.server.token));
    assert.ok(f.server.requests.length > 0);
    assert.ok(
      f.server.requests.every((r) => !r.rawUrl.includes(f.server.token)),
      'the token is only ever in the Authorization header, never a URL',
    );
  });

  it('scrubs the token from errors even when the server echoes it back', async () => {
    const f = await fixture();
    const echo = `{"error":"bad request for Bearer ${f.server.token}","token":"${f.server.token}"}`;
    const tags = [...f.project.tags];
    undo(async () => {
      f.server.faults.clear();
      // Refused by the fault; had it reached the platform, the tag is taken off again.
      if (!tags.includes('x') && f.project.tags.includes('x'))
        await vscode.commands.executeCommand('appsecFindings.editTags', f.project.name, { remove: ['x'] });
    });
    f.server.faults.inject({ kind: 'status', status: 400, body: echo }, { pathIncludes: '/projects' }, 3);
    const error = await f.api.app.session.api.listProjects(f.data.deployment.slug).then(
      () => undefined,
      (e: unknown) => e as PlatformError,
    );
    // The extension's bundle has its own PlatformError class: compare the reason, not the class.
    assert.equal(error?.reason, 'badRequest', String(error));
    const text = [error?.message, error?.stack, error?.bodySnippet, JSON.stringify(error)].join('\n');
    assert.ok(!text.includes(f.server.token), 'the error carries the token');
    assert.match(error?.bodySnippet ?? '', /bad request/);
    // The same failure through a command: logged, shown, and still no token anywhere.
    await vscode.commands.executeCommand('appsecFindings.tagProject', f.project.name, 'x');
    assert.ok(!everywhere(f).includes(f.server.token));
  });

  it('shows hostile server text as inert text, and never trusts it as markdown', async () => {
    const f = await fixture();
    const template = f.data.sast.find((x) => x.repository?.name === f.project.name && x.ref === f.project.primary_branch && x.status === 'open')!;
    f.data.sast.push({
      ...template,
      id: 990_020,
      syntactic_id: 'hostile',
      rule_message: HOSTILE,
      relevant_since: new Date().toISOString(),
      line_of_code_url: 'command:workbench.action.quit',
      location: { file_path: 'src/hostile.py', line: 3 },
    });
    undo(() => (f.data.sast = f.data.sast.filter((x) => x.id !== 990_020)));
    await vscode.commands.executeCommand('appsecFindings.refresh');
    const [diagnostic] = vscode.languages.getDiagnostics(vscode.Uri.joinPath(f.folder.uri, 'src/hostile.py'));
    assert.ok(diagnostic, 'the finding is shown');
    assert.equal(diagnostic.message, HOSTILE, 'diagnostics are plain text: shown exactly as sent');
    const target = (diagnostic.code as { target?: vscode.Uri }).target;
    // The command: link is refused; the code links to the platform's page of the finding instead.
    assert.ok(target && ['http', 'https'].includes(target.scheme), `a link only to http(s), got ${target?.toString()}`);

    const node = (await walkTree(f.api.trees.projects, 6, 400)).map((w) => w.node).find((n) => n.kind === 'finding' && n.finding.id === 990_020);
    assert.ok(node, 'the hostile finding in the tree');
    const item = await f.api.trees.projects.resolveTreeItem(f.api.trees.projects.getTreeItem(node), node, new vscode.CancellationTokenSource().token);
    assert.ok(item.tooltip instanceof vscode.MarkdownString, "a finding's tooltip is Markdown");
    assert.equal(item.tooltip.isTrusted, false);
    assert.notEqual(item.tooltip.supportHtml, true);
  });

  it('refuses a plain-http base URL to another host: the token is never sent there', async () => {
    const f = await fixture();
    const config = vscode.workspace.getConfiguration('appsecFindings');
    undo(async () => {
      // Put back by the test itself when it gets that far.
      if (vscode.workspace.getConfiguration('appsecFindings').get('baseUrl') !== f.server.url)
        await config.update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
    });
    await config.update('baseUrl', 'http://platform.example.com', vscode.ConfigurationTarget.Global);
    const before = f.server.requests.length;
    const error = await f.api.app.session.api.listProjects(f.data.deployment.slug).then(
      () => undefined,
      (e: unknown) => e as PlatformError,
    );
    assert.equal(error?.reason, 'insecureUrl');
    assert.match(error?.message ?? '', /https/);
    assert.equal(f.server.requests.length, before);
    // Through a command: reported with its fix, and the views keep working.
    await vscode.commands.executeCommand('appsecFindings.refresh');
    assert.equal(f.server.requests.length, before, 'nothing was sent anywhere');
    await config.update('baseUrl', f.server.url, vscode.ConfigurationTarget.Global);
    assert.ok(await f.api.app.session.api.listProjects(f.data.deployment.slug));
  });

  it('refuses to open links that are not http(s)', async () => {
    await fixture();
    for (const url of ['command:workbench.action.quit', 'javascript:alert(1)', 'file:///etc/passwd']) {
      for (const command of ['appsecFindings.openOnGitHub', 'appsecFindings.openOnCodeHost', 'appsecFindings.openInPlatform']) {
        const opened = await vscode.commands.executeCommand(command, { project: { url } });
        assert.equal(opened, false, `${command} ${url}`);
        if (command === 'appsecFindings.openInPlatform') continue; // a finding's platform page is the platform's own link
        const viaFinding = await vscode.commands.executeCommand(command, { finding: { issueType: 'sast', ruleName: 'r', id: 1, lineOfCodeUrl: url } });
        assert.equal(viaFinding, false, `${command} finding ${url}`);
      }
    }
  });
});
