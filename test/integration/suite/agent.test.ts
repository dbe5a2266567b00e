// The editor's AI agent through VS Code's language model tools API (vscode.lm.invokeTool): the
// workspace's findings by default (from the store: no second load), filters, path and limit, one
// finding by id and by link, triage like the command, bad input and signed-out answers.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KnownFindingDiagnostic as FindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { signedIn, signIn, type Fixture } from './fixture';
import { waitFor } from './helpers';

async function ask(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

function firstCodeDiagnostic(f: Fixture): FindingDiagnostic {
  let found: FindingDiagnostic | undefined;
  f.api.app.diagnostics.collection.forEach((_uri, list) => {
    found ??= (list as readonly FindingDiagnostic[]).find((d) => d.finding?.issueType === 'sast' && d.finding.status === 'open');
  });
  assert.ok(found, 'Problems shows an open code finding');
  return found;
}

describe("findings for the editor's agent", () => {
  let f: Fixture;
  /** Findings a test triaged: reopened after it, even when it failed midway. */
  const triaged: number[] = [];
  before(async () => {
    f = await signedIn();
    await vscode.commands.executeCommand('appsecFindings.filterFindings', { status: 'open' });
  });
  afterEach(async () => {
    if (f.api.app.session.state.kind !== 'signedIn') {
      await signIn(f);
      await vscode.commands.executeCommand('appsecFindings.refresh');
    }
    const slug = f.data.deployment.slug;
    const notOpen = triaged.splice(0).filter((id) => f.api.app.findings.finding(slug, 'sast', id)?.status !== 'open');
    if (notOpen.length > 0) await vscode.commands.executeCommand('appsecFindings.triage', { findingIds: notOpen, issueType: 'sast', state: 'reopened' });
  });

  it("lists the workspace's findings on its branch, where they are today, from the store without a second load", async () => {
    const mark = f.server.requests.length;
    const text = await ask('appsecFindings_findings', {});
    assert.equal(f.server.requests.slice(mark).filter((r) => r.path.endsWith('/findings')).length, 0, 'what Problems shows is not loaded again');
    assert.match(text, new RegExp(`^Findings of ${f.project.name.replace(/[/.]/g, '\\$&')} on ${f.project.primary_branch}, status open`));
    const lines = text.split('\n').filter((l) => l.startsWith('- #'));
    const shown = f.api.app.diagnostics.current[0].findings.filter((x) => x.status === 'open').length;
    assert.equal(lines.length, Math.min(50, shown));
    assert.match(text, new RegExp(`${shown} in all`));
    // One finding's line, asked for by its file so it is among those listed.
    const diagnostic = firstCodeDiagnostic(f);
    const ofFile = (await ask('appsecFindings_findings', { path: diagnostic.finding.location?.filePath })).split('\n');
    const line = ofFile.find((l) => l.startsWith(`- #${diagnostic.finding.id} `));
    assert.ok(line?.includes(`:${diagnostic.range.start.line + 1} `), `today's line in ${line ?? '(not listed)'}`);
  });

  it('filters by severity and path, and a limit says how many were left out', async () => {
    const critical = (await ask('appsecFindings_findings', { severities: ['critical'] })).split('\n').filter((l) => l.startsWith('- #'));
    assert.ok(critical.length > 0 && critical.every((l) => / critical /.test(l)));
    const file = firstCodeDiagnostic(f).finding.location!.filePath;
    const inFile = (await ask('appsecFindings_findings', { path: file })).split('\n').filter((l) => l.startsWith('- #'));
    assert.ok(inFile.length > 0 && inFile.every((l) => l.includes(` at ${file}:`)), inFile.join('\n'));
    assert.match(await ask('appsecFindings_findings', { limit: 2 }), /in all; \d+ left out\. Narrow down/);
  });

  it('one finding by id and by its platform link; an unknown id and bad input are answered in a sentence', async () => {
    const { finding } = firstCodeDiagnostic(f);
    const byId = await ask('appsecFindings_finding', { id: finding.id });
    assert.match(byId, new RegExp(`^Finding: #${finding.id} \\(code\\)`));
    assert.match(byId, /Message: "/);
    const url = `${f.server.url}/orgs/${f.data.deployment.slug}/findings/${finding.id}`;
    assert.equal(await ask('appsecFindings_finding', { url }), byId);
    assert.match(await ask('appsecFindings_finding', { id: 123456789 }), /is not among the findings the editor has loaded/);
    const bad = await ask('appsecFindings_findings', { limit: 0 }).catch((e: unknown) => String(e));
    assert.match(bad, /limit/);
  });

  it('triage through the tool changes Problems like the command does', async () => {
    const { finding } = firstCodeDiagnostic(f);
    triaged.push(finding.id);
    const answer = await ask('appsecFindings_triage', {
      findingIds: [finding.id],
      issueType: 'sast',
      state: 'ignored',
      reason: 'false_positive',
      note: 'agent: test data',
    });
    assert.match(answer, /^Done: the platform triaged/);
    await waitFor(
      () => !f.api.app.diagnostics.current[0].findings.some((x) => x.id === finding.id && x.status === 'open'),
      5_000,
      'the finding left the open findings',
    );
    assert.match(
      await ask('appsecFindings_triage', { findingIds: [finding.id], issueType: 'sast', state: 'reviewing', reason: 'no_time' }),
      /only with "ignored"/,
    );
  });

  it('signed out: one sentence saying what to do', async () => {
    await vscode.commands.executeCommand('appsecFindings.signOut');
    assert.match(await ask('appsecFindings_findings', {}), /^Not signed in to the AppSec platform/);
    assert.match(await ask('appsecFindings_finding', { id: 1 }), /^Not signed in/);
  });
});
