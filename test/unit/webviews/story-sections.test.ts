// The Finding Details page's story: the trace in order with each step a control that opens it
// (or the platform's link when it is not here), "no trace" said calmly, blocks pull requests,
// code owners, the fix pull request, elsewhere and activity; Ignore not offered where the user
// may only request an exception; the page script posts a step's index and the extension takes it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FindingStory } from '../../../src/core/model/finding-story';
import type { PlannedRange } from '../../../src/core/workspace/diagnostic-plan';
import type { TracePlace } from '../../../src/core/workspace/trace-places';
import type { DetailsInput, DetailsStory } from '../../../src/webviews/details-input';
import { findingDetailsHtml, parseDetailsMessage } from '../../../src/webviews/finding-details-html';
import { runPageScript } from './page-script';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

const page = (input: DetailsInput): string =>
  findingDetailsHtml(input, {
    nonce: 'n0nce',
    cspSource: 'https://webview.example',
    scriptUri: 'https://webview.example/details.js',
    styleUri: 'https://webview.example/details.css',
  });
const headings = (html: string): string[] => [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1] ?? '');
const sectionOf = (html: string, id: string): string => new RegExp(`<section id="${id}"[^>]*>(.*?)</section>`, 's').exec(html)?.[1] ?? '';
const actionLabels = (html: string): string[] =>
  [...(/<nav class="actions"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '').matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => m[1] ?? '');
const range = (line: number): PlannedRange => ({ startLine: line - 1, startCharacter: 4, endLine: line - 1, endCharacter: 20, wholeLine: false });

const TRACE: TracePlace[] = [
  {
    kind: 'here',
    role: 'source',
    number: 1,
    of: 4,
    scannedPath: 'app.py',
    scannedLine: 4,
    relativePath: 'app.py',
    range: range(6),
    changed: false,
    content: 'q = request.args["<q>"]',
  },
  { kind: 'here', role: 'step', number: 2, of: 4, scannedPath: 'app.py', scannedLine: 5, relativePath: 'app.py', range: range(7), changed: true },
  { kind: 'deleted', role: 'step', number: 3, of: 4, scannedPath: 'util.py', scannedLine: 9, url: 'https://github.com/acme/api/blob/abc/util.py#L9' },
  {
    kind: 'elsewhere',
    role: 'sink',
    number: 4,
    of: 4,
    scannedPath: 'lib/db.py',
    scannedLine: 30,
    url: 'https://github.com/acme/lib/blob/abc/db.py#L30',
    content: 'run(value)',
  },
];
const STORY: FindingStory = {
  isBlocking: true,
  codeOwners: [
    { name: 'acme/api-maintainers', isTeam: true },
    { name: 'Dana Whitfield', isTeam: false },
  ],
  elsewhere: [
    { id: 2, ref: 'refs/heads/feature/login', state: 'fixed' },
    { id: 3, ref: 'feature/pay', pullRequestId: '12', state: 'open', createdAt: new Date('2024-03-02T09:00:00Z') },
  ],
  activity: [
    { kind: 'status', date: new Date('2024-03-01T08:00:00Z'), title: 'Found on main' },
    { kind: 'triage', date: new Date('2024-03-03T08:00:00Z'), title: 'Triaged as <b>reviewing</b>', actor: 'Dana Whitfield', note: 'looking into it' },
    { kind: 'fixPrRequested', date: new Date('2024-03-04T08:00:00Z') },
  ],
  triagePermission: 'ignore',
  skipped: 0,
};
const read = (story: FindingStory, trace?: readonly TracePlace[]): DetailsStory => ({ state: 'read', story, ...(trace ? { trace } : {}) });

