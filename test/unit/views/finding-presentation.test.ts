// How a finding reads in the Projects tree: label, description, icon, menu flags, what a screen
// reader says, and a tooltip in which server text stays inert.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  findingAccessibilityLabel,
  findingContextValue,
  findingDescription,
  findingLabel,
  findingTooltip,
  groupDescription,
  findingIcon,
  groupIcon,
  groupLabel,
  severityIcon,
  shortRuleName,
} from '../../../src/views/finding-presentation';
import { sastFinding, scaFinding } from '../services/finding-fixtures';
import { groupFindings } from '../../../src/core/services/grouping';

const lodash = scaFinding(
  { package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337', reachability: 'reachable', fixVersions: ['4.17.21'] },
  { ruleName: 'ssc-lodash-template', severity: 'high' },
);

void describe('labels and descriptions', () => {
  void test('a code finding shows the last segment of its rule, then file:line and status', () => {
    const finding = sastFinding({ ruleName: 'python.lang.security.audit.eval-detected', file: 'src/app.py', line: 42, status: 'reviewing' });
    assert.equal(findingLabel(finding), 'eval-detected');
    assert.equal(findingDescription(finding), 'src/app.py:42 · reviewing');
  });

  void test("after drift mapping: today's line, changed code said, deleted code marked", () => {
    const finding = sastFinding({ file: 'src/app.py', line: 20, status: 'open' });
    assert.equal(
      findingDescription(finding, {
        kind: 'moved',
        relativePath: 'src/app.py',
        range: { startLine: 26, startCharacter: 0, endLine: 26, endCharacter: 4, wholeLine: false },
      }),
      'src/app.py:27',
    );
    assert.equal(
      findingDescription(finding, {
        kind: 'changed',
        relativePath: 'src/main.py',
        range: { startLine: 19, startCharacter: 0, endLine: 19, endCharacter: 4, wholeLine: false },
      }),
      'src/main.py:20 (code changed since the scan)',
    );
    assert.equal(
      findingDescription(finding, {
        kind: 'scanned',
        relativePath: 'src/app.py',
        range: { startLine: 41, startCharacter: 0, endLine: 41, endCharacter: 4, wholeLine: false },
      }),
      `${findingDescription(finding)}`,
      'not mapped: the scanned place',
    );
    assert.equal(findingDescription(finding, { kind: 'deleted' }), 'src/app.py · no longer in this copy');
  });

  void test('code on a branch this checkout does not include reads "not in this copy yet", naming the branch', () => {
    const onFeature = sastFinding({ file: 'src/new.py', line: 3, ref: 'refs/heads/feature/x' });
    assert.equal(findingDescription(onFeature, { kind: 'deleted', onlyAt: 'abc1234' }), 'src/new.py · not in this copy yet: it is on feature/x');
    assert.equal(findingDescription(sastFinding({ file: 'src/new.py', line: 3 }), { kind: 'deleted', onlyAt: 'abc1234' }), 'src/new.py · not in this copy yet');
  });

  void test('a finding new on its branch says so first, in the description, the tooltip and to a screen reader', () => {
    const finding = sastFinding({ file: 'src/app.py', line: 20, status: 'open' });
    assert.equal(findingDescription(finding, undefined, true), 'new on this branch · src/app.py:20');
    assert.equal(findingDescription(lodash, undefined, true), 'new on this branch · reachable · fix 4.17.21');
    assert.match(findingAccessibilityLabel(finding, true), /^new on this branch, /);
    assert.match(findingTooltip(finding, 'main'), /New on this branch.*main does not have it/);
    assert.doesNotMatch(findingTooltip(finding), /New on this branch/);
  });

  void test('a finding whose story says it blocks pull requests says so up front, in the row and the tooltip', () => {
    const finding = sastFinding({ file: 'src/app.py', line: 20, status: 'open' });
    assert.equal(findingDescription(finding, undefined, false, true), 'blocks pull requests · src/app.py:20');
    assert.equal(findingDescription(finding, undefined, true, true), 'new on this branch · blocks pull requests · src/app.py:20');
    assert.equal(findingDescription(lodash, undefined, false, true), 'blocks pull requests · reachable · fix 4.17.21');
    assert.match(findingTooltip(finding, undefined, true).replace(/\\(.)/g, '$1'), /Blocks pull requests: yes: its rule runs in block mode/);
    assert.doesNotMatch(findingTooltip(finding), /Blocks pull requests/);
  });

  void test('a code finding without a location says so', () => {
    assert.equal(findingDescription(sastFinding({ status: 'open' })), 'no location');
  });

  void test('a supply-chain finding is named by package, version and advisory (never its ssc- id), then reachability and the fix', () => {
    assert.equal(findingLabel(lodash), 'lodash 4.17.20 — CVE-2021-23337');
    assert.equal(findingDescription(lodash), 'reachable · fix 4.17.21');
    assert.equal(findingDescription(scaFinding({ ...lodash.sca, reachability: 'unknown' })), 'reachability unknown · fix 4.17.21', 'says what is unknown');
  });

  void test('supply-chain: several fixes, malicious packages, a status other than open, no package', () => {
    const finding = scaFinding(
      { package: 'evil', advisory: 'GHSA-1', reachability: 'always_reachable', fixVersions: ['1.0.1', '2.0.0'], isMalicious: true },
      { status: 'ignored', ruleName: 'ssc.rules.x' },
    );
    assert.equal(findingLabel(finding), 'evil — GHSA-1');
    assert.equal(findingDescription(finding), 'malicious · always reachable · fix 1.0.1, 2.0.0 · ignored');
    assert.equal(findingDescription(scaFinding({ advisory: 'CVE-1' })), 'CVE-1', 'without a package, the advisory is in the description');
    assert.equal(findingLabel(scaFinding({}, { ruleName: 'ssc.rules.no-package' })), 'no-package');
  });

  void test('shortRuleName keeps odd names readable', () => {
    assert.equal(shortRuleName('a.b.c'), 'c');
    assert.equal(shortRuleName('single'), 'single');
    assert.equal(shortRuleName('trailing.'), 'trailing');
    assert.equal(shortRuleName(''), '(unnamed rule)');
  });
});

void describe('severityIcon', () => {
  void test('critical and high are errors, medium a warning, low information, in the Problems colors', () => {
    assert.deepEqual(severityIcon('critical'), { id: 'error', color: 'problemsErrorIcon.foreground' });
    assert.deepEqual(severityIcon('high'), { id: 'error', color: 'problemsErrorIcon.foreground' });
    assert.deepEqual(severityIcon('medium'), { id: 'warning', color: 'problemsWarningIcon.foreground' });
    assert.deepEqual(severityIcon('low'), { id: 'info', color: 'problemsInfoIcon.foreground' });
  });

  void test('icons follow appsecFindings.severityMapping, as Problems does', () => {
    const mapping = { critical: 'error', high: 'warning', medium: 'information', low: 'hint' } as const;
    assert.deepEqual(
      ['critical', 'high', 'medium', 'low'].map((s) => severityIcon(s, mapping).id),
      ['error', 'warning', 'info', 'lightbulb'],
    );
    assert.equal(groupIcon('severity', 'high', mapping).id, 'warning');
    assert.equal(severityIcon('low', { high: 'hint' }).id, 'info', 'what the mapping leaves out keeps its default');
  });

  void test("an unreachable supply-chain finding has the icon Problems gives it: information when so set, its severity's otherwise", () => {
    const unreachable = scaFinding({ reachability: 'unreachable' }, { severity: 'critical' });
    assert.equal(findingIcon(unreachable, undefined, { unreachableLevel: 'information' }).id, 'info');
    assert.equal(findingIcon(unreachable).id, 'error');
    assert.equal(findingIcon(scaFinding({ reachability: 'reachable' }, { severity: 'critical' }), undefined, { unreachableLevel: 'information' }).id, 'error');
  });

  void test('a severity the platform adds later gets a neutral icon, not a crash', () => {
    assert.deepEqual(severityIcon('experimental'), { id: 'question' });
  });
});

void describe('findingContextValue', () => {
  void test('hasUrl only for an http(s) line-of-code URL', () => {
    assert.equal(findingContextValue(sastFinding({ lineOfCodeUrl: 'https://github.com/o/r/blob/abc/a.py#L1' })), 'finding hasUrl github sast status-open');
    assert.equal(findingContextValue(sastFinding({})), 'finding sast status-open');
    assert.equal(findingContextValue(sastFinding({ lineOfCodeUrl: 'command:workbench.action.openSettings' })), 'finding sast status-open');
    assert.equal(findingContextValue(lodash), 'finding sca status-open');
  });

  void test('the status and a ticket are flags, so Reopen and Unlink Ticket show only where they apply', () => {
    const reopenMenu = /^(?!.*\bstatus-open\b).*\b(finding|by-rule|by-file)\b/;
    assert.doesNotMatch(findingContextValue(sastFinding({ status: 'open' })), reopenMenu);
    assert.match(findingContextValue(sastFinding({ status: 'ignored' })), reopenMenu);
    assert.match(findingContextValue(sastFinding({ ticket: { slug: 'SEC-1' } })), /\bhasTicket\b/);
    assert.doesNotMatch(findingContextValue(sastFinding({})), /\bhasTicket\b/);
  });

  void test('menus written as \\bfinding\\b and \\bhasUrl\\b match the flags', () => {
    const value = findingContextValue(sastFinding({ lineOfCodeUrl: 'http://x.example/a' }));
    assert.match(value, /\bfinding\b/);
    assert.match(value, /\bhasUrl\b/);
    assert.doesNotMatch(value, /\bproject\b|\brule\b/);
  });
});

void describe('findingAccessibilityLabel', () => {
  void test('says severity, rule, file, line and status', () => {
    const finding = sastFinding({ severity: 'high', ruleName: 'js.xss', file: 'web/a.js', line: 7, status: 'open' });
    assert.equal(findingAccessibilityLabel(finding), 'high severity finding, rule js.xss, file web/a.js line 7, open');
  });

  void test('supply chain: package, version, advisory, reachability, fix and status', () => {
    assert.equal(
      findingAccessibilityLabel(lodash),
      'high severity supply-chain finding, package lodash version 4.17.20, advisory CVE-2021-23337, reachable, fixed in 4.17.21, open',
    );
  });
});

void describe('findingTooltip', () => {
  void test('server text is escaped, and a command: link in it stays text', () => {
    const finding = sastFinding({
      ruleName: 'r.x',
      message: '[click](command:workbench.action.openSettings) <img src=x onerror=alert(1)>',
      file: 'a.py',
      line: 3,
      lineOfCodeUrl: 'https://github.com/o/r/blob/abc/a.py#L3',
    });
    const tooltip = findingTooltip(finding);
    assert.ok(tooltip.includes('\\[click\\]\\(command\\:workbench\\.action\\.openSettings\\) \\<img src\\=x onerror\\=alert\\(1\\)\\>'));
    // The one link is the http(s) URL the extension built.
    assert.deepEqual(
      [...tooltip.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1]),
      ['https://github.com/o/r/blob/abc/a.py#L3'],
    );
  });

  void test('names the scanned commit when the link has one', () => {
    assert.match(
      findingTooltip(sastFinding({ lineOfCodeUrl: 'https://github.com/o/r/blob/0f4c1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b/a.py#L3' })),
      /Scanned commit: 0f4c1a2/,
    );
  });

  void test('a non-http line-of-code URL is not linked', () => {
    const tooltip = findingTooltip(sastFinding({ lineOfCodeUrl: 'javascript:alert(1)' }));
    assert.doesNotMatch(tooltip, /\]\(/);
  });

  void test('supply-chain facts are listed', () => {
    const tooltip = findingTooltip(lodash);
    for (const part of ['Package: lodash\\@4\\.17\\.20', 'Advisory: CVE\\-2021\\-23337', 'Reachability: reachable', 'Fixed in: 4\\.17\\.21']) {
      assert.ok(tooltip.includes(part), part);
    }
  });
});

