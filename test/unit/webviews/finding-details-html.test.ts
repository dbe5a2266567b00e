// The Finding Details page as built (pure): a strict CSP with the script's nonce and nothing
// inline, server text inert, each section only with data, the actions that fit the finding's
// state, and only the page's known messages accepted.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FindingDetail } from '../../../src/core/model/types';
import { findingDetailsHtml, parseDetailsMessage, type DetailsInput } from '../../../src/webviews/finding-details-html';
import { sastFinding, scaFinding } from '../services/finding-fixtures';

const resources = { nonce: 'bm9uY2UxMjM0', cspSource: 'https://webview.example', scriptUri: 'https://webview.example/details.js', styleUri: 'https://webview.example/details.css' };
const html = (input: DetailsInput): string => findingDetailsHtml(input, resources);
const detailOf = (finding: ReturnType<typeof sastFinding>, extra: Partial<FindingDetail> = {}): FindingDetail => ({
  ...finding, categories: [], reviewComments: [], clickToFixPrUrls: [], clickToFixFailures: [], ...extra,
});

void describe('the details page: security', () => {
  void test('CSP: nothing by default, style from the extension, script only with the nonce; one script, no inline code', () => {
    const page = html({ finding: sastFinding({ file: 'a.py', line: 3 }) });
    assert.ok(page.includes(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https://webview.example https: data:; style-src https://webview.example; script-src 'nonce-bm9uY2UxMjM0';">`));
    assert.equal(page.match(/<script\b/g)?.length, 1);
    assert.match(page, /<script nonce="bm9uY2UxMjM0" src="https:\/\/webview\.example\/details\.js"><\/script>/);
    assert.doesNotMatch(page, /\son[a-z]+\s*=/i, 'no inline handlers');
    assert.doesNotMatch(page, /\sstyle\s*=/i, 'no inline style');
    assert.doesNotMatch(page, /<style\b/i);
  });

  void test('hostile server text is inert: escaped, never a tag, never a script link', () => {
    const evil = '<img src=x onerror=alert(1)></script><script>alert(2)</script> **bold** [x](javascript:alert(3))';
    const finding = sastFinding({ ruleName: `r.${evil}`, message: evil, triageComment: evil, lineOfCodeUrl: 'javascript:alert(4)', ticket: { slug: evil, url: 'javascript:alert(5)' } });
    const page = html({
      finding,
      detail: detailOf(finding, {
        rule: { name: evil, cweNames: [evil], owaspNames: [], subcategories: [], vulnerabilityClasses: [] },
        assistant: { autofixCode: evil, guidanceSummary: evil },
        clickToFixPrUrls: ['javascript:alert(6)', 'https://github.com/o/r/pull/1'],
      }),
      error: evil, notice: { kind: 'info', text: evil }, currentCode: evil,
    });
    assert.doesNotMatch(page, /<img|<script>alert/i, 'no tag from the server');
    assert.doesNotMatch(page, /href="javascript:|data-url="javascript:/i);
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt;'), 'shown as text');
    assert.match(page, /data-action="openLink" data-url="https:\/\/github\.com\/o\/r\/pull\/1"/, 'http(s) links stay links');
  });
});

void describe('the details page: content', () => {
  void test('the rule lists, the assistant (fix beside today\'s code, Apply), the triage note', () => {
    const finding = sastFinding({ file: 'src/app.py', line: 12, triageComment: 'looked at it', status: 'reviewing' });
    const page = html({
      finding, currentCode: 'eval(user_input)',
      detail: detailOf(finding, {
        rule: { name: 'python.eval', cweNames: ['CWE-95: Eval Injection'], owaspNames: ['A03:2021 - Injection'], subcategories: ['vuln'], vulnerabilityClasses: ['Code Injection'] },
        assistant: { autofixCode: 'ast.literal_eval(user_input)', autotriageVerdict: 'true_positive', autotriageReason: 'User input reaches eval.', guidanceSummary: 'Do not eval input.' },
      }),
      place: { path: 'src/app.py', line: 19, changed: true },
    });
    for (const text of ['CWE-95: Eval Injection', 'A03:2021 - Injection', 'Code Injection', 'ast.literal_eval(user_input)', 'eval(user_input)', 'true positive', 'User input reaches eval.', 'Do not eval input.', 'looked at it', 'src/app.py:19', 'the code here changed since the scan']) {
      assert.ok(page.includes(text), text);
    }
    assert.match(page, /data-action="applyFix"/);
  });

  void test('supply chain: package, reachability, EPSS as percent, fix versions, malicious', () => {
    const finding = scaFinding({ package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'conditionally_reachable', fixVersions: ['4.17.21'], isMalicious: true, lockfileLineUrl: 'https://github.com/o/r/blob/abc/package-lock.json#L42', lockfileLine: 42 });
    const page = html({ finding, detail: detailOf(finding, { epss: { score: 0.00431, percentile: 0.7512 }, reachableCondition: 'when templates are user input' }) });
    for (const text of ['lodash 4.17.20', 'CVE-2021-23337', 'conditionally reachable', 'when templates are user input', '0.43 %', '75.1 %', '4.17.21', 'malicious package', 'line 42']) assert.ok(page.includes(text), text);
  });

  void test('fix pull requests and the failed fix attempts with their reasons', () => {
    const finding = sastFinding({});
    const page = html({ finding, detail: detailOf(finding, {
      clickToFixPrUrls: ['https://github.com/o/r/pull/7'],
      clickToFixFailures: [{ createdAt: new Date('2024-05-01T10:00:00Z'), reason: 'merge conflict in app.py' }],
    }) });
    assert.match(page, /data-url="https:\/\/github\.com\/o\/r\/pull\/7"/);
    assert.ok(page.includes('2024-05-01 10:00: merge conflict in app.py'));
  });

  void test('sections appear only with data; loading, error and notice states are said', () => {
    const bare = html({ finding: sastFinding({}), loading: true });
    assert.doesNotMatch(bare, /<h2>(Assistant|Supply chain|Ticket|Pull requests)<\/h2>/);
    assert.match(bare, /aria-busy="true">Loading the platform/);
    assert.match(html({ finding: sastFinding({}), error: 'offline' }), /role="alert">offline</);
    assert.match(html({ finding: sastFinding({}), notice: { kind: 'info', text: 'Ignored.' } }), /role="status" aria-live="polite">Ignored\.</);
  });

  void test('the actions fit the state: Reopen only when not open, Unlink only with a ticket, Open in Platform only with its link', () => {
    const actions = (page: string): string[] => [...page.matchAll(/<button[^>]*>([^<]+)<\/button>/g)].map((m) => m[1] ?? '');
    const open = actions(html({ finding: sastFinding({}) }));
    assert.ok(!open.includes('Reopen') && open.includes('Create Jira Ticket') && !open.includes('Unlink Ticket') && !open.includes('Open in Platform'));
    const ignored = actions(html({ finding: sastFinding({ status: 'ignored', ticket: { slug: 'SEC-1', url: 'https://acme.atlassian.net/browse/SEC-1' } }), platformUrl: 'https://semgrep.dev/x' }));
    assert.ok(ignored.includes('Reopen') && ignored.includes('Unlink Ticket') && !ignored.includes('Create Jira Ticket') && ignored.includes('Open in Platform'));
    assert.equal(open[0], 'Ignore…', 'the first action, first in keyboard order');
  });
});

void describe('messages from the page', () => {
  void test('each known message is accepted as it is', () => {
    for (const message of [{ type: 'triage', state: 'ignored' }, { type: 'triage', state: 'reopened' }, { type: 'addNote' }, { type: 'applyFix' }, { type: 'openLink', url: 'https://x.example/a' }, { type: 'refresh' }]) {
      assert.deepEqual(parseDetailsMessage(message), message);
    }
  });

  void test('anything else is refused: unknown types and states, non-http links, non-objects', () => {
    for (const raw of [null, 'triage', { type: 'triage', state: 'deleted' }, { type: 'eval' }, { type: 'openLink', url: 'javascript:alert(1)' }, { type: 'openLink', url: 'command:workbench.action.quit' }, { type: 'openLink' }]) {
      assert.equal(parseDetailsMessage(raw), undefined, JSON.stringify(raw));
    }
  });
});
