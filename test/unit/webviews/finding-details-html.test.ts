// The Finding Details page as built (pure): a strict CSP with the script's nonce and nothing
// inline, server text inert, each section only with data, the actions that fit the finding's
// state, the page script's buttons → messages, and only the page's known messages accepted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../../src/core/model/types';
import type { FindingDetail } from '../../../src/core/model/finding-detail';
import type { FoundPlace } from '../../../src/core/workspace/today-place';
import { percentText } from '../../../src/webviews/details-sections';
import type { DetailsInput } from '../../../src/webviews/details-input';
import { findingDetailsHtml, parseDetailsMessage, type WebviewResources } from '../../../src/webviews/finding-details-html';
import { sastFinding, scaFinding } from '../services/finding-fixtures';
import { runPageScript } from './page-script';

const resources: WebviewResources = {
  nonce: 'bm9uY2UxMjM0',
  cspSource: 'https://webview.example',
  scriptUri: 'https://webview.example/details.js',
  styleUri: 'https://webview.example/details.css',
};
const page = (input: DetailsInput): string => findingDetailsHtml(input, resources);
/** Today's place at a 1-based line, as drift mapping gives it. */
const at = (relativePath: string, line: number, kind: FoundPlace['kind'] = 'same'): FoundPlace => ({
  kind,
  relativePath,
  range: { startLine: line - 1, startCharacter: 0, endLine: line - 1, endCharacter: 10, wholeLine: false },
});
const detailOf = (finding: Finding, extra: Partial<FindingDetail> = {}): FindingDetail => ({
  ...finding,
  categories: [],
  reviewComments: [],
  clickToFixPrUrls: [],
  clickToFixFailures: [],
  ...extra,
});
// Reading the page back. Server text never holds a raw `<` (it is escaped), so every `<` starts
// real markup and a regular expression finds every tag the browser would.
interface Tag {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
}
type Attributes = Readonly<Record<string, string>>;
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (text: string): string => text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
function tagsOf(html: string): Tag[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => {
    const attributes: Record<string, string> = {};
    for (const a of (m[2] ?? '').matchAll(/([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attributes[(a[1] ?? '').toLowerCase()] = decode(a[2] ?? a[3] ?? a[4] ?? '');
    }
    return { name: (m[1] ?? '').toLowerCase(), attributes };
  });
}
const attributesOf = (html: string, name: string): Attributes[] =>
  tagsOf(html)
    .filter((t) => t.name === name)
    .map((t) => t.attributes);
const headings = (html: string): string[] => [...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => decode(m[1] ?? ''));
const actionLabels = (html: string): string[] => {
  const nav = /<nav class="actions"[^>]*>(.*?)<\/nav>/s.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<button[^>]*>([^<]*)<\/button>/g)].map((m) => decode(m[1] ?? ''));
};

const includesAll = (html: string, texts: readonly string[]): void => {
  for (const text of texts) assert.ok(html.includes(text), `shows ${JSON.stringify(text)}`);
};

