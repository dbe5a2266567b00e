// A finding's story and the ways to fix it, in the real host: the trace read when wanted and
// listed under the finding in Problems, at today's lines after an edit above its source; the
// details' Trace, Elsewhere and Activity; Show Trace walking the steps in the editor; a fix pull
// request asked for (followed until it is open) and refused; Fix with Agent with its prompt; and
// a deployment without the story reading "no trace" without a toast.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AUTOFIX_SENTENCES } from '../../../src/core/model/autofix-outcome';
import type { Finding } from '../../../src/core/model/types';
import type { KnownFindingDiagnostic } from '../../../src/diagnostics/finding-diagnostic';
import { signedIn, type Fixture } from './fixture';
import { firstFindingNode, walkTree } from './tree-snapshot';
import { actInWindow, notificationTexts, readWindow, restoreAfterEach, screenshotHandshake, screenshotsInThemes, waitFor } from './helpers';

interface RawStep {
  path: string;
  start: { line: string };
}
interface RawStory {
  dataflowTrace?: { taintSource?: RawStep[]; intermediateVars?: RawStep[]; taintSink?: RawStep[] };
  relatedIssues?: unknown[];
  activityHistory?: unknown[];
  isBlocking?: boolean;
}
interface TraceStepResult {
  role: string;
  uri?: vscode.Uri;
  range?: vscode.Range;
  url?: string;
  gone?: boolean;
}

async function rawStory(f: Fixture, id: number): Promise<RawStory> {
  const response = await fetch(`${f.server.url}/api/agent/deployments/${f.data.deployment.id}/issues/v2/${id}`, {
    headers: { Authorization: `Bearer ${f.server.token}` },
  });
  return (await response.json()) as RawStory;
}

const stepsOf = (story: RawStory): RawStep[] => [
  ...(story.dataflowTrace?.taintSource ?? []),
  ...(story.dataflowTrace?.intermediateVars ?? []),
  ...(story.dataflowTrace?.taintSink ?? []),
];

/** Our diagnostic of a finding, wherever Problems draws it. */
function diagnosticOf(f: Fixture, id: number): { uri: vscode.Uri; diagnostic: KnownFindingDiagnostic } | undefined {
  let found: { uri: vscode.Uri; diagnostic: KnownFindingDiagnostic } | undefined;
  f.api.app.diagnostics.collection.forEach((uri, list) => {
    const hit = (list as readonly KnownFindingDiagnostic[]).find((d) => d.finding?.id === id);
    if (hit) found = { uri, diagnostic: hit };
  });
  return found;
}

/** Findings a test of this file took: each test takes one of its own. */
const taken = new Set<number>();

/**
 * A code finding Problems shows whose story has a trace of three or more steps all in its own
 * file (and, with `history`, the same finding on another branch and a history), not taken by
 * another test. Found by asking the platform.
 */
async function storied(f: Fixture, history = true): Promise<{ finding: Finding; lines: number[] }> {
  const shown = f.api.app.diagnostics.current
    .flatMap((folder) => folder.findings)
    .filter((x) => x.issueType === 'sast' && x.location && x.status === 'open' && diagnosticOf(f, x.id));
  for (const finding of shown) {
    if (taken.has(finding.id)) continue;
    const story = await rawStory(f, finding.id);
    const steps = stepsOf(story);
    if (steps.length < 3 || steps.some((s) => s.path !== finding.location?.filePath)) continue;
    if (history && (!story.relatedIssues?.length || !story.activityHistory?.length)) continue;
    taken.add(finding.id);
    return { finding, lines: steps.map((s) => Number(s.start.line)) };
  }
  throw new Error('no shown code finding has a whole story');
}

const related = (f: Fixture, id: number): number[] => diagnosticOf(f, id)?.diagnostic.relatedInformation?.map((r) => r.location.range.start.line) ?? [];