void describe('group labels', () => {
  void test('severity as a heading; a code rule by its last segment with the rest of its id beside; a supply-chain rule by package and advisory; file by name with its directory', () => {
    const g = (key: string, label = key): { key: string; label: string } => ({ key, label });
    assert.equal(groupLabel('severity', g('high')), 'High', 'a heading, as in the web UI');
    assert.equal(groupDescription('severity', g('high'), 12), '12');
    assert.equal(groupLabel('rule', g('python.lang.eval')), 'eval');
    assert.equal(groupDescription('rule', g('python.lang.eval'), 3), '3 · python.lang', 'two rules ending in "eval" are told apart');
    const sca = groupFindings(
      [scaFinding({ package: 'lodash', version: '4.17.20', advisory: 'CVE-2021-23337' }, { ruleName: 'ssc-3cd9a1b2-0000-4000-8000-000000000001' })],
      'rule',
    )[0];
    assert.equal(groupLabel('rule', sca), 'lodash — CVE-2021-23337', 'never the ssc- id');
    assert.equal(groupDescription('rule', sca, 1), '1');
    assert.equal(groupLabel('file', g('src/app/main.py')), 'main.py');
    assert.equal(groupDescription('file', g('src/app/main.py'), 1), '1 · src/app');
    assert.equal(groupDescription('file', g('main.py'), 2), '2');
  });

  void test('icons follow the grouping', () => {
    assert.equal(groupIcon('severity', 'medium').id, 'warning');
    assert.equal(groupIcon('rule', 'x').id, 'law');
    assert.equal(groupIcon('file', 'x').id, 'file');
  });
});