void describe("the details page: the finding's story", () => {
  const finding = sastFinding({ file: 'app.py', line: 8 });

  void test('the trace, in order, source first: a step here opens in the editor, one gone or elsewhere says so and links the platform', () => {
    const html = page({ finding, story: read(STORY, TRACE) });
    const trace = sectionOf(html, 'trace');
    const steps = [...trace.matchAll(/<li class="step role-(\w+) place-(\w+)">/g)].map((m) => `${m[1]}/${m[2]}`);
    assert.deepEqual(steps, ['source/here', 'step/here', 'step/deleted', 'sink/elsewhere']);
    assert.deepEqual(
      [...trace.matchAll(/data-action="openTraceStep" data-index="(\d+)">([^<]*)</g)].map((m) => `${m[1]} ${m[2]}`),
      ['0 app.py:6', '1 app.py:7 · code changed since the scan'],
    );
    assert.ok(trace.includes('Source (1 of 4)') && trace.includes('Sink (4 of 4)'));
    assert.ok(trace.includes('util.py:9 · no longer in this copy'), 'a deleted step says so');
    assert.match(
      trace,
      /data-url="https:\/\/github\.com\/acme\/lib\/blob\/abc\/db\.py#L30">lib\/db\.py:30 · not in this workspace</,
      'a step elsewhere links to the platform',
    );
    assert.ok(trace.includes('q = request.args[&quot;&lt;q&gt;&quot;]'), 'the code is text');
    assert.match(trace, /data-action="showTrace">Walk Through in Editor</);
    assert.deepEqual(headings(html).slice(0, 3), ['Where', 'Trace', 'On the platform']);
  });

  void test('no trace reads calmly, and nothing else on the page is lost', () => {
    const cases: [DetailsStory, RegExp][] = [
      [{ state: 'notAvailable', problem: '404' }, /No trace: this deployment does not give traces \(404\)\./],
      [read({ skipped: 0 }), /No trace: the platform gives none for this finding/],
      [{ state: 'failed', problem: 'the network is down' }, /No trace for now: .*could not be read \(the network is down\)/],
      [{ state: 'loading' }, /Reading the trace…/],
    ];
    for (const [story, said] of cases) {
      const html = page({ finding, story });
      assert.match(sectionOf(html, 'trace'), said);
      assert.ok(!html.includes('role="alert"'), 'no alarm');
      assert.deepEqual(actionLabels(html).slice(0, 3), ['Ignore…', 'Mark as Reviewing', 'Mark as Fixing'], 'the actions stay');
      assert.ok(headings(html).includes('Rule'));
    }
    assert.ok(
      !headings(page({ finding: scaFinding({ package: 'lodash' }), story: { state: 'notAvailable', problem: '404' } })).includes('Trace'),
      'a supply-chain finding has no trace to miss',
    );
  });

  void test('blocks pull requests in the header and the section; owners; the fix pull request as asked for, not open', () => {
    const html = page({ finding, story: read(STORY) });
    assert.match(html, /<span class="badge blocking"[^>]*>blocks pull requests<\/span>/);
    const platform = sectionOf(html, 'platform');
    assert.match(platform, /<dt>Blocks pull requests<\/dt><dd><strong>yes<\/strong>: its rule runs in block mode/);
    assert.match(platform, /<dt>Code owners<\/dt><dd>acme\/api-maintainers \(team\), Dana Whitfield<\/dd>/);
    assert.match(platform, /<dt>Fix pull request<\/dt><dd>asked for: the platform opens it once the fix is written · <time/);
    assert.ok(!actionLabels(html).includes('Open a Fix Pull Request…'), 'not offered again while one is on its way');
    const opened = page({ finding, story: read({ ...STORY, fixPullRequest: { url: 'https://github.com/acme/api/pull/7001' }, activity: [] }) });
    assert.match(sectionOf(opened, 'platform'), /open · <a href="#" data-action="openLink" data-url="https:\/\/github\.com\/acme\/api\/pull\/7001">/);
    assert.ok(!page({ finding, story: read({ skipped: 0 }) }).includes('blocks pull requests'));
  });

  void test("elsewhere and activity, in the user's words, oldest first, server text as text", () => {
    const html = page({ finding, story: read(STORY) });
    const elsewhere = sectionOf(html, 'elsewhere');
    assert.ok(elsewhere.includes('fixed on feature/login'));
    assert.ok(elsewhere.includes('open in pull request #12 (feature/pay)'));
    const activity = sectionOf(html, 'activity');
    const items = [...activity.matchAll(/<li>(.*?)<\/li>/gs)].map((m) => m[1] ?? '');
    assert.equal(items.length, 3);
    assert.match(items[0] ?? '', /2024-03-01 08:00 UTC<\/time> · <span class="prose">Found on main/);
    assert.match(items[1] ?? '', /Triaged as &lt;b&gt;reviewing&lt;\/b&gt;.*\(by Dana Whitfield\).*looking into it/s);
    assert.match(items[2] ?? '', /A fix pull request was asked for/);
    assert.ok(headings(html).indexOf('Elsewhere') > headings(html).indexOf('Rule'), 'after what the finding is');
  });

  void test('where the user may only request an exception, Ignore is not offered as if it would work', () => {
    const html = page({ finding, story: read({ ...STORY, triagePermission: 'request' }) });
    assert.ok(!actionLabels(html).some((l) => l.startsWith('Ignore')));
    assert.match(html, /<p class="note triage-limit">Your role may not ignore this finding, only request an exception, which is done in the platform\.<\/p>/);
    assert.ok(actionLabels(page({ finding, story: read(STORY) })).includes('Ignore…'));
  });

  void test("the page script posts a step's index, the walk and both fixes; the extension takes only a sound index", () => {
    const html = page({ finding, story: read({ ...STORY, activity: [] }, TRACE) });
    const controls = [...html.matchAll(/<button([^>]*)>/g)].map(
      (m) => Object.fromEntries([...(m[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])) as Record<string, string>,
    );
    const [, ...posted] = runPageScript(controls).posted;
    const types = posted.map((m) => parseDetailsMessage(m));
    assert.ok(
      types.every((m) => m !== undefined),
      'every message is taken',
    );
    assert.deepEqual(
      types.filter((m) => m?.type === 'openTraceStep'),
      [
        { type: 'openTraceStep', index: 0 },
        { type: 'openTraceStep', index: 1 },
      ],
    );
    for (const type of ['showTrace', 'fixWithAgent', 'requestAutofix'])
      assert.ok(
        types.some((m) => m?.type === type),
        type,
      );
    assert.equal(parseDetailsMessage({ type: 'openTraceStep', index: -1 }), undefined);
    assert.equal(parseDetailsMessage({ type: 'openTraceStep', index: '1' }), undefined);
    assert.equal(parseDetailsMessage({ type: 'openTraceStep', index: 1.5 }), undefined);
  });
});
