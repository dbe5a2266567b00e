// The answers as the real service sends them, beside the spec's spelling of the same thing:
// flat `findings` or the envelope, snake_case or camelCase rule lists and tickets, `null` for
// "no value", defaults left out, branches as `refs/heads/…`. Every case runs on both spellings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeFinding } from '../../../src/core/model/decodeFinding';
import { decodeFindingDetail } from '../../../src/core/model/decodeFindingDetail';
import { decodeExternalTicket, decodeTicketLink } from '../../../src/core/model/decodeTicket';
import { decodeProject, decodeProjectResponse, decodeProjectsPage } from '../../../src/core/model/decodeProject';
import { StringInterner } from '../../../src/core/model/interner';
import { branchName, fullBranchRef, primaryRef, refToShow, sameBranch, spellingOf, spellRef } from '../../../src/core/model/refs';
import { decodePage } from './helpers/decodePage';
import { plain } from './helpers/plain';

const interner = (): StringInterner => new StringInterner();
const finding = { id: 7, rule: { name: 'python.flask.xss', message: 'XSS' }, severity: 'high', status: 'open', ref: 'main' };

void describe('findings answers in every shape the service uses', () => {
  const shapes: [string, (items: unknown[]) => unknown][] = [
    ['flat {"findings": […]} (the service\'s reference)', (items) => ({ findings: items })],
    ['spec envelope sastFindings', (items) => ({ sastFindings: { findings: items } })],
    ['spec envelope scaFindings', (items) => ({ scaFindings: { findings: items } })],
    ['AI envelope aiSastFindings', (items) => ({ aiSastFindings: { findings: items } })],
  ];
  for (const [name, wrap] of shapes) {
    void it(`reads ${name}, the items being of the issue type asked for`, async () => {
      for (const type of ['sast', 'sca'] as const) {
        const page = await decodePage(wrap([finding, { ...finding, id: 8 }]), type);
        assert.deepEqual(
          page.findings.map((f) => [f.id, f.issueType, f.ruleName]),
          [
            [7, type, 'python.flask.xss'],
            [8, type, 'python.flask.xss'],
          ],
        );
      }
    });
  }

  void it('prefers the flat list, then the member named after the issue type', async () => {
    const body = { findings: [finding], sastFindings: { findings: [] }, scaFindings: { findings: [{ ...finding, id: 9 }] } };
    assert.deepEqual(
      (await decodePage(body, 'sca')).findings.map((f) => f.id),
      [7],
    );
    const envelope = { sastFindings: { findings: [{ ...finding, id: 1 }] }, scaFindings: { findings: [{ ...finding, id: 2 }] } };
    assert.deepEqual(
      (await decodePage(envelope, 'sca')).findings.map((f) => f.id),
      [2],
    );
    assert.deepEqual(
      (await decodePage(envelope, 'sast')).findings.map((f) => f.id),
      [1],
    );
  });

  void it('an answer of another shape names its top-level keys, never their values, and does not blame the base URL', async () => {
    const secret = 'sgp_do_not_show_me';
    const e = await rejection(decodePage({ results: [secret], next: secret }, 'sast'));
    assert.ok(PlatformError.is(e, 'invalidResponse'));
    assert.match(e.message, /has no "findings" list \(it has the keys "results", "next"\)/);
    assert.ok(!e.message.includes(secret));
    assert.doesNotMatch(e.message, /base URL/);
    const many = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`k${i}`, i]));
    assert.match((await rejection(decodePage(many, 'sast'))).message, /"k9" and 4 more\)/);
    assert.match((await rejection(decodePage({}, 'sast'))).message, /no keys at all/);
    assert.match((await rejection(decodePage([finding], 'sast'))).message, /is a list, not an object/);
    assert.match((await rejection(decodePage({ findings: { a: 1 } }, 'sast'))).message, /"findings" that is not a list/);
  });
});