describe("a finding's trace and the ways to fix it", () => {
  let f: Fixture;
  before(async () => {
    f = await signedIn();
  });
  const undo = restoreAfterEach();
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("Show Trace: the steps in today's code, and Problems lists them under the finding, at today's lines after an edit above the source", async function () {
    this.timeout(90_000);
    const { finding, lines } = await storied(f);
    const uri = vscode.Uri.joinPath(f.folder.uri, finding.location?.filePath ?? '');
    assert.deepEqual(related(f, finding.id), [], 'nothing before the story is wanted');
    const steps = await vscode.commands.executeCommand<TraceStepResult[]>('appsecFindings.showTrace', { findingId: finding.id, issueType: 'sast' });
    assert.deepEqual(
      steps.map((s) => s.role),
      ['source', ...lines.slice(2).map(() => 'step'), 'sink'],
      'source first, sink last',
    );
    assert.deepEqual(
      steps.map((s) => [s.uri?.toString(), s.range?.start.line]),
      lines.map((line) => [uri.toString(), line - 1]),
      'each step in the workspace, at its line',
    );
    assert.deepEqual(
      related(f, finding.id),
      lines.map((line) => line - 1),
      'the diagnostic carries the steps as related information, in order',
    );
    const messages = diagnosticOf(f, finding.id)?.diagnostic.relatedInformation?.map((r) => r.message) ?? [];
    assert.match(messages[0] ?? '', /^source \(1 of \d\): /);
    assert.match(messages.at(-1) ?? '', /^sink \(\d of \d\): /);

    // Three lines typed above the source, unsaved: the finding and every step move down by three.
    const editor = await vscode.window.showTextDocument(uri);
    undo(async () => {
      await vscode.window.showTextDocument(uri);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });
    await editor.edit((b) => b.insert(new vscode.Position(0, 0), 'added one\nadded two\nadded three\n'));
    await waitFor(
      () => diagnosticOf(f, finding.id)?.diagnostic.range.start.line === (finding.location?.line ?? 0) + 2,
      10_000,
      'the finding moved with the edit',
    );
    await waitFor(
      () => JSON.stringify(related(f, finding.id)) === JSON.stringify(lines.map((line) => line + 2)),
      10_000,
      () =>
        `the steps moved with the edit (at ${related(f, finding.id)
          .map((l) => l + 1)
          .join(', ')}; scanned at ${lines.join(', ')})`,
    );
    const again = await vscode.commands.executeCommand<TraceStepResult[]>('appsecFindings.showTrace', { findingId: finding.id, issueType: 'sast' });
    assert.deepEqual(
      again.map((s) => s.range?.start.line),
      lines.map((line) => line + 2),
      'Show Trace places them there too',
    );

    // What the user sees: Problems of this file, the trace under the finding.
    undo(() => vscode.commands.executeCommand('workbench.actions.workbench.panel.markers.view.toggleActiveFile'));
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.commands.executeCommand('workbench.actions.workbench.panel.markers.view.toggleActiveFile');
    await vscode.window.showTextDocument(uri, { selection: diagnosticOf(f, finding.id)?.diagnostic.range, preserveFocus: false });
    // The steps are asserted on the diagnostic above. What the window draws of Problems after a
    // long suite depends on the panel's earlier state (virtualized rows, a toggled active-file
    // filter), so the window is only pictured here.
    await screenshotsInThemes('trace-in-problems');
  });

  it('the details panel: Trace with each step opening its code, Elsewhere, Activity; Show Trace walks the steps in the editor', async function () {
    this.timeout(90_000);
    const { finding, lines } = await storied(f);
    const panel = f.api.detailsPanel;
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    await waitFor(() => panel.shownHtml.includes('data-action="openTraceStep"'), 15_000, 'the panel shows the trace');
    const html = panel.shownHtml;
    const indexes = [...html.matchAll(/data-action="openTraceStep" data-index="(\d+)">[^<]*:(\d+)</g)].map((m) => [Number(m[1]), Number(m[2])]);
    assert.deepEqual(
      indexes,
      lines.map((line, i) => [i, line]),
      'every step, in order, at its line',
    );
    for (const heading of ['Trace', 'On the platform', 'Elsewhere', 'Activity']) assert.ok(html.includes(`-heading">${heading}</h2>`), heading);
    assert.match(html, /<section id="elsewhere"[^>]*>.*(open|fixed|ignored|being reviewed|being fixed) (on|in pull request)/s, 'the states elsewhere in words');
    await waitFor(async () => (await readWindow('iframe.webview.ready')).length > 0, 10_000, 'the panel is drawn');
    // The page alone, as tall as the window lets it be.
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await screenshotsInThemes('details-trace');
    // The end of the page: Elsewhere and Activity.
    await actInWindow('click:iframe.webview.ready');
    await actInWindow('press:End');
    await screenshotsInThemes('details-history');

    // Show Trace from a menu: a list whose active step is shown in the editor as the user moves.
    const walked = Promise.resolve(vscode.commands.executeCommand<TraceStepResult[]>('appsecFindings.showTrace', { finding }));
    // The list keeps the focus (and the panel stays the active editor): the step's editor is the visible one of its file.
    const file = vscode.Uri.joinPath(f.folder.uri, finding.location?.filePath ?? '').toString();
    const selectionLine = (): number | undefined => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === file)?.selection.start.line;
    await waitFor(async () => (await readWindow('.quick-input-widget .monaco-list-row')).length === lines.length, 10_000, 'the steps are listed');
    await waitFor(
      () => selectionLine() === lines[0] - 1,
      10_000,
      () => `the source is shown in the editor (at ${selectionLine()})`,
    );
    await actInWindow('press:ArrowDown');
    await waitFor(
      () => selectionLine() === lines[1] - 1,
      10_000,
      () => `the next step is shown (at ${selectionLine()})`,
    );
    await screenshotsInThemes('show-trace', ['light']);
    await actInWindow('press:Escape');
    assert.equal((await walked).length, lines.length, 'resolves with the steps once the list closes');
  });

  it('a finding whose story says it blocks pull requests is marked so in the tree once the story is read', async function () {
    this.timeout(60_000);
    const shown = f.api.app.diagnostics.current
      .flatMap((folder) => folder.findings)
      .filter((x) => x.issueType === 'sast' && x.status === 'open' && !f.api.app.stories.peek(x));
    let blocking: Finding | undefined;
    for (const finding of shown) {
      if ((await rawStory(f, finding.id)).isBlocking !== true) continue;
      blocking = finding;
      break;
    }
    assert.ok(blocking, 'a shown finding whose story was not read yet has its rule in block mode');
    const node = await firstFindingNode(f.api.trees.projects);
    const description = (): string => String(f.api.trees.projects.getTreeItem({ ...node, finding: blocking }).description ?? '');
    assert.doesNotMatch(description(), /blocks pull requests/, 'nothing is said before the story is read');
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding: blocking });
    await waitFor(
      () => /^blocks pull requests · /.test(description()),
      15_000,
      () => `the row says so first once the story is read: ${description()}`,
    );
    // As the user sees it: the row itself, revealed in the Projects view.
    const walked = await walkTree(f.api.trees.projects, 6, 50);
    const row = walked.find(({ node: n }) => n.kind === 'finding' && n.finding.id === blocking.id);
    assert.ok(row, 'the finding has a row in the tree');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await f.api.trees.projectsView.reveal(row.node, { select: true, focus: true });
    // Wide enough for the row's description beside its rule: the editor area, which has the
    // focus once every editor is closed, gives its width to the side bar.
    const resize = async (command: string): Promise<void> => {
      for (let i = 0; i < 8; i++) await vscode.commands.executeCommand(command);
    };
    await resize('workbench.action.decreaseViewWidth');
    undo(() => resize('workbench.action.increaseViewWidth'));
    await screenshotsInThemes('tree-blocks-pull-requests');
  });

  it('Open a Fix Pull Request given as arguments: accepted, followed until the pull request is open, then offered; refused: its sentence, nothing changed', async function () {
    this.timeout(90_000);
    const { finding } = await storied(f);
    const wire = f.data.sast.find((x) => x.id === finding.id);
    const prs = structuredClone(wire?.click_to_fix_prs);
    undo(() => {
      if (wire) wire.click_to_fix_prs = prs;
      f.server.setAutofixOutcome('accept');
      f.server.setAutofixDelay(3000);
      f.api.app.stories.clear();
    });
    f.server.setAutofixOutcome('AUTOFIX_ERROR_TYPE_NO_WRITE_ACCESS');
    const refused = await vscode.commands.executeCommand('appsecFindings.requestAutofix', { findingId: finding.id, issueType: 'sast' });
    assert.deepEqual(refused, { accepted: false, reason: AUTOFIX_SENTENCES.noWriteAccess });
    await waitFor(
      async () => (await notificationTexts()).some((t) => t.includes(AUTOFIX_SENTENCES.noWriteAccess)),
      10_000,
      'the refusal is said in its sentence',
    );
    const unchanged = await f.api.app.stories.get(finding, { fresh: true });
    assert.equal(unchanged?.kind === 'story' ? unchanged.story.fixPullRequest : 'no story', undefined, 'a refused request changes nothing');

    f.server.setAutofixOutcome('accept');
    f.server.setAutofixDelay(1500);
    const panel = f.api.detailsPanel;
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    const accepted = await vscode.commands.executeCommand('appsecFindings.requestAutofix', { findingId: finding.id, issueType: 'sast' });
    assert.deepEqual(accepted, { accepted: true }, 'resolves once the platform took the request, before any pull request exists');
    await waitFor(
      () => /<dt>Fix pull request<\/dt><dd>open · <a [^>]*data-url="[^"]+\/(pull|-\/merge_requests)\/\d+"/.test(panel.shownHtml),
      30_000,
      'the details show the pull request once the platform opened it',
    );
    await waitFor(async () => (await notificationTexts()).some((t) => /fix pull request for .* is open/.test(t)), 10_000, 'and it is offered');
    assert.ok(!/data-action="requestAutofix"/.test(panel.shownHtml), 'not offered again');
  });

  it('Fix with Agent given as arguments: resolves with its prompt, handed to the chat where the editor has one', async function () {
    this.timeout(60_000);
    const { finding, lines } = await storied(f, false);
    // A chat needs its command and a language model behind it (none in the test hosts, where no assistant is signed in).
    const hasChat = (await vscode.commands.getCommands(true)).includes('workbench.action.chat.open') && (await vscode.lm.selectChatModels()).length > 0;
    const handed = await vscode.commands.executeCommand<{ prompt: string; opened: boolean }>('appsecFindings.fixWithAgent', {
      findingId: finding.id,
      issueType: 'sast',
    });
    assert.equal(handed.opened, hasChat, 'opened exactly where the editor has a chat');
    assert.match(handed.prompt, /^Fix this code security finding from the Semgrep AppSec Platform\./);
    assert.ok(handed.prompt.includes(`Rule: ${JSON.stringify(finding.ruleName)}`));
    // Where Problems shows it today (the file's lines may have moved since the scan).
    const today = (diagnosticOf(f, finding.id)?.diagnostic.range.start.line ?? -1) + 1;
    const moved = today - (finding.location?.line ?? 0);
    assert.ok(handed.prompt.includes(`Where: ${finding.location?.filePath}:${today}`), `today's file and line, in:\n${handed.prompt}`);
    assert.ok(handed.prompt.includes(`1. source (1 of ${lines.length}) at ${finding.location?.filePath}:${lines[0] + moved}`), 'the trace, source first');
    if (!hasChat)
      await waitFor(async () => (await notificationTexts()).some((t) => /has no chat/.test(t)), 10_000, 'without a chat, that is said, with Copy Prompt');
    // What the user sees: the chat with the prompt, or the notice offering to copy it (shown in
    // the notification centre: the test workbench hides toasts).
    // (A shot in the current theme: changing it clears the notifications.)
    if (!hasChat) await vscode.commands.executeCommand('notifications.showList');
    await screenshotHandshake('fix-with-agent');
    await vscode.commands.executeCommand(hasChat ? 'workbench.action.closeAuxiliaryBar' : 'notifications.hideList');
  });

  it('a deployment without the story: "no trace", calmly, without a toast; nothing else lost', async function () {
    this.timeout(60_000);
    const { finding } = await storied(f, false);
    undo(() => {
      f.server.setProduct('issue-v2', undefined);
      f.api.app.stories.clear();
    });
    f.server.setProduct('issue-v2', 404);
    f.api.app.stories.clear();
    await vscode.commands.executeCommand('notifications.clearAll');
    const steps = await vscode.commands.executeCommand('appsecFindings.showTrace', { findingId: finding.id, issueType: 'sast' });
    assert.deepEqual(steps, [], 'no steps');
    assert.deepEqual(related(f, finding.id), [], 'nothing under the finding in Problems');
    const panel = f.api.detailsPanel;
    await vscode.commands.executeCommand('appsecFindings.showDetails', { finding });
    await waitFor(() => panel.shownHtml.includes('No trace: this deployment does not give traces (404).'), 15_000, 'the details say "no trace"');
    assert.ok(panel.shownHtml.includes('-heading">Rule</h2>') && panel.shownHtml.includes('data-action="triage"'), 'the rest of the page is there');
    assert.ok(!panel.shownHtml.includes('role="alert"'), 'no alarm in the page');
    assert.deepEqual(
      (await notificationTexts()).filter((t) => /trace|story|404|not available/i.test(t)),
      [],
      'no toast',
    );
  });
});
