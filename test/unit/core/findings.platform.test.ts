/**
 * Findings through PlatformClient against the local platform server: every filter of spec 4.2
 * sent and honoured, issue-type-specific filters kept apart, and offset paging edges.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireSastFinding, WireScaFinding } from '../../platform/wire';
import type { Finding, FindingFilters, ListIssueType } from '../../../src/core/model/types';
import { clickToFixPrState } from '../../platform/index';
import { usePlatform } from './helpers/platformFixture';
import { allFindings } from './helpers/allPages';

const fx = usePlatform();

/** Finds the wire finding a decoded one came from, to check filters on fields the model drops. */
function wire(f: Finding): WireSastFinding & WireScaFinding {
  const found = f.issueType === 'sast' ? fx.sastById.get(f.id) : fx.scaById.get(f.id);
  assert.ok(found, `finding ${f.id} not in data`);
  return found;
}

interface FilterCase {
  readonly name: string;
  readonly issueType: ListIssueType;
  readonly filters: () => FindingFilters;
  /** Query keys that must be sent. */
  readonly sends: readonly string[];
  readonly holds: (f: Finding) => boolean;
}

const repoOf = (id: number): string => fx.platform.data.projects.find((p) => p.repository_id === id)?.name ?? '';
const medianSince = (): number => {
  const times = fx.platform.data.sast.map((f) => Date.parse((f.relevant_since ?? '').replace(' ', 'T'))).sort((a, b) => a - b);
  return Math.floor((times[Math.floor(times.length / 2)] ?? 0) / 1000);
};

const filterCases: FilterCase[] = [
  {
    name: 'since',
    issueType: 'sast',
    filters: () => ({ since: medianSince() }),
    sends: ['since'],
    holds: (f) => (f.relevantSince ?? 0) >= medianSince() * 1000,
  },
  {
    name: 'repos',
    issueType: 'sast',
    filters: () => ({ repos: ['acme/web-frontend'] }),
    sends: ['repos'],
    holds: (f) => f.repositoryName === 'acme/web-frontend',
  },
  {
    name: 'repositoryIds',
    issueType: 'sca',
    filters: () => ({ repositoryIds: [370002, 370004] }),
    sends: ['repository_ids'],
    holds: (f) => [repoOf(370002), repoOf(370004)].includes(f.repositoryName ?? ''),
  },
  { name: 'status', issueType: 'sast', filters: () => ({ status: 'ignored' }), sends: ['status'], holds: (f) => f.status === 'ignored' },
  {
    name: 'triageReasons',
    issueType: 'sast',
    filters: () => ({ status: 'ignored', triageReasons: ['acceptable_risk', 'no_time'] }),
    sends: ['triage_reasons'],
    holds: (f) => ['acceptable_risk', 'no_time'].includes(f.triageReason ?? ''),
  },
  {
    name: 'severities',
    issueType: 'sca',
    filters: () => ({ severities: ['high', 'critical'] }),
    sends: ['severities'],
    holds: (f) => ['high', 'critical'].includes(f.severity),
  },
  { name: 'ref', issueType: 'sast', filters: () => ({ ref: 'feature/checkout-v2' }), sends: ['ref'], holds: (f) => f.ref === 'feature/checkout-v2' },
  {
    name: 'policies',
    issueType: 'sast',
    filters: () => ({ policies: ['rule-board-block'] }),
    sends: ['policies'],
    holds: (f) => {
      const rules = fx.platform.data.rulesByPolicyId.get(String(f.policy?.id)) ?? [];
      return rules.some((r) => r.path === f.ruleName && r.policyMode === 'MODE_BLOCK');
    },
  },
  {
    name: 'rules',
    issueType: 'sast',
    filters: () => ({ rules: [fx.platform.data.sast[0]?.rule_name ?? ''] }),
    sends: ['rules'],
    holds: (f) => f.ruleName === fx.platform.data.sast[0]?.rule_name,
  },
  {
    name: 'categories',
    issueType: 'sast',
    filters: () => ({ categories: ['correctness'] }),
    sends: ['categories'],
    holds: (f) => (wire(f).categories ?? []).includes('correctness'),
  },
  { name: 'confidence', issueType: 'sast', filters: () => ({ confidence: 'low' }), sends: ['confidence'], holds: (f) => f.confidence === 'low' },
  {
    name: 'autotriageVerdict',
    issueType: 'sast',
    filters: () => ({ autotriageVerdict: 'false_positive' }),
    sends: ['autotriage_verdict'],
    holds: (f) => wire(f).assistant?.autotriage?.verdict === 'false_positive',
  },
  {
    name: 'componentTags',
    issueType: 'sast',
    filters: () => ({ componentTags: ['payments', 'admin'] }),
    sends: ['component_tags'],
    holds: (f) => ['payments', 'admin'].includes(wire(f).assistant?.component?.tag ?? ''),
  },
  {
    name: 'clickToFixPrState',
    issueType: 'sast',
    filters: () => ({ clickToFixPrState: ['merged'] }),
    sends: ['click_to_fix_pr_state'],
    holds: (f) => clickToFixPrState(wire(f)) === 'merged',
  },
  {
    name: 'exposures',
    issueType: 'sca',
    filters: () => ({ exposures: ['reachable', 'always_reachable'] }),
    sends: ['exposures'],
    holds: (f) => ['reachable', 'always_reachable'].includes(f.sca?.reachability ?? ''),
  },
  {
    name: 'transitivities',
    issueType: 'sca',
    filters: () => ({ transitivities: ['transitive'] }),
    sends: ['transitivities'],
    holds: (f) => f.sca?.transitivity === 'transitive',
  },
  { name: 'isMalicious', issueType: 'sca', filters: () => ({ isMalicious: true }), sends: ['is_malicious'], holds: (f) => f.sca?.isMalicious === true },
];

