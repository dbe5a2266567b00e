import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import { decodeDeploymentsResponse } from '../../../src/core/model/decodeDeployment';
import { decodeFindingDetail } from '../../../src/core/model/decodeFindingDetail';
import { decodePoliciesResponse, decodePolicyRulesPage } from '../../../src/core/model/decodePolicy';
import { decodeProjectResponse, decodeProjectsPage } from '../../../src/core/model/decodeProject';
import { decodeSbomExportCreated, decodeSbomExportStatus } from '../../../src/core/model/decodeSbom';
import { plain } from './helpers/plain';

const isInvalid = (e: unknown): boolean => PlatformError.is(e, 'invalidResponse');

void describe('decodeFindingDetail', () => {
  void it('decodes the long tail of a code finding', () => {
    const detail = decodeFindingDetail(
      {
        id: 1,
        rule_name: 'r',
        syntactic_id: 's',
        match_based_id: 'm',
        categories: ['security', 3],
        state: 'unresolved',
        triage_state: 'untriaged',
        triage_comment: 'later',
        triaged_at: '2024-05-01T12:00:00.123Z',
        created_at: '2024-01-01T00:00:00Z',
        state_updated_at: 'bad',
        first_seen_scan_id: 99,
        repository: { name: 'a/b', url: 'https://r' },
        rule: {
          name: 'r',
          message: 'msg',
          category: 'security',
          confidence: 'high',
          cweNames: ['CWE-95'],
          owaspNames: [],
          subcategories: ['vuln'],
          vulnerabilityClasses: ['Code Injection'],
        },
        external_ticket: { url: 'https://ticket' },
        click_to_fix_prs: [{ url: 'https://pr/1', created_at: '2024-01-01T00:00:00Z' }, { created_at: 'x' }, 'junk'],
        assistant: {
          autofix: { fix_code: 'safe()', explanation: null },
          autotriage: { verdict: 'true_positive', reason: 'because' },
          component: { risk: 'high', tag: 'payments' },
          guidance: { summary: 'do', instructions: 'steps' },
          rule_explanation: { summary: 'why', explanation: 'long' },
        },
      },
      'sast',
    );
    assert.ok(detail);
    assert.equal(detail.message, 'msg');
    assert.deepEqual(detail.categories, ['security']);
    assert.equal(detail.triagedAt?.toISOString(), '2024-05-01T12:00:00.123Z');
    assert.equal(detail.stateUpdatedAt, undefined);
    assert.equal(detail.firstSeenScanId, 99);
    assert.equal(detail.repositoryUrl, 'https://r');
    assert.deepEqual(detail.rule?.cweNames, ['CWE-95']);
    assert.deepEqual(plain(detail.externalTicket), { url: 'https://ticket', linkedIssueIds: [] });
    assert.deepEqual(detail.clickToFixPrUrls, ['https://pr/1']);
    assert.deepEqual(plain(detail.assistant), {
      autofixCode: 'safe()',
      autotriageVerdict: 'true_positive',
      autotriageReason: 'because',
      componentRisk: 'high',
      componentTag: 'payments',
      guidanceSummary: 'do',
      guidanceInstructions: 'steps',
      ruleExplanationSummary: 'why',
    });
    assert.equal(detail.epss, undefined);
  });

  void it('decodes supply-chain extras and skips what decodeFinding skips', () => {
    const detail = decodeFindingDetail({ id: 2, rule_name: 'r', reachable_condition: 'if x', epss_score: { score: 0.5, percentile: 'hi' } }, 'sca');
    assert.deepEqual(plain(detail?.epss), { score: 0.5 });
    assert.equal(detail?.reachableCondition, 'if x');
    assert.equal(detail?.rule, undefined);
    assert.equal(detail?.assistant, undefined);
    assert.deepEqual(detail?.clickToFixPrUrls, []);
    assert.equal(decodeFindingDetail({ id: 2 }, 'sca'), undefined);
  });
});

void describe('projects', () => {
  const project = {
    id: 3,
    name: 'group/sub/repo',
    tags: ['a', 1],
    created_at: '2024-01-01T00:00:00Z',
    default_branch: 'main',
    primary_branch: 'main',
    latest_scan_at: '2020-11-18 23:28:12.391807+00:00',
    url: 'https://p',
    managed_scan_config: { diff_scan: { enabled: true }, full_scan: { enabled: false } },
  };

  void it('decodes a project response including managed scan config', () => {
    const p = decodeProjectResponse({ project }, 'group/sub/repo');
    assert.deepEqual(plain(p), {
      id: 3,
      name: 'group/sub/repo',
      tags: ['a'],
      createdAt: new Date('2024-01-01T00:00:00Z'),
      defaultBranch: 'main',
      primaryBranch: 'main',
      latestScanAt: new Date('2020-11-18T23:28:12.391Z'),
      url: 'https://p',
      managedScanConfig: { diffScanEnabled: true, fullScanEnabled: false },
    });
  });

  void it('refuses a project response without a usable project', () => {
    for (const bad of [{}, { project: { name: 'x' } }, null, { project: { id: 2 ** 60, name: 'x' } }]) {
      assert.throws(() => decodeProjectResponse(bad, 'x'), isInvalid);
    }
  });

  void it('decodes a project page, leaving out malformed items but counting them as raw', () => {
    const { managed_scan_config: _ignored, ...listItem } = project;
    const page = decodeProjectsPage({ projects: [listItem, { id: 'x' }, null] });
    assert.equal(page.rawCount, 3);
    assert.deepEqual(
      page.projects.map((p) => p.name),
      ['group/sub/repo'],
    );
    assert.equal(page.projects[0]?.managedScanConfig, undefined);
  });

  void it('refuses a page without a projects list', () => {
    for (const bad of [{}, { projects: {} }, [], 'x']) {
      assert.throws(() => decodeProjectsPage(bad), isInvalid);
    }
  });
});