void describe("a finding in the service's spelling", () => {
  void it('without the deprecated rule_name and rule_message, reads rule.name and rule.message', () => {
    const f = decodeFinding(finding, 'sast', interner());
    assert.equal(f?.ruleName, 'python.flask.xss');
    assert.equal(f?.message, 'XSS');
  });

  void it('prefers the deprecated fields when both are sent (the service fills both alike)', () => {
    const f = decodeFinding({ ...finding, rule_name: 'a.b', rule_message: 'old' }, 'sast', interner());
    assert.deepEqual([f?.ruleName, f?.message], ['a.b', 'old']);
  });

  void it('is malformed only when neither names its rule', async () => {
    for (const raw of [{ id: 1 }, { id: 1, rule: {} }, { id: 1, rule: { name: '' }, rule_name: null }, { id: 1, rule: null, rule_name: '' }]) {
      assert.equal(decodeFinding(raw, 'sast', interner()), undefined, JSON.stringify(raw));
    }
    const page = await decodePage({ findings: [{ id: 1 }, finding] }, 'sast');
    assert.deepEqual([page.findings.length, page.skipped], [1, 1]);
  });

  void it('reads null as "no value" for every optional field', () => {
    const raw = {
      ...finding,
      rule_name: null,
      rule_message: null,
      confidence: null,
      triage_reason: null,
      triage_comment: null,
      triaged_at: null,
      state_updated_at: null,
      ref: null,
      location: null,
      line_of_code_url: null,
      repository: null,
      sourcing_policy: null,
      external_ticket: null,
      review_comments: null,
      assistant: null,
      reachable_condition: null,
      usage: null,
      epss_score: null,
      found_dependency: null,
      fix_recommendations: null,
      is_malicious: null,
      vulnerability_identifier: null,
      reachability: null,
    };
    for (const type of ['sast', 'sca'] as const) {
      const detail = decodeFindingDetail(raw, type);
      assert.ok(detail, type);
      assert.equal(detail.ruleName, 'python.flask.xss');
      assert.deepEqual(
        [detail.triageReason, detail.triageComment, detail.triagedAt, detail.ref, detail.location, detail.externalTicket],
        [undefined, undefined, undefined, undefined, undefined, undefined],
      );
      assert.deepEqual(detail.reviewComments, []);
      if (type === 'sca') assert.deepEqual(plain(detail.sca), { isMalicious: false });
    }
  });

  void it('an omitted is_malicious is false (the service leaves false out), true only when sent', () => {
    assert.equal(decodeFinding(finding, 'sca', interner())?.sca?.isMalicious, false);
    assert.equal(decodeFinding({ ...finding, is_malicious: true }, 'sca', interner())?.sca?.isMalicious, true);
  });

  const snakeRule = {
    name: 'r',
    cwe_names: ['CWE-79: XSS'],
    owasp_names: ['A03:2021 - Injection'],
    vulnerability_classes: ['Cross-Site-Scripting (XSS)'],
    subcategories: ['vuln'],
  };
  const camelRule = {
    name: 'r',
    cweNames: ['CWE-79: XSS'],
    owaspNames: ['A03:2021 - Injection'],
    vulnerabilityClasses: ['Cross-Site-Scripting (XSS)'],
    subcategories: ['vuln'],
  };
  for (const [spelling, rule] of [
    ['snake_case (the service)', snakeRule],
    ['camelCase (the spec)', camelRule],
  ] as const) {
    void it(`reads the rule's CWE, OWASP and vulnerability classes in ${spelling}`, () => {
      const detail = decodeFindingDetail({ id: 1, rule }, 'sast');
      assert.deepEqual(plain(detail?.rule), {
        name: 'r',
        cweNames: ['CWE-79: XSS'],
        owaspNames: ['A03:2021 - Injection'],
        subcategories: ['vuln'],
        vulnerabilityClasses: ['Cross-Site-Scripting (XSS)'],
      });
    });
  }

  void it('reads the ticket and review comments in both spellings', () => {
    const snake = {
      id: 1,
      rule_name: 'r',
      external_ticket: { id: 5, external_slug: 'SEC-5', linked_issue_ids: [1, 2], url: 'https://jira/SEC-5' },
      review_comments: [{ external_discussion_id: 'd1', external_note_id: 11 }],
    };
    const camel = {
      id: 1,
      rule_name: 'r',
      external_ticket: { id: 5, externalSlug: 'SEC-5', linkedIssueIds: [1, 2], url: 'https://jira/SEC-5' },
      review_comments: [{ externalDiscussionId: 'd1', externalNoteId: 11 }],
    };
    for (const raw of [snake, camel]) {
      const detail = decodeFindingDetail(raw, 'sast');
      assert.deepEqual(plain(detail?.externalTicket), { id: 5, slug: 'SEC-5', linkedIssueIds: [1, 2], url: 'https://jira/SEC-5' });
      assert.deepEqual(plain(detail?.reviewComments), [{ discussionId: 'd1', noteId: 11 }]);
    }
    assert.equal(decodeExternalTicket({ linked_issue_ids: [1] }), undefined, 'a ticket that names nothing is no ticket');
    assert.deepEqual(plain(decodeExternalTicket({ external_slug: 'X-1', linked_issue_ids: [1, 'two', 2 ** 60] })), { slug: 'X-1', linkedIssueIds: [1] });
  });

  void it("one reader for a finding's ticket in every list: either spelling, interned, nothing when it names nothing", () => {
    const interner = new StringInterner();
    const fromList = decodeTicketLink({ external_slug: 'SEC-5', url: 'https://jira/SEC-5' }, interner);
    const fromSecrets = decodeTicketLink({ externalSlug: 'SEC-5' }, interner);
    assert.deepEqual(fromList, { slug: 'SEC-5', url: 'https://jira/SEC-5' });
    assert.deepEqual(fromSecrets, { slug: 'SEC-5', url: undefined });
    assert.equal(interner.size, 2, 'the key and the link are kept once');
    const ticket = decodeTicketLink({ id: 7, external_slug: 'SEC-7', url: 'https://jira/SEC-7' }, interner);
    assert.equal(decodeTicketLink({ id: 7, externalSlug: 'SEC-7', url: 'https://jira/SEC-7' }, interner), ticket, 'the findings of one ticket share it');
    assert.notEqual(decodeTicketLink({ id: 7, external_slug: 'SEC-7', url: 'https://jira/SEC-7?x' }, interner), ticket, 'another link is another ticket');
    assert.deepEqual(decodeTicketLink({ external_slug: '', externalSlug: 'SEC-6' }), { slug: 'SEC-6', url: undefined }, 'an empty key is no key');
    for (const nothing of [undefined, null, 'SEC-5', [], { id: 5 }, { external_slug: '', url: '' }]) assert.equal(decodeTicketLink(nothing), undefined);
  });
});

