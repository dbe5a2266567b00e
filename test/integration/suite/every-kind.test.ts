// Every kind of finding the platform holds reaches the tree and Problems: secrets (a third group,
// at the line their link names, marked by validation, triaged as secrets) and AI code findings
// (with the code findings, marked, filterable); and findings leave as SARIF.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { addAiAndSecrets, type WireAiSastFinding, type WireSecretFinding } from '../../platform/secrets-and-ai';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { serverFindings, signedIn, type Fixture, type Snap } from './fixture';
import { screenshotsInThemes, waitFor } from './helpers';
import { snapshotTree } from './tree-snapshot';

/** The extension's diagnostic of a finding in a file (they carry their finding). */
const diagnosticOf = (file: vscode.Uri, id: string): FindingDiagnostic | undefined =>
  (vscode.languages.getDiagnostics(file) as FindingDiagnostic[]).find((d) => d.finding?.issueType === 'secrets' && String(d.finding.id) === id);

describe('every kind of finding', () => {
  let f: Fixture;
  let added: { ai: WireAiSastFinding[]; secrets: WireSecretFinding[] };
  before(async () => {
    f = await signedIn();
    added = addAiAndSecrets(f.data, 4, [f.project.name]);
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });
  /** Secrets a test triaged: reopened after it, even when it failed midway. */
  const triaged: string[] = [];
  afterEach(async () => {
    const slug = f.data.deployment.slug;
    const notOpen = triaged.splice(0).filter((id) => f.api.app.findings.finding(slug, 'secrets', Number(id))?.status !== 'open');
    if (notOpen.length > 0) await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: notOpen, issueType: 'secrets', state: 'reopened' });
  });
  after(async () => {
    // The other suites count findings: the fixture goes back to code and supply chain only.
    f.data.ai_sast.splice(0);
    f.data.secrets.splice(0);
    await vscode.commands.executeCommand('appsecFindings.clearFilters');
    await vscode.commands.executeCommand('appsecFindings.refresh');
  });

  it('secrets are in Problems at the line their link names (the first line without one), never with a value', async () => {
    const onMain = added.secrets.filter((s) => s.ref === f.project.primary_branch);
    assert.ok(onMain.length > 0);
    for (const secret of onMain) {
      const file = vscode.Uri.joinPath(f.folder.uri, secret.findingPath);
      const line = Number(/#L(\d+)$/.exec(secret.findingPathUrl ?? '')?.[1] ?? 1);
      await waitFor(() => diagnosticOf(file, secret.id) !== undefined, 10_000, `secret ${secret.id} in Problems`);
      const diagnostic = diagnosticOf(file, secret.id);
      assert.equal(diagnostic?.range.start.line, line - 1);
      assert.match(diagnostic?.message ?? '', new RegExp(`${secret.type} secret`));
    }
    // The details of a secret that works: said first, and no value anywhere.
    const valid = onMain.find((s) => s.validationState === 'VALIDATION_STATE_CONFIRMED_VALID');
    assert.ok(valid, 'a secret confirmed valid');
    const file = vscode.Uri.joinPath(f.folder.uri, valid.findingPath);
    const diagnostic = diagnosticOf(file, valid.id);
    assert.ok(diagnostic);
    await vscode.window.showTextDocument(file, { selection: diagnostic.range });
    assert.equal(await vscode.commands.executeCommand('appsecFindings.showDetails', { finding: diagnostic.finding }), true);
    const html = f.api.detailsPanel.shownHtml;
    assert.match(html, /<h2[^>]*>Secret<\/h2>/);
    assert.match(html, /This secret works/);
    await screenshotsInThemes('secret-details');
  });

  it('the tree has a Secrets group marked by validation, and AI findings with the code findings', async () => {
    await vscode.commands.executeCommand('appsecFindings.groupBy', 'severity');
    const projects = (await snapshotTree(f.api.trees.projects, 4)) as Snap[];
    const project = projects.find((p) => p.label === f.project.name);
    assert.deepEqual(
      project?.children?.map((c) => c.label),
      ['Code findings', 'Supply-chain findings', 'Secrets', 'Dependencies'],
    );
    const secrets = project?.children?.[2]?.children?.flatMap((g) => g.children ?? []) ?? [];
    assert.equal(secrets.length, added.secrets.filter((s) => s.ref === f.project.primary_branch).length);
    assert.ok(
      secrets.every((s) => /^(valid secret|invalid secret|not validated|validation failed) · /.test(s.description ?? '')),
      JSON.stringify(secrets.map((s) => s.description)),
    );
    const code = project?.children?.[0]?.children?.flatMap((g) => g.children ?? []) ?? [];
    const ai = code.filter((c) => (c.description ?? '').startsWith('AI · '));
    assert.equal(ai.length, added.ai.filter((a) => a.ref === f.project.primary_branch && a.status === 'open').length);
  });

  it('where a code finding, its AI twin and a secret share a line, the quick-fix menu and the hover name each one, and no entry repeats', async () => {
    // addAiAndSecrets puts an AI finding and a secret on the line of the project's first code findings.
    const files = vscode.languages.getDiagnostics().filter(([uri]) => uri.fsPath.startsWith(f.folder.uri.fsPath));
    const place = files
      .flatMap(([uri, list]) => (list as FindingDiagnostic[]).filter((d) => d.finding).map((d) => ({ uri, d })))
      .find(
        ({ uri, d }) =>
          d.finding.secret &&
          (vscode.languages.getDiagnostics(uri) as FindingDiagnostic[])
            .filter((o) => o.finding && o.range.start.line === d.range.start.line)
            .some((o) => o.finding.ai),
      );
    assert.ok(place, 'a line with a secret and an AI finding');
    const here = (vscode.languages.getDiagnostics(place.uri) as FindingDiagnostic[]).filter(
      (o) => o.finding && o.range.start.line === place.d.range.start.line,
    );
    assert.ok(here.length >= 3, `${here.length} findings on the line`);
    await vscode.window.showTextDocument(place.uri, { selection: new vscode.Range(place.d.range.start, place.d.range.start) });
    const document = await vscode.workspace.openTextDocument(place.uri);
    const line = document.lineAt(place.d.range.start.line).range;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      place.uri,
      line,
      vscode.CodeActionKind.QuickFix.value,
    );
    const titles = actions.map((a) => a.title);
    assert.equal(new Set(titles).size, titles.length, `no title twice: ${titles.join(' | ')}`);
    const service = place.d.finding.secret!.service;
    for (const expected of [`Ignore ${service} secret…`, `Show details of ${service} secret`, `Open ${service} secret in Platform`])
      assert.ok(titles.includes(expected), `${expected} in ${titles.join(' | ')}`);
    assert.ok(
      titles.some((t) => /^Ignore .+ \(AI\)…$/.test(t)),
      'the AI finding is named as one',
    );
    assert.ok(!titles.includes('Open in Platform') && !titles.includes('Copy Rule ID'), 'no unnamed generic entry');
    assert.ok(!titles.includes(`Copy Rule ID of ${service} secret`), 'a secret has no rule id to copy');

    // Inside every finding of the line: the latest start.
    const inside = here.map((d) => d.range.start).reduce((a, b) => (b.isAfter(a) ? b : a));
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', place.uri, inside);
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    const blocks = text.split(/\n---\n/).filter((b) => b.includes('command:appsecFindings.showDetails'));
    assert.ok(blocks.length >= 3, `one block of links per finding (${blocks.length})`);
    const words: Record<string, string> = {
      confirmed_valid: 'valid secret',
      confirmed_invalid: 'invalid secret',
      no_validator: 'not validated',
      validation_error: 'validation failed',
    };
    const validation = words[place.d.finding.secret!.validation];
    assert.ok(
      blocks.some((b) => b.includes(`**${service} secret**`) && b.includes(validation ?? '?')),
      `the secret's block says it is a ${validation ?? '?'}`,
    );
  });

  it("the AI filter narrows code findings to the AI analysis's, in Problems too", async () => {
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open', aiFindings: 'only' });
    const aiIds = new Set(added.ai.filter((a) => a.ref === f.project.primary_branch && a.status === 'open').map((a) => String(a.id)));
    const shown = vscode.languages.getDiagnostics().flatMap(([, list]) => (list as FindingDiagnostic[]).filter((d) => d.finding).map((d) => d.finding));
    const code = shown.filter((x) => x.issueType === 'sast');
    assert.ok(code.length > 0);
    assert.deepEqual(
      code.filter((x) => !aiIds.has(String(x.id))).map((x) => x.id),
      [],
      'only AI code findings',
    );
    assert.ok(
      shown.some((x) => x.issueType === 'sca'),
      'other kinds are not narrowed',
    );
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
  });

  it('a secret is ignored through the triage command and leaves Problems at once', async () => {
    const secret = added.secrets.find((s) => s.ref === f.project.primary_branch && s.status === 'FINDING_STATUS_OPEN');
    assert.ok(secret);
    const file = vscode.Uri.joinPath(f.folder.uri, secret.findingPath);
    await waitFor(() => diagnosticOf(file, secret.id) !== undefined, 10_000, 'the secret is shown');
    triaged.push(secret.id);
    await vscode.commands.executeCommand('appsecFindings.triage', {
      findingIds: [secret.id],
      issueType: 'secrets',
      state: 'ignored',
      reason: 'false_positive',
      note: 'a test key',
    });
    assert.equal(diagnosticOf(file, secret.id), undefined);
    assert.equal(secret.status, 'FINDING_STATUS_IGNORED', 'the platform has it ignored');
    const request = f.server.requests.filter((r) => r.path.endsWith('/triage')).pop();
    assert.equal((JSON.parse(request?.body ?? '{}') as { issue_type?: string }).issue_type, 'secrets');
  });

  it('exports the shown findings of the project as SARIF 2.1.0, written where asked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'appsec-sarif-'));
    const target = path.join(dir, 'shop.sarif');
    const result = await vscode.commands.executeCommand<{ results: number } | undefined>('appsecFindings.exportSarif', f.project.name, { saveTo: target });
    const log = JSON.parse(readFileSync(target, 'utf8')) as {
      version: string;
      runs: { results: { ruleId: string; level: string; properties: { issueType: string } }[] }[];
    };
    assert.equal(log.version, '2.1.0');
    const results = log.runs[0]?.results ?? [];
    assert.equal(results.length, result?.results);
    const kinds = new Set(results.map((r) => r.properties.issueType));
    assert.deepEqual([...kinds].sort(), ['sast', 'sca', 'secrets']);
    const query = { repos: f.project.name, ref: f.project.primary_branch, status: 'open', dedup: 'true' };
    const openCode =
      (await serverFindings(f, 'sast', query)).length + f.data.ai_sast.filter((x) => x.ref === f.project.primary_branch && x.status === 'open').length;
    const exported = results.filter((r) => r.properties.issueType === 'sast').length;
    assert.equal(exported, openCode, `the current filters (open) apply: ${exported} exported, ${openCode} open on the platform`);
    assert.ok(results.every((r) => ['error', 'warning', 'note'].includes(r.level)));
    rmSync(dir, { recursive: true, force: true });
  });
});