void describe('the details page: security', () => {
  void test('CSP exactly: nothing by default, style from the extension, script only with the nonce', () => {
    const html = page({ finding: sastFinding({ file: 'a.py', line: 3 }) });
    const policies = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)].map((m) => m[1]);
    assert.deepEqual(policies, ["default-src 'none'; img-src https://webview.example; style-src https://webview.example; script-src 'nonce-bm9uY2UxMjM0';"]);
    assert.ok(html.startsWith('<!DOCTYPE html>\n<html lang="en">'));
  });

  void test('one script, from the extension, with the nonce; one stylesheet; nothing inline', () => {
    const html = page({ finding: sastFinding({ file: 'a.py', line: 3 }), notice: { kind: 'info', text: 'Done.' } });
    const scripts = tagsOf(html).filter((t) => t.name === 'script');
    assert.equal(scripts.length, 1);
    assert.deepEqual(scripts[0]?.attributes, { nonce: 'bm9uY2UxMjM0', src: 'https://webview.example/details.js' });
    assert.match(html, /<script nonce="bm9uY2UxMjM0" src="https:\/\/webview\.example\/details\.js"><\/script>\n<\/body>/, 'empty, at the end');
    const links = tagsOf(html).filter((t) => t.name === 'link');
    assert.deepEqual(
      links.map((l) => l.attributes),
      [{ rel: 'stylesheet', href: 'https://webview.example/details.css' }],
    );
    for (const tag of tagsOf(html)) {
      assert.ok(!Object.keys(tag.attributes).some((a) => a.startsWith('on')), `no handler on <${tag.name}>`);
      assert.ok(!('style' in tag.attributes), `no style= on <${tag.name}>`);
    }
    assert.doesNotMatch(html, /<style\b/i);
  });

  void test("the nonce and the host's URIs are escaped too", () => {
    const hostile = { nonce: 'n"><script>alert(1)</script>', cspSource: "x' 'unsafe-inline", scriptUri: 'a"onload="alert(2)', styleUri: 'b"><img src=x>' };
    const html = findingDetailsHtml({ finding: sastFinding({}) }, hostile);
    assert.equal(tagsOf(html).filter((t) => t.name === 'script').length, 1);
    assert.equal(tagsOf(html).filter((t) => t.name === 'img').length, 0);
    assert.ok(!html.includes("'unsafe-inline"), 'the policy keeps its own quotes only');
    assert.deepEqual(attributesOf(html, 'script'), [{ nonce: hostile.nonce, src: hostile.scriptUri }], 'each stays inside its attribute');
    assert.deepEqual(attributesOf(html, 'link'), [{ rel: 'stylesheet', href: hostile.styleUri }]);
  });

  void test('hostile server text in every field is inert: escaped text, no tag, no script link', () => {
    const evil = '<img src=x onerror=alert(1)></script><script>alert(2)</script> **bold** [x](javascript:alert(3)) <a href="javascript:alert(4)">y</a>';
    const bad = 'javascript:alert(5)';
    const finding = sastFinding({
      file: evil,
      line: 2,
      ruleName: `r.${evil}`,
      message: evil,
      severity: evil,
      status: evil,
      triageComment: evil,
      ref: evil,
      repositoryName: evil,
      lineOfCodeUrl: bad,
      ticket: { slug: evil, url: bad },
      policy: { id: 1, name: evil, slug: 'p' },
      sca: {
        package: evil,
        version: evil,
        advisory: evil,
        ecosystem: evil,
        reachability: evil,
        transitivity: evil,
        fixVersions: [evil],
        lockfileLineUrl: 'data:text/html,<script>alert(6)</script>',
      },
    });
    const html = page({
      finding,
      detail: detailOf(finding, {
        repositoryUrl: 'vscode://evil',
        categories: [evil],
        matchBasedId: evil,
        reachableCondition: evil,
        rule: {
          name: evil,
          message: `${evil}!`,
          category: evil,
          confidence: evil,
          cweNames: [evil],
          owaspNames: [evil],
          subcategories: [evil],
          vulnerabilityClasses: [evil],
        },
        assistant: {
          autofixCode: evil,
          autofixExplanation: evil,
          autotriageVerdict: evil,
          autotriageReason: evil,
          componentRisk: evil,
          componentTag: evil,
          guidanceSummary: evil,
          guidanceInstructions: evil,
          ruleExplanationSummary: evil,
        },
        clickToFixPrUrls: ['command:workbench.action.quit', 'file:///etc/passwd', 'https://github.com/o/r/pull/1'],
        clickToFixFailures: [{ reason: evil }],
        reviewComments: [{ discussionId: evil }],
      }),
      place: at(evil, 3, 'changed'),
      error: evil,
      notice: { kind: 'info', text: evil },
      currentCode: evil,
      newAgainst: evil,
      platformUrl: bad,
    });
    const tags = tagsOf(html);
    assert.deepEqual(
      tags.filter((t) => ['img', 'script'].includes(t.name)).map((t) => t.name),
      ['script'],
      "only the page's own script",
    );
    assert.equal(html.match(/<\/script>/g)?.length, 1);
    for (const tag of tags) {
      assert.ok(!Object.keys(tag.attributes).some((a) => a.startsWith('on') || a === 'style'), `<${tag.name}> stays plain`);
      if (tag.attributes.href !== undefined) assert.ok(['#', resources.styleUri].includes(tag.attributes.href), `href ${tag.attributes.href}`);
      if (tag.attributes['data-url'] !== undefined) assert.match(tag.attributes['data-url'], /^https:\/\//);
    }
    assert.deepEqual(
      attributesOf(html, 'a').map((a) => a['data-url']),
      ['https://github.com/o/r/pull/1'],
      'the one http(s) link stays a link',
    );
    assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;'), 'shown as text');
    assert.ok(html.includes('**bold** [x](javascript:alert(3))'), 'markdown is not rendered');
    assert.ok(!html.includes('<strong>bold'));
    assert.ok(!actionLabels(html).includes('Open in Platform'), 'a non-http platform link offers no button');
  });
});

