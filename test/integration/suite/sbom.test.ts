// SBOM exports end as a file: followed to the end, fetched from the storage origin without the
// token, checked, written where automation says (no dialog) and opened; failures write nothing;
// a job still running when the window reloads is followed again.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeRecord, formatLabel, resumeSbomExports } from '../../../src/commands/sbom-commands';
import { fixture, signedIn, storedState } from './fixture';
import { readWindow, screenshotsInThemes, waitFor } from './helpers';

interface Record {
  state: string;
  taskToken: string;
  savedTo?: string;
  errorMessage?: string;
}

describe('SBOM export to a file', () => {
  before(async () => {
    await signedIn();
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'appsec-sbom-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const options = (ref: string, extra: object = {}): object => ({
    ref,
    outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
    cycloneDxVersion: '1.6',
    componentType: 'LIBRARY',
    ...extra,
  });

  it('writes the CycloneDX document to saveTo as sent, fetched without the token, and shows it indented', async () => {
    const f = await fixture();
    const target = path.join(dir, 'shop.cdx.json');
    const storageBefore = f.server.storageRequests.length;
    const record = await vscode.commands.executeCommand<Record>(
      'appsecFindings.exportSbom',
      f.project.name,
      options(f.project.primary_branch, { saveTo: target }),
    );
    assert.equal(record.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.equal(record.savedTo, target);
    const bom = JSON.parse(readFileSync(target, 'utf8')) as { bomFormat: string; specVersion: string; components: unknown[] };
    assert.equal(bom.bomFormat, 'CycloneDX');
    assert.equal(bom.specVersion, '1.6');
    const fetched = f.server.storageRequests.slice(storageBefore);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined, 'the token never goes to the storage origin');
    // Sent on one line: kept so in the file, shown indented for reading only.
    const sent = readFileSync(target, 'utf8');
    assert.equal(sent.split('\n').length, 1, 'the file holds the bytes as sent');
    const shown = vscode.window.activeTextEditor?.document;
    assert.equal(shown?.isUntitled, false, 'not an Untitled editor that asks to be saved');
    assert.equal(shown?.uri.scheme, 'appsec-reading', 'read-only');
    assert.match(shown?.uri.path ?? '', /shop\.cdx \(indented\)\.json$/, 'named after the file');
    assert.equal(shown?.isDirty, false);
    assert.equal(shown?.languageId, 'json');
    assert.ok((shown?.lineCount ?? 0) > 10, 'indented');
    assert.deepEqual(JSON.parse(shown?.getText() ?? ''), JSON.parse(sent), 'the same document');
    const post = f.server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/sbom/export')).pop();
    assert.deepEqual((JSON.parse(post?.body ?? '{}') as { formatVersion: unknown }).formatVersion, { format: 'SBOM_FORMAT_CYCLONEDX', version: '1.6' });
    assert.equal(f.api.app.sbom.history[0]?.savedTo, target, 'the history says where it went');
    // Closing it asks nothing (the test workbench refuses any dialog, so one would keep it open).
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.scheme === 'appsec-reading'), 'closed without a question');
  });

  it('an XML export is saved as CycloneDX XML', async () => {
    const f = await fixture();
    const target = path.join(dir, 'shop.cdx.xml');
    const record = await vscode.commands.executeCommand<Record>(
      'appsecFindings.exportSbom',
      f.project.name,
      options(f.project.primary_branch, { outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX', saveTo: vscode.Uri.file(target) }),
    );
    assert.equal(record.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.match(readFileSync(target, 'utf8'), /^<\?xml[^>]*\?>\n<bom xmlns="http:\/\/cyclonedx\.org\/schema\/bom\/1\.6"/);
  });

  it("a failed job writes nothing and keeps the platform's reason", async () => {
    const f = await fixture();
    const target = path.join(dir, 'never.cdx.json');
    const record = await vscode.commands.executeCommand<Record>(
      'appsecFindings.exportSbom',
      f.project.name,
      options('never-scanned-branch', { saveTo: target }),
    );
    assert.equal(record.state, 'SBOM_EXPORT_STATUS_FAILED');
    assert.match(record.errorMessage ?? '', /never-scanned-branch/);
    assert.equal(existsSync(target), false);
  });

  it('a relative saveTo is refused (said, not thrown at the caller) before anything is sent', async () => {
    const f = await fixture();
    const before = f.server.requests.length;
    const result = await vscode.commands.executeCommand('appsecFindings.exportSbom', f.project.name, options('main', { saveTo: 'out/sbom.json' }));
    assert.equal(result, undefined);
    assert.equal(f.server.requests.slice(before).filter((r) => r.path.includes('/sbom/')).length, 0);
  });

  it('a job still running when the window closed is persisted and followed again after the reload', async () => {
    const f = await fixture();
    const started = await vscode.commands.executeCommand<Record>(
      'appsecFindings.exportSbom',
      f.project.name,
      options(f.project.primary_branch, { follow: false }),
    );
    assert.equal(started.state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    assert.ok(storedState(f.api).includes(started.taskToken), "the history is in the extension's state, so it survives a reload");
    // What the start does after a reload (the following started by the command may still run: it is shared).
    resumeSbomExports(f.api.app);
    await waitFor(
      () => f.api.app.sbom.history.find((r) => r.taskToken === started.taskToken)?.state === 'SBOM_EXPORT_STATUS_COMPLETED',
      20_000,
      'the resumed job completes',
    );
    assert.equal(f.api.app.sbom.pending.length, 0);
  });

  it("the history says each job's state, its failure and where its document went", async () => {
    const f = await fixture();
    const history = f.api.app.sbom.history;
    const saved = history.find((r) => r.savedTo);
    const failed = history.find((r) => r.state === 'SBOM_EXPORT_STATUS_FAILED');
    assert.ok(saved && failed);
    assert.match(describeRecord(saved), new RegExp(`^completed · saved to ${saved.savedTo?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') ?? ''} · `));
    assert.match(describeRecord(failed), /^failed: no scan of .* on ref never-scanned-branch · /);
    assert.match(
      describeRecord({ ...saved, state: 'SBOM_EXPORT_STATUS_IN_PROGRESS', stalled: true, savedTo: undefined }),
      /^still running \(checking stopped\) · /,
    );
    assert.equal(formatLabel('SBOM_OUTPUT_FORMAT_CYCLONEDX 1.6'), 'CycloneDX XML 1.6');
    const shown = vscode.commands.executeCommand('appsecFindings.showSbomExports');
    // The window lists the history: the saved job among it, by the file it went to.
    const listed = async (): Promise<string> =>
      (await readWindow('.quick-input-widget:visible .quick-input-list .monaco-list-row')).map((r) => `${r.label} ${r.text}`).join(' | ');
    let seen = '';
    await waitFor(
      async () => (seen = await listed()).includes(path.basename(saved.savedTo ?? '')),
      10_000,
      () => `the exports are listed (shows: ${seen})`,
    );
    await screenshotsInThemes('sbom-history');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await shown;
  });
});