void describe('findings filters', () => {
  for (const c of filterCases) {
    void it(`${c.name} is sent and honoured`, async () => {
      const all = await allFindings(() => fx.client.findings(fx.slug(), c.issueType, {}, { pageSize: 100 }));
      fx.platform.requests.length = 0;
      const result = await allFindings(() => fx.client.findings(fx.slug(), c.issueType, c.filters(), { pageSize: 100 }));
      const sentKeys = new Set(fx.platform.requests.flatMap((r) => [...new URLSearchParams(r.rawUrl.split('?')[1]).keys()]));
      for (const key of c.sends) assert.ok(sentKeys.has(key), `${key} not sent`);
      assert.ok(result.findings.length > 0, 'the filter matched nothing: pick a value present in the data');
      assert.ok(result.findings.length < all.findings.length, 'the filter changed nothing');
      const failing = result.findings.filter((f) => !c.holds(f)).map((f) => f.id);
      assert.deepEqual(failing, []);
      // Exactly the findings of the unfiltered list that satisfy it, in the same order.
      if (c.name !== 'triageReasons') {
        assert.deepEqual(
          result.findings.map((f) => f.id),
          all.findings.filter(c.holds).map((f) => f.id),
        );
      }
    });
  }

  void it('dedup is sent and removes duplicates across refs', async () => {
    const all = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 100 }));
    const deduped = await allFindings(() => fx.client.findings(fx.slug(), 'sast', { dedup: true }, { pageSize: 100 }));
    assert.ok(deduped.findings.length < all.findings.length);
    const keys = deduped.findings.map((f) => `${wire(f).syntactic_id ?? ''}\n${f.repositoryName ?? ''}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  void it('sast-only filters are not sent for sca, and sca-only ones not for sast', async () => {
    const sca = await allFindings(() =>
      fx.client.findings(fx.slug(), 'sca', { rules: ['nope'], confidence: 'low', policies: ['rule-board-block'] }, { pageSize: 100 }),
    );
    assert.equal(sca.findings.length, fx.platform.data.sca.length);
    const sast = await allFindings(() => fx.client.findings(fx.slug(), 'sast', { exposures: ['unreachable'], isMalicious: true }, { pageSize: 100 }));
    assert.equal(sast.findings.length, fx.platform.data.sast.length);
    const urls = fx.platform.requests.map((r) => r.rawUrl).join('\n');
    assert.doesNotMatch(urls, /rules=|confidence=|policies=|exposures=|is_malicious=/);
  });

  void it('decodes every finding of the data, with locations and supply-chain facts', async () => {
    const sast = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 3000 }));
    const sca = await allFindings(() => fx.client.findings(fx.slug(), 'sca', {}, { pageSize: 100, concurrency: 4 }));
    assert.equal(sast.findings.length + sast.skipped, fx.platform.data.sast.length);
    assert.equal(sca.findings.length + sca.skipped, fx.platform.data.sca.length);
    assert.equal(new Set(sca.findings.map((f) => f.id)).size, sca.findings.length);
    assert.ok(sca.findings.every((f) => f.sca?.package && f.sca.lockfileLine));
    assert.ok(sast.findings.filter((f) => f.location).length > sast.findings.length * 0.9);
  });
});

void describe('paging over the platform', () => {
  void it('reads an exact multiple of the page size and stops on the empty page', async () => {
    const saved = fx.platform.data.sast;
    fx.platform.data.sast = saved.slice(0, 300);
    try {
      const result = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 100, concurrency: 1 }));
      assert.equal(result.findings.length + result.skipped, 300);
      // Only this list's requests: an aborted page of an earlier test may still reach the server.
      const own = fx.platform.requests.map((r) => new URLSearchParams(r.rawUrl.split('?')[1])).filter((q) => q.get('issue_type') === 'sast');
      assert.deepEqual(
        own.map((q) => q.get('page')),
        ['0', '1', '2', '3'],
      );
    } finally {
      fx.platform.data.sast = saved;
    }
  });

  void it('reads an empty list as one empty page', async () => {
    const saved = fx.platform.data.sca;
    fx.platform.data.sca = [];
    try {
      const pages = [];
      for await (const page of fx.client.findings(fx.slug(), 'sca', {}, { pageSize: 100 })) pages.push(page);
      assert.deepEqual(
        pages.map(({ findings, skipped, from }) => ({ findings, skipped, page: from?.page })),
        [{ findings: [], skipped: 0, page: 0 }],
      );
    } finally {
      fx.platform.data.sca = saved;
    }
  });

  void it('keeps concurrent pages in order under uneven latency', async () => {
    fx.platform.faults.inject({ kind: 'delay', ms: 60 }, { pathIncludes: 'page=1&' });
    const result = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 100, concurrency: 4 }));
    const expected = await allFindings(() => fx.client.findings(fx.slug(), 'sast', {}, { pageSize: 3000 }));
    assert.deepEqual(
      result.findings.map((f) => f.id),
      expected.findings.map((f) => f.id),
    );
  });
});