void describe('the details page: header and actions', () => {
  void test("names: the rule's short name, or package version — advisory; severity glyph and word; status with reason", () => {
    const code = page({ finding: sastFinding({ status: 'ignored', triageReason: 'false_positive' }) });
    assert.match(code, /<h1>eval<\/h1>/);
    assert.match(code, /<title>Finding: eval<\/title>/);
    assert.match(code, /class="badge severity level-error"><span class="glyph" aria-hidden="true"><\/span>high</);
    assert.match(code, /class="badge status">ignored \(false positive\)</);
    const sca = page({ finding: scaFinding({ package: 'requests', version: '2.19.0', advisory: 'CVE-2018-18074' }, { severity: 'medium' }) });
    assert.match(sca, /<h1>requests 2\.19\.0 — CVE-2018-18074<\/h1>/);
    const subtitle = (html: string): string => /<p class="rule-id">([^<]*)<\/p>/.exec(html)?.[1] ?? '';
    assert.equal(subtitle(code), 'python.lang.security.audit.eval', "a code rule's whole id under its short name");
    const lock = page({
      finding: scaFinding(
        { package: 'lodash', ecosystem: 'npm', transitivity: 'direct' },
        { ruleName: 'ssc-3cd9a1b2-0000-4000-8000-000000000001', location: { filePath: 'package-lock.json', line: 3 } },
      ),
    });
    assert.equal(subtitle(lock), 'npm · direct dependency · package-lock.json', 'a dependency says what and where it is, not its ssc- id');
    assert.match(sca, /level-warning/);
    assert.match(
      page({ finding: sastFinding({ severity: 'catastrophic' }) }),
      /level-unknown"><span class="glyph" aria-hidden="true"><\/span>catastrophic</,
      'an unknown severity as it came',
    );
  });

  void test('"new on this branch" only when the primary branch lacks it', () => {
    assert.match(page({ finding: sastFinding({}), newAgainst: 'main' }), /class="badge new" title="main does not have it">new on this branch</);
    assert.ok(!page({ finding: sastFinding({}) }).includes('new on this branch'));
  });

  void test('an open finding: the whole set in order, no Reopen, Create rather than Unlink, no platform link', () => {
    assert.deepEqual(actionLabels(page({ finding: sastFinding({}) })), [
      'Ignore…',
      'Mark as Reviewing',
      'Mark as Fixing',
      'Add Note…',
      'Create Jira Ticket',
      'Link Existing Ticket…',
      'Fix with Agent',
      'Open a Fix Pull Request…',
      'Copy Rule ID',
      'Refresh',
    ]);
  });

  void test('an ignored finding with a ticket and a platform page: Reopen first and main, Ignore to change the reason, Unlink, Open in Platform', () => {
    const finding = sastFinding({ status: 'ignored', ticket: { slug: 'SEC-1', url: 'https://acme.atlassian.net/browse/SEC-1' } });
    const html = page({ finding, platformUrl: 'https://semgrep.dev/orgs/acme/findings/1' });
    assert.deepEqual(actionLabels(html), [
      'Reopen',
      'Change Ignore Reason…',
      'Mark as Reviewing',
      'Mark as Fixing',
      'Add Note…',
      'Link Existing Ticket…',
      'Unlink Ticket',
      'Fix with Agent',
      'Open a Fix Pull Request…',
      'Open in Platform',
      'Copy Rule ID',
      'Refresh',
    ]);
    assert.deepEqual(
      [...html.matchAll(/class="primary"[^>]*>([^<]+)</g)].map((m) => m[1]),
      ['Reopen'],
      'one main button, the one an ignored finding calls for',
    );
    assert.deepEqual(
      [...page({ finding: sastFinding({}) }).matchAll(/class="primary"[^>]*>([^<]+)</g)].map((m) => m[1]),
      ['Ignore…'],
    );
  });

  void test('a state the finding is in is not offered again; a ticket known only from the detail counts', () => {
    const reviewing = sastFinding({ status: 'reviewing' });
    const labels = actionLabels(page({ finding: reviewing, detail: detailOf(reviewing, { externalTicket: { slug: 'SEC-2', linkedIssueIds: [] } }) }));
    assert.ok(!labels.includes('Mark as Reviewing') && labels.includes('Mark as Fixing') && labels.includes('Reopen'));
    assert.ok(labels.includes('Unlink Ticket') && !labels.includes('Create Jira Ticket'));
    assert.ok(!actionLabels(page({ finding: sastFinding({ status: 'fixing' }) })).includes('Mark as Fixing'));
  });
});