void describe("projects in the service's spelling", () => {
  void it('shows refs/heads/<name> branches by their name', () => {
    const p = decodeProject({ id: 1, name: 'acme/api', primary_branch: 'refs/heads/main', default_branch: 'refs/heads/release/2.x' });
    assert.deepEqual([p?.primaryBranch, p?.defaultBranch], ['main', 'release/2.x']);
    assert.equal(decodeProject({ id: 1, name: 'a', primary_branch: 'main' })?.primaryBranch, 'main');
  });

  void it('reads omitted managed-scan flags as off, not unknown (defaults are left out)', () => {
    const p = decodeProject({ id: 1, name: 'a', managed_scan_config: { diff_scan: {}, full_scan: { enabled: true } } });
    assert.deepEqual(p?.managedScanConfig, { diffScanEnabled: false, fullScanEnabled: true });
    assert.equal(decodeProject({ id: 1, name: 'a' })?.managedScanConfig, undefined, 'no config at all (the list) stays unknown');
    assert.equal(decodeProject({ id: 1, name: 'a', managed_scan_config: null })?.managedScanConfig, undefined);
  });
});

/** A fixture of `fixtures/service-shapes` (see its README: written by us from the documented facts). */
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(__dirname, 'fixtures', 'service-shapes', name), 'utf8'));