void describe('a supply-chain finding without its facts', () => {
  void test('reads like a code finding instead of an empty line', () => {
    const bare = sastFinding({ issueType: 'sca', ruleName: 'ssc.x', severity: 'critical', status: 'open' });
    assert.equal(findingDescription(bare), 'no location');
    assert.match(findingAccessibilityLabel(bare), /^critical severity finding, rule ssc\.x/);
  });

  test('AI code findings and secrets say what they are, in the row, the tooltip and for screen readers', () => {
    const ai = sastFinding({ file: 'src/a.py', line: 3, ai: { impact: 'Orders of others can be read.' } });
    assert.equal(findingDescription(ai), 'AI · src/a.py:3');
    // Read as the hover shows it: markdown's escapes taken out.
    const shown = (markdown: string): string => markdown.replace(/\\(.)/g, '$1');
    assert.match(shown(findingTooltip(ai)), /Found by: the AI-powered analysis/);
    assert.match(shown(findingTooltip(ai)), /Likely impact: Orders of others can be read\./);
    assert.match(findingAccessibilityLabel(ai), /AI code finding/);
    const secret = sastFinding({ issueType: 'secrets', ruleName: 'AWS', file: '.env', line: 1, secret: { service: 'AWS', validation: 'confirmed_valid' } });
    assert.equal(findingDescription(secret), 'valid secret · .env:1');
    assert.match(shown(findingTooltip(secret)), /Validation: valid secret/);
    assert.match(findingAccessibilityLabel(secret), /AWS secret, valid secret, file \.env line 1/);
    assert.equal(findingDescription({ ...secret, secret: { service: 'AWS', validation: 'no_validator' } }), 'not validated · .env:1');
    assert.match(findingContextValue(secret), /\bsecrets\b/, 'menus can tell secrets apart');
  });
});