void describe('the details page: sections', () => {
  void test('a bare finding shows only what it has: no empty sections', () => {
    assert.deepEqual(headings(page({ finding: sastFinding({}) })), ['Rule', 'Identifiers']);
    assert.deepEqual(headings(page({ finding: sastFinding({ file: 'a.py', line: 1 }) })), ['Where', 'Rule', 'Identifiers']);
    assert.doesNotMatch(page({ finding: sastFinding({}) }), /<dl><\/dl>|<dd><\/dd>|<ul class="values"><\/ul>/);
  });

  void test("where: today's place with Open, the scanned place when it moved, branch, repository, policy, dates", () => {
    const finding = sastFinding({
      file: 'src/app.py',
      line: 12,
      ref: 'refs/heads/main',
      repositoryName: 'acme/app',
      policy: { id: 1, name: 'Default Policy', slug: 'default' },
      relevantSince: Date.parse('2024-04-02T08:30:00Z'),
    });
    const html = page({
      finding,
      place: at('src/app.py', 19, 'changed'),
      detail: detailOf(finding, {
        repositoryUrl: 'https://github.com/acme/app',
        createdAt: new Date('2024-04-01T00:00:00Z'),
        stateUpdatedAt: new Date('2024-05-03T12:00:00Z'),
      }),
    });
    includesAll(html, [
      'src/app.py:19',
      'code changed since the scan',
      '<dt>Scanned at</dt><dd>src/app.py:12</dd>',
      '<dt>Branch</dt><dd>main</dd>',
      'Default Policy',
      '2024-04-01 00:00 UTC',
      '2024-04-02 08:30 UTC',
      '2024-05-03 12:00 UTC',
    ]);
    assert.match(html, /data-url="https:\/\/github\.com\/acme\/app">acme\/app<\/a>/);
    assert.match(html, /<button type="button" class="secondary" data-action="openLocation">Open in Editor<\/button>/);
  });

  void test('where: a finding gone from this copy says so and offers no Open; an unmoved one is said once', () => {
    const finding = sastFinding({ file: 'src/old.py', line: 4 });
    const gone = page({ finding, place: { kind: 'deleted' } });
    assert.ok(gone.includes('no longer in this copy'));
    assert.ok(!gone.includes('data-action="openLocation"'));
    const notYet = page({ finding: { ...finding, ref: 'refs/heads/feature/x' }, place: { kind: 'deleted', onlyAt: 'abc1234' } });
    assert.ok(notYet.includes('not in this copy yet: it is on feature/x') && !notYet.includes('no longer'), 'code on another branch is not here yet');
    assert.match(notYet, /data-action="openLocation">Open as It Is There</, 'and is opened as it is there');
    const here = page({ finding, place: at('src/old.py', 4) });
    assert.ok(!here.includes('Scanned at') && here.includes('data-action="openLocation"'));
  });

  void test('rule: categories, confidence, CWE, OWASP, vulnerability classes, subcategories; its own message when different', () => {
    const finding = sastFinding({ message: 'Avoid eval' });
    const html = page({
      finding,
      detail: detailOf(finding, {
        categories: ['security'],
        rule: {
          name: 'python.eval',
          message: 'Eval of user input runs code.',
          category: 'security',
          confidence: 'medium',
          cweNames: ['CWE-95: Eval Injection'],
          owaspNames: ['A03:2021 - Injection'],
          subcategories: ['vuln'],
          vulnerabilityClasses: ['Code Injection'],
        },
      }),
    });
    includesAll(html, [
      'CWE-95: Eval Injection',
      'A03:2021 - Injection',
      'Code Injection',
      '<li>vulnerability (a flaw an attacker can reach)</li>',
      '<dt>Confidence</dt><dd>medium</dd>',
      'Eval of user input runs code.',
    ]);
    assert.equal(html.match(/<li>security<\/li>/g)?.length, 1, 'a category said once');
  });

  void test('triage: only once someone triaged; status, reason, the note with its line breaks, when', () => {
    assert.ok(!headings(page({ finding: sastFinding({}) })).includes('Triage'));
    const finding = sastFinding({ status: 'ignored', triageReason: 'acceptable_risk', triageComment: 'internal tool\nonly admins' });
    const html = page({ finding, detail: detailOf(finding, { triagedAt: new Date('2024-06-01T09:15:00Z') }) });
    assert.ok(headings(html).includes('Triage'));
    includesAll(html, [
      '<dt>Status</dt><dd>ignored</dd>',
      '<dt>Reason</dt><dd>acceptable risk</dd>',
      '<span class="prose">internal tool\nonly admins</span>',
      '2024-06-01 09:15 UTC',
    ]);
    assert.ok(
      !page({ finding: sastFinding({ status: 'open', triageReason: 'false_positive' }) }).includes('false positive'),
      'a stale reason on a reopened finding is not shown',
    );
  });

  void test("assistant: the fix beside today's code with Apply, and everything it said", () => {
    const finding = sastFinding({ file: 'src/app.py', line: 12 });
    const html = page({
      finding,
      currentCode: 'eval(user_input)',
      place: at('src/app.py', 12),
      detail: detailOf(finding, {
        assistant: {
          autofixCode: 'ast.literal_eval(user_input)',
          autofixExplanation: 'literal_eval only parses literals.',
          autotriageVerdict: 'true_positive',
          autotriageReason: 'User input reaches eval.',
          componentRisk: 'high',
          componentTag: 'payments',
          guidanceSummary: 'Do not eval input.',
          guidanceInstructions: '1. Replace eval\n2. Test',
          ruleExplanationSummary: 'Eval runs arbitrary code.',
        },
      }),
    });
    assert.match(
      html,
      /<h3>Today&#39;s code<\/h3><pre><code>eval\(user_input\)<\/code><\/pre><\/div><div class="code-pane"><h3>Suggested fix<\/h3><pre><code>ast\.literal_eval\(user_input\)<\/code><\/pre>/,
    );
    assert.match(html, /data-action="applyFix">Apply suggested fix</);
    includesAll(html, [
      'literal_eval only parses literals.',
      'true positive',
      'User input reaches eval.',
      'payments',
      '<dt>Component risk</dt><dd>high</dd>',
      'Do not eval input.',
      '1. Replace eval\n2. Test',
      'Eval runs arbitrary code.',
    ]);
  });

  void test('assistant: no Apply where the panel could not apply it (code changed, gone, or not here)', () => {
    const finding = sastFinding({ file: 'a.py', line: 1 });
    const detail = detailOf(finding, { assistant: { autofixCode: 'safe()' } });
    const changed = page({ finding, detail, currentCode: 'x', place: at('a.py', 1, 'changed') });
    assert.ok(!changed.includes('applyFix') && changed.includes('changed since the scan: compare'));
    assert.ok(!page({ finding, detail }).includes('applyFix'), "without today's code");
    // The code here already reads as the fix (applied, not yet scanned again): said, not offered again.
    const applied = page({ finding, detail, currentCode: '    safe()\n', place: at('a.py', 1) });
    assert.ok(!applied.includes('applyFix') && applied.includes('The suggested fix is in the code here'));
    assert.ok(page({ finding, detail }).includes('safe()'), 'the fix is still shown');
    assert.ok(!headings(page({ finding, detail: detailOf(finding) })).includes('Assistant'));
  });

  void test('supply chain: package, version, ecosystem, dependency, reachability, EPSS as percent, fixes, malicious, lockfile', () => {
    const finding = scaFinding({
      package: 'lodash',
      version: '4.17.20',
      ecosystem: 'npm',
      transitivity: 'transitive',
      advisory: 'CVE-2021-23337',
      reachability: 'conditionally_reachable',
      fixVersions: ['4.17.21', '5.0.0'],
      isMalicious: true,
      lockfileLineUrl: 'https://github.com/o/r/blob/abc/package-lock.json#L42',
      lockfileLine: 42,
      usage: { filePath: 'src/t.js', line: 7 },
    });
    const html = page({
      finding,
      detail: detailOf(finding, { epss: { score: 0.00431, percentile: 0.7512 }, reachableCondition: 'when templates are user input' }),
    });
    includesAll(html, [
      '<dt>Package</dt><dd>lodash</dd>',
      '<dt>Version</dt><dd>4.17.20</dd>',
      'npm',
      'transitive',
      'CVE-2021-23337',
      'conditionally reachable',
      'when templates are user input',
      'src/t.js:7',
      '<dt>EPSS score</dt><dd>0.43%</dd>',
      '<dt>EPSS percentile</dt><dd>75.1%</dd>',
      '<li>4.17.21</li><li>5.0.0</li>',
      'malicious package',
      'Malicious package.',
    ]);
    assert.match(html, /data-url="https:\/\/github\.com\/o\/r\/blob\/abc\/package-lock\.json#L42">package-lock\.json line 42<\/a>/);
    assert.ok(!headings(page({ finding: sastFinding({}) })).includes('Supply chain'));
  });

  void test('EPSS rounding: small values keep two decimals, never rounded to 0 or to a certainty', () => {
    const cases: readonly [number | undefined, string | undefined][] = [
      [0, '0%'],
      [0.000004, '<0.01%'],
      [0.00431, '0.43%'],
      [0.0123, '1.2%'],
      [0.5, '50%'],
      [0.7512, '75.1%'],
      [0.99996, '>99.9%'],
      [1, '100%'],
      [1.7, '1.7'],
      [-0.1, '-0.1'],
      [Number.NaN, undefined],
      [undefined, undefined],
    ];
    for (const [value, text] of cases) assert.equal(percentText(value), text, String(value));
  });

  void test('ticket: its key linked to it, and the findings linked to it', () => {
    const finding = sastFinding({ ticket: { slug: 'SEC-42', url: 'https://acme.atlassian.net/browse/SEC-42' } });
    const html = page({
      finding,
      detail: detailOf(finding, { externalTicket: { slug: 'SEC-42', url: 'https://acme.atlassian.net/browse/SEC-42', linkedIssueIds: [finding.id, 77] } }),
    });
    assert.match(html, /data-url="https:\/\/acme\.atlassian\.net\/browse\/SEC-42">SEC-42<\/a>/);
    assert.ok(html.includes('<li>#77</li>'));
    assert.ok(!headings(page({ finding: sastFinding({}) })).includes('Ticket'));
  });

  void test('pull requests: fix PRs as links, failed attempts with their reasons, review comments', () => {
    const finding = sastFinding({});
    const html = page({
      finding,
      detail: detailOf(finding, {
        clickToFixPrUrls: ['https://github.com/o/r/pull/7'],
        clickToFixFailures: [{ createdAt: new Date('2024-05-01T10:00:00Z'), reason: 'merge conflict in app.py' }, {}],
        reviewComments: [{ discussionId: 'd-9', noteId: 12 }],
      }),
    });
    assert.match(html, /data-url="https:\/\/github\.com\/o\/r\/pull\/7">https:\/\/github\.com\/o\/r\/pull\/7<\/a>/);
    includesAll(html, [
      '2024-05-01 10:00 UTC</time>: <span class="prose">merge conflict in app.py',
      'no reason given',
      'The platform commented on a pull request about this finding.',
    ]);
    const pullRequestsSection = /<section id="pull-requests"[^>]*>.*?<\/section>/s.exec(html)?.[0] ?? '';
    assert.doesNotMatch(pullRequestsSection, /d-9|\b12\b/, 'no raw ids where people read');
    assert.match(/<section id="identifiers"[^>]*>.*?<\/section>/s.exec(html)?.[0] ?? '', /comment 12 in discussion d-9/, 'the ids among the identifiers');
    assert.ok(!headings(page({ finding, detail: detailOf(finding) })).includes('Pull requests'));
  });

  void test('unknown enumeration values are shown as they came; known ones in words', () => {
    const finding = scaFinding({ reachability: 'maybe_reachable', transitivity: 'peer' }, { status: 'escalated' });
    const html = page({ finding, detail: detailOf(finding, { assistant: { autotriageVerdict: 'needs_human' } }) });
    includesAll(html, ['maybe_reachable', 'peer', '<span class="badge status">escalated</span>', 'needs_human']);
    assert.ok(page({ finding: sastFinding({ status: 'provisionally_ignored' }) }).includes('provisionally ignored'));
  });
});