void describe('policies', () => {
  void it('decodes the policy list, converting numeric ids to text', () => {
    const policies = decodePoliciesResponse({
      policies: [{ id: 7, name: 'Default', slug: 'default', isDefault: true, productType: 'PRODUCT_TYPE_SAST' }, { name: 'no id' }, { id: '8' }],
    });
    assert.deepEqual(plain(policies), [
      { id: '7', name: 'Default', slug: 'default', isDefault: true, productType: 'PRODUCT_TYPE_SAST' },
      { id: '8', name: '8', slug: '', isDefault: false },
    ]);
    assert.deepEqual(decodePoliciesResponse({}), []);
    assert.throws(() => decodePoliciesResponse({ policies: 'x' }), isInvalid);
    assert.throws(() => decodePoliciesResponse(null), isInvalid);
  });

  void it('decodes a rules page with cursor, unknown and missing modes, and skipped rules', () => {
    const page = decodePolicyRulesPage({
      cursor: 'c2',
      policy: { id: '7', name: 'Default', slug: 'default', isDefault: true },
      rules: [
        {
          id: '1',
          path: 'a.b.c',
          policyMode: 'MODE_BLOCK',
          severity: 'SEVERITY_HIGH',
          languages: ['python'],
          lastChangeAt: '2024-05-01T12:00:00.123Z',
          lastChangeBy: 'me',
        },
        { id: 2, path: 'a.b.d', policyMode: 'MODE_FUTURE' },
        { id: '3', path: 'a.b.e' },
        { id: '4' },
        'junk',
      ],
    });
    assert.equal(page.nextCursor, 'c2');
    assert.equal(page.policy?.name, 'Default');
    assert.deepEqual(
      page.rules.map((r) => [r.id, r.mode]),
      [
        ['1', 'MODE_BLOCK'],
        ['2', 'MODE_FUTURE'],
        ['3', 'MODE_UNSPECIFIED'],
      ],
    );
    assert.equal(page.rules[0]?.lastChangeAt?.toISOString(), '2024-05-01T12:00:00.123Z');
    assert.equal(page.skipped, 2);
    assert.equal(page.rawCount, 5);
  });

  void it('treats missing rules and cursor as an empty last page and refuses a bad envelope', () => {
    const page = decodePolicyRulesPage({});
    assert.deepEqual({ ...page }, { policy: undefined, rules: [], skipped: 0, nextCursor: undefined, rawCount: 0 });
    assert.throws(() => decodePolicyRulesPage({ rules: {} }), isInvalid);
    assert.throws(() => decodePolicyRulesPage('x'), isInvalid);
  });
});

void describe('deployments and SBOM', () => {
  void it('keeps deployment ids as text', () => {
    const list = decodeDeploymentsResponse({
      deployments: [{ id: 123, name: 'Acme', slug: 'acme' }, { id: '123456789012345678', slug: 'big' }, { id: 1 }, null],
    });
    assert.deepEqual(list, [
      { id: '123', name: 'Acme', slug: 'acme' },
      { id: '123456789012345678', name: 'big', slug: 'big' },
    ]);
    assert.throws(() => decodeDeploymentsResponse({}), isInvalid);
  });

  void it('reads the task token and the job status', () => {
    assert.equal(decodeSbomExportCreated({ taskToken: 'tok-1' }), 'tok-1');
    assert.throws(() => decodeSbomExportCreated({ taskToken: '' }), isInvalid);
    assert.throws(() => decodeSbomExportCreated(null), isInvalid);
    assert.deepEqual(plain(decodeSbomExportStatus({ status: 'SBOM_EXPORT_STATUS_COMPLETED', downloadUrl: 'https://d' })), {
      state: 'SBOM_EXPORT_STATUS_COMPLETED',
      downloadUrl: 'https://d',
    });
    assert.deepEqual(plain(decodeSbomExportStatus({ errorMessage: 'boom' })), { state: 'SBOM_EXPORT_STATUS_UNSPECIFIED', errorMessage: 'boom' });
    assert.throws(() => decodeSbomExportStatus([]), isInvalid);
  });
});