void describe('answers shaped like the real service (fixtures)', () => {
  void it('code findings: none dropped, rule named without rule_name, lists, ticket, comments, nulls, a pull-request ref', async () => {
    const body = fixture('findings-sast.json') as { findings: unknown[] };
    const page = await decodePage(structuredClone(body), 'sast');
    assert.deepEqual([page.findings.length, page.skipped], [3, 0]);
    const [full, noRuleName, pull] = body.findings.map((raw) => decodeFindingDetail(raw, 'sast'));
    assert.deepEqual(full?.rule?.cweNames, ["CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')"]);
    assert.deepEqual([full?.rule?.owaspNames, full?.rule?.vulnerabilityClasses], [['A03:2021 - Injection'], ['SQL Injection']]);
    assert.deepEqual(plain(full?.externalTicket), {
      id: 7781,
      slug: 'SEC-118',
      linkedIssueIds: [80412233, 80412234],
      url: 'https://acme.atlassian.net/browse/SEC-118',
    });
    assert.deepEqual(plain(full?.reviewComments), [{ discussionId: 'd1f0a9', noteId: 99120 }]);
    assert.deepEqual([full?.triagedAt, full?.triageComment, full?.triageReason, full?.stateUpdatedAt], [undefined, undefined, undefined, undefined]);
    assert.equal(full?.assistant?.autofixExplanation, undefined);
    assert.deepEqual(
      [noRuleName?.ruleName, noRuleName?.message, noRuleName?.status, noRuleName?.triageReason],
      ['python.lang.security.audit.eval-detected', 'Detected the use of eval().', 'ignored', 'false_positive'],
    );
    assert.equal(noRuleName?.triagedAt?.toISOString(), '2020-11-18T23:28:12.391Z');
    assert.equal(pull?.ref, 'refs/pull/1234/merge');
    assert.deepEqual(pull?.location, { filePath: 'web/server.js', line: 88, column: 3, endLine: 90, endColumn: 5 });
  });

  void it('supply-chain findings: usage null or in its own shape, omitted is_malicious, lockfile line, EPSS, fix versions', async () => {
    const body = fixture('findings-sca.json') as { findings: unknown[] };
    const page = await decodePage(structuredClone(body), 'sca');
    assert.deepEqual([page.findings.length, page.skipped], [2, 0]);
    const [unused, malicious] = page.findings;
    assert.deepEqual(plain(unused?.sca), {
      advisory: 'CVE-2021-23337',
      package: 'lodash',
      version: '4.17.20',
      ecosystem: 'npm',
      transitivity: 'transitive',
      reachability: 'unreachable',
      isMalicious: false,
      fixVersions: ['4.17.21'],
      lockfileLineUrl: unused?.lineOfCodeUrl,
      lockfileLine: 1207,
    });
    assert.equal(malicious?.ruleName, 'ssc-0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d');
    assert.equal(malicious?.sca?.isMalicious, true);
    assert.deepEqual(malicious?.sca?.usage, { filePath: 'src/stream.js', line: 14, column: 5, endLine: 14, endColumn: 28 });
    assert.equal(malicious?.sca?.lockfileLine, 42);
    assert.deepEqual(plain(decodeFindingDetail(body.findings[1], 'sca')?.epss), { score: 0.5, percentile: 0.99 });
  });

  void it("the spec's envelope with camelCase lists, and the AI envelope, decode alike", async () => {
    const spec = fixture('findings-spec-envelope.json') as { sastFindings: { findings: unknown[] } };
    assert.equal((await decodePage(structuredClone(spec), 'sast')).findings[0]?.status, 'fixing');
    const detail = decodeFindingDetail(spec.sastFindings.findings[0], 'sast');
    assert.deepEqual([detail?.rule?.cweNames, detail?.externalTicket?.slug, detail?.reviewComments[0]?.noteId], [['CWE-338'], 'INV-3', 5]);
    const ai = await decodePage(fixture('findings-ai.json'), 'sast');
    assert.deepEqual(
      ai.findings.map((f) => [f.id, f.ruleName, f.location?.line]),
      [[60000003, 'ai.idor.missing-ownership-check', 31]],
    );
  });

  void it('projects: branches by name, omitted scan flag off', () => {
    const { projects } = decodeProjectsPage(fixture('projects.json'));
    assert.deepEqual(
      projects.map((p) => [p.name, p.primaryBranch, p.defaultBranch]),
      [
        ['acme/payments-api', 'main', 'main'],
        ['acme/platform/sub/billing-service', 'release/2.x', 'develop'],
      ],
    );
    assert.deepEqual(projects[1]?.tags, []);
    const one = decodeProjectResponse(fixture('project.json'), 'acme/payments-api');
    assert.deepEqual(one.managedScanConfig, { diffScanEnabled: false, fullScanEnabled: true });
  });
});