void describe('the details page: loading, errors, notices', () => {
  void test('loading: what is known now, and a busy line', () => {
    const html = page({ finding: sastFinding({ file: 'a.py', line: 1 }), loading: true });
    assert.match(html, /<p class="loading" role="status" aria-busy="true">Loading the platform's details…<\/p>/);
    assert.ok(headings(html).includes('Where'));
    assert.ok(!page({ finding: sastFinding({}) }).includes('Loading'));
  });

  void test('an error is an alert above the sections; a notice is a polite status line, busy when in flight', () => {
    const failed = page({ finding: sastFinding({}), error: 'The platform answered 503.\nTry again.' });
    assert.match(failed, /<p class="banner error prose" role="alert">The platform answered 503\.\nTry again\.<\/p>/);
    assert.ok(failed.indexOf('role="alert"') < failed.indexOf('<section'));
    assert.match(
      page({ finding: sastFinding({}), notice: { kind: 'info', text: 'Ignored.' } }),
      /class="banner notice-info" role="status" aria-live="polite">Ignored\.</,
    );
    assert.match(
      page({ finding: sastFinding({}), notice: { kind: 'busy', text: 'Ignoring…' } }),
      /class="banner notice-busy" role="status" aria-live="polite" aria-busy="true">Ignoring…</,
    );
    assert.match(page({ finding: sastFinding({}), notice: { kind: 'error', text: 'Refused.' } }), /class="banner notice-error" role="status"/);
    assert.ok(!page({ finding: sastFinding({}) }).includes('role="alert"'));
  });
});

void describe('the page script (media/details.js)', () => {
  void test('every control on the page posts the message its button means, and the extension accepts it', () => {
    const finding = sastFinding({ file: 'a.py', line: 1, status: 'ignored', ticket: { slug: 'S-1', url: 'https://t.example/S-1' } });
    const html = page({
      finding,
      platformUrl: 'https://semgrep.dev/x',
      place: at('a.py', 1),
      currentCode: 'x',
      detail: detailOf(finding, { assistant: { autofixCode: 'y' } }),
    });
    const controls = [...attributesOf(html, 'button'), ...attributesOf(html, 'a')];
    const [ready, ...posted] = runPageScript(controls).posted;
    assert.deepEqual(ready, { type: 'ready' }, 'the page says first that it is ready');
    assert.equal(posted.length, controls.length);
    for (const message of posted) assert.deepEqual(parseDetailsMessage(message), message, JSON.stringify(message));
    assert.deepEqual(
      posted.map((m) => (m.type === 'triage' ? `triage:${String(m.state)}` : m.type)),
      [
        'triage:reopened',
        'triage:ignored',
        'triage:reviewing',
        'triage:fixing',
        'addNote',
        'linkTicket',
        'unlinkTicket',
        'fixWithAgent',
        'requestAutofix',
        'openInPlatform',
        'copyRuleId',
        'refresh',
        'openLocation',
        'applyFix',
        'openLink',
      ],
    );
    assert.deepEqual(posted.at(-1), { type: 'openLink', url: 'https://t.example/S-1' });
  });

  void test('a control with an unknown action posts nothing', () => {
    assert.deepEqual(runPageScript([{ 'data-action': 'runCommand' }]).posted, [{ type: 'ready' }]);
  });

  void test('a redraw replaces the body in place: the focused control keeps the focus, another finding does not take it', () => {
    const controls = [
      { 'data-action': 'triage', 'data-state': 'ignored' },
      { 'data-action': 'triage', 'data-state': 'reviewing' },
    ];
    const run = runPageScript(controls, { finding: 'sast:1', click: false, focusedIndex: 1 });
    run.receive?.({ type: 'redraw', finding: 'sast:1', title: 'Finding: x', markup: '<header>new</header>' }, controls);
    assert.equal(run.main?.innerHTML, '<header>new</header>');
    assert.equal(run.title, 'Finding: x');
    assert.deepEqual(run.focused, controls[1], 'the same control, in the new body');
    const other = runPageScript(controls, { finding: 'sast:1', click: false, focusedIndex: 1 });
    other.receive?.({ type: 'redraw', finding: 'sast:2', title: 'Finding: y', markup: '<header>other</header>' }, controls);
    assert.equal(other.main?.attributes['data-finding'], 'sast:2');
    assert.equal(other.focused, undefined, 'another finding: the focus is not put back');
    const ignored = runPageScript(controls, { finding: 'sast:1', click: false });
    ignored.receive?.({ type: 'redraw', finding: 'sast:1', title: 't', markup: 42 }, controls);
    assert.equal(ignored.main?.innerHTML, '', 'a message without markup changes nothing');
  });

  void test("after a press, the rebuilt page of the same finding gives the focus back; another finding's page does not", () => {
    const controls = [
      { 'data-action': 'triage', 'data-state': 'ignored' },
      { 'data-action': 'triage', 'data-state': 'reviewing' },
    ];
    const pressed = runPageScript([controls[1] ?? {}], { finding: 'sast:1' });
    const again = runPageScript(controls, { finding: 'sast:1', state: pressed.state, click: false });
    assert.deepEqual(again.focused, controls[1]);
    assert.equal(runPageScript(controls, { finding: 'sast:1', state: again.state, click: false }).focused, undefined, 'only once');
    assert.equal(runPageScript(controls, { finding: 'sast:2', state: pressed.state, click: false }).focused, undefined);
    const gone = runPageScript([controls[0] ?? {}], { finding: 'sast:1', state: pressed.state, click: false });
    assert.deepEqual(gone.focused, controls[0], 'the pressed control is gone: the first action');
  });
});

void describe('messages from the page', () => {
  void test('each known message is accepted as it is', () => {
    const valid = [
      { type: 'triage', state: 'ignored' },
      { type: 'triage', state: 'reviewing' },
      { type: 'triage', state: 'fixing' },
      { type: 'triage', state: 'reopened' },
      { type: 'addNote' },
      { type: 'createTicket' },
      { type: 'linkTicket' },
      { type: 'unlinkTicket' },
      { type: 'openInPlatform' },
      { type: 'openLink', url: 'https://x.example/a?b=c#d' },
      { type: 'openLink', url: 'http://localhost:8080/x' },
      { type: 'openLocation' },
      { type: 'applyFix' },
      { type: 'copyRuleId' },
      { type: 'refresh' },
    ];
    for (const message of valid) assert.deepEqual(parseDetailsMessage(message), message);
  });

  void test('only the checked fields travel on', () => {
    assert.deepEqual(parseDetailsMessage({ type: 'refresh', command: 'workbench.action.quit' }), { type: 'refresh' });
    assert.deepEqual(parseDetailsMessage({ type: 'triage', state: 'fixing', reason: 'x', url: 'https://a.example' }), { type: 'triage', state: 'fixing' });
  });

  void test('anything else is refused: unknown types and states, non-http links, non-objects', () => {
    const hostile: unknown[] = [
      null,
      undefined,
      'triage',
      42,
      [],
      ['refresh'],
      {},
      { type: 1 },
      { type: 'eval' },
      { type: '__proto__' },
      { type: 'constructor' },
      { type: 'toString' },
      { type: 'triage' },
      { type: 'triage', state: 'deleted' },
      { type: 'triage', state: 'open' },
      { type: 'triage', state: ['ignored'] },
      { type: 'openLink' },
      { type: 'openLink', url: 42 },
      { type: 'openLink', url: '/relative' },
      { type: 'openLink', url: 'not a url' },
      { type: 'openLink', url: 'javascript:alert(1)' },
      { type: 'openLink', url: 'JavaScript:alert(1)' },
      { type: 'openLink', url: 'data:text/html,<script>alert(1)</script>' },
      { type: 'openLink', url: 'command:workbench.action.quit' },
      { type: 'openLink', url: 'file:///etc/passwd' },
      { type: 'openLink', url: 'vscode://ms-python.python/x' },
    ];
    for (const raw of hostile) assert.equal(parseDetailsMessage(raw), undefined, JSON.stringify(raw));
  });

  test('an AI finding has an AI analysis section with its likely impact; a secret says if it works, never its value', () => {
    const ai = page({ finding: sastFinding({ ai: { impact: 'Session <tokens> could be replayed.' } }) });
    assert.ok(headings(ai).includes('AI analysis'));
    assert.match(ai, /Session &lt;tokens&gt; could be replayed\./);
    const secret = page({
      finding: sastFinding({ issueType: 'secrets', ruleName: 'GitHub', file: 'ci.yml', line: 4, secret: { service: 'GitHub', validation: 'confirmed_valid' } }),
    });
    assert.ok(headings(secret).includes('Secret'));
    assert.match(secret, /This secret works\./);
    assert.match(secret, /not sent by the platform/);
    const invalid = page({
      finding: sastFinding({ issueType: 'secrets', ruleName: 'GitHub', secret: { service: 'GitHub', validation: 'confirmed_invalid' } }),
    });
    assert.doesNotMatch(invalid, /This secret works/);
    assert.ok(!headings(page({ finding: sastFinding({}) })).includes('Secret'), 'a code finding has no secret section');
  });
});