void describe('branch names', () => {
  void it('compares and shows branches by name, whichever spelling', () => {
    assert.equal(branchName('refs/heads/main'), 'main');
    assert.equal(branchName('refs/heads/feature/x'), 'feature/x');
    assert.equal(branchName('main'), 'main');
    assert.equal(branchName('refs/pull/1234/merge'), 'refs/pull/1234/merge');
    assert.equal(branchName('refs/heads/'), 'refs/heads/');
    assert.ok(sameBranch('refs/heads/main', 'main'));
    assert.ok(!sameBranch('main', 'develop'));
    assert.ok(!sameBranch(undefined, 'main'));
  });

  void it('one rule for the ref a place shows: the chosen one, else the primary branch, falling back to the primary', () => {
    const project = { primaryBranch: 'main', defaultBranch: 'develop' };
    assert.equal(primaryRef(project), 'main');
    assert.equal(primaryRef({ defaultBranch: 'develop' }), 'develop');
    assert.equal(primaryRef(undefined), undefined);
    assert.deepEqual(refToShow(undefined, project), { ref: 'main', fallback: undefined });
    assert.deepEqual(refToShow('feature/x', project), { ref: 'feature/x', fallback: 'main' });
    assert.deepEqual(refToShow('refs/heads/main', project), { ref: 'refs/heads/main', fallback: undefined }, 'the primary in another spelling is no fallback');
    assert.deepEqual(refToShow('feature/x', undefined), { ref: 'feature/x', fallback: undefined });
  });

  void it('spells a branch either way; pull-request refs and tags stay as they are', () => {
    assert.equal(fullBranchRef('main'), 'refs/heads/main');
    assert.equal(fullBranchRef('refs/heads/main'), 'refs/heads/main');
    assert.equal(fullBranchRef('refs/pull/1/merge'), undefined);
    assert.equal(spellRef('refs/heads/main', 'short'), 'main');
    assert.equal(spellRef('main', 'full'), 'refs/heads/main');
    assert.equal(spellRef('refs/tags/v1', 'full'), 'refs/tags/v1');
    assert.deepEqual(['main', 'refs/heads/main', 'refs/pull/9/head'].map(spellingOf), ['short', 'full', undefined]);
  });
});

async function rejection(decoding: Promise<unknown>): Promise<PlatformError> {
  try {
    await decoding;
  } catch (e) {
    if (e instanceof PlatformError) return e;
    throw e;
  }
  assert.fail('expected an error');
}
