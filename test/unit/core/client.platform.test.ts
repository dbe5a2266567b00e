/**
 * PlatformClient against the local platform server (test/platform): every endpoint, every
 * findings filter sent and honoured, and every error reason the server's faults can produce.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { PlatformClient, type PlatformClientOptions } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/api/errors';
import type { WireSastFinding, WireScaFinding } from '../../../src/core/api/wire';
import type { Finding, FindingFilters, IssueType } from '../../../src/core/model/types';
import { clickToFixPrState, generateDeployment, startPlatformServer, type RunningPlatform } from '../../platform/index';

let platform: RunningPlatform;
let client: PlatformClient;
const sastById = new Map<number, WireSastFinding>();
const scaById = new Map<number, WireScaFinding>();

function makeClient(extra: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    baseUrl: platform.url,
    extensionVersion: '9.9.9',
    getToken: () => Promise.resolve(platform.token),
    retryPolicy: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, totalBudgetMs: 3_000 },
    timeouts: { headersMs: 300, bodyMs: 300 },
    ...extra,
  });
}

void before(async () => {
  const data = generateDeployment({ seed: 7, projects: 5, sastPerProject: 80, scaPerProject: 40, refsPerProject: 2, policies: 2, rulesPerPolicy: 25 });
  platform = await startPlatformServer({ data, sbomPollsUntilDone: 1 });
  client = makeClient();
  for (const f of data.sast) sastById.set(f.id ?? -1, f);
  for (const f of data.sca) scaById.set(f.id ?? -1, f);
});

void after(async () => {
  await client.close();
  await platform.close();
});

void afterEach(() => {
  platform.faults.clear();
  platform.requests.length = 0;
});

const slug = (): string => platform.data.deployment.slug;
const deploymentId = (): string => String(platform.data.deployment.id);
const isReason = (reason: PlatformError['reason']) => (e: unknown): boolean => PlatformError.is(e, reason);

void describe('endpoints', () => {
  void it('listDeployments finds the id and slug from the token', async () => {
    assert.deepEqual(await client.listDeployments(), [{ id: '4242', name: 'Acme Corp', slug: 'acme' }]);
    assert.equal(platform.requests[0]?.headers['user-agent'], 'appsec-findings/9.9.9');
  });

  void it('listPolicies', async () => {
    const policies = await client.listPolicies(deploymentId());
    assert.deepEqual(policies.map((p) => [p.id, p.isDefault]), [['7', true], ['8', false]]);
  });

  void it('listPolicyRules reads every cursor page', async () => {
    const result = await client.listPolicyRules(deploymentId(), '8', { limit: 7 });
    const expected = platform.data.rulesByPolicyId.get('8') ?? [];
    assert.equal(result.policy?.name, 'Strict PR Gate');
    assert.deepEqual(result.rules.map((r) => r.path), expected.map((r) => r.path));
    assert.deepEqual(result.rules.map((r) => r.mode), expected.map((r) => r.policyMode));
    assert.equal(platform.requests.length, Math.ceil(expected.length / 7));
  });

  void it('listProjects reads every page, concurrently, in order', async () => {
    const projects = await client.listProjects(slug(), { pageSize: 2, concurrency: 3 });
    assert.deepEqual(projects.map((p) => p.name), platform.data.projects.map((p) => p.name));
    assert.ok(projects.every((p) => p.managedScanConfig === undefined));
  });

  void it('getProject reads a name with several slashes, a space and a plus', async () => {
    for (const stored of platform.data.projects) {
      const project = await client.getProject(slug(), stored.name);
      assert.equal(project.id, stored.id);
      assert.equal(project.managedScanConfig?.fullScanEnabled, stored.managed_scan_config.full_scan.enabled);
    }
    assert.ok(platform.requests.some((r) => r.path === '/api/v1/deployments/acme/projects/acme/labs/proto%2Bgrpc%20gateway'));
  });

  void it('follows the 307 of a %2F project path with the token', async () => {
    platform.faults.inject({ kind: 'redirect', status: 307, location: '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service' }, { method: 'GET' });
    const project = await client.getProject(slug(), 'acme/payments-api');
    assert.equal(project.name, 'acme/platform/sub/billing-service');
    assert.equal(platform.requests[1]?.headers.authorization, `Bearer ${platform.token}`);
  });

  void it('addProjectTags merges tags', async () => {
    const project = await client.addProjectTags(slug(), 'acme/auth-service', ['team:identity', 'customer-facing']);
    assert.deepEqual([...project.tags].sort(), ['customer-facing', 'team:identity']);
    assert.ok(project.managedScanConfig);
  });

  void it('createSbomExport and getSbomExportStatus run a job to completion', async () => {
    const project = platform.data.projects[0];
    assert.ok(project);
    const token = await client.createSbomExport(deploymentId(), {
      repositoryId: project.repository_id, ref: project.primary_branch, outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX', cycloneDxVersion: '1.6',
      componentType: 'LIBRARY', supplier: { name: 'Acme', contact: { email: 'sec@acme.example' } },
    });
    assert.equal((await client.getSbomExportStatus(deploymentId(), token)).state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    const done = await client.getSbomExportStatus(deploymentId(), token);
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.match(done.downloadUrl ?? '', /^http/);
  });
});

/** Finds the wire finding a decoded one came from, to check filters on fields the model drops. */
function wire(f: Finding): WireSastFinding & WireScaFinding {
  const found = f.issueType === 'sast' ? sastById.get(f.id) : scaById.get(f.id);
  assert.ok(found, `finding ${f.id} not in data`);
  return found;
}

interface FilterCase {
  readonly name: string;
  readonly issueType: IssueType;
  readonly filters: () => FindingFilters;
  /** Query keys that must be sent. */
  readonly sends: readonly string[];
  readonly holds: (f: Finding) => boolean;
}

const repoOf = (id: number): string => platform.data.projects.find((p) => p.repository_id === id)?.name ?? '';
const medianSince = (): number => {
  const times = platform.data.sast.map((f) => Date.parse((f.relevant_since ?? '').replace(' ', 'T'))).sort((a, b) => a - b);
  return Math.floor((times[Math.floor(times.length / 2)] ?? 0) / 1000);
};

const filterCases: FilterCase[] = [
  { name: 'since', issueType: 'sast', filters: () => ({ since: medianSince() }), sends: ['since'], holds: (f) => (f.relevantSince?.getTime() ?? 0) >= medianSince() * 1000 },
  { name: 'repos', issueType: 'sast', filters: () => ({ repos: ['acme/web-frontend'] }), sends: ['repos'], holds: (f) => f.repositoryName === 'acme/web-frontend' },
  { name: 'repositoryIds', issueType: 'sca', filters: () => ({ repositoryIds: [370002, 370004] }), sends: ['repository_ids'], holds: (f) => [repoOf(370002), repoOf(370004)].includes(f.repositoryName ?? '') },
  { name: 'status', issueType: 'sast', filters: () => ({ status: 'ignored' }), sends: ['status'], holds: (f) => f.status === 'ignored' },
  { name: 'triageReasons', issueType: 'sast', filters: () => ({ status: 'ignored', triageReasons: ['acceptable_risk', 'no_time'] }), sends: ['triage_reasons'], holds: (f) => ['acceptable_risk', 'no_time'].includes(f.triageReason ?? '') },
  { name: 'severities', issueType: 'sca', filters: () => ({ severities: ['high', 'critical'] }), sends: ['severities'], holds: (f) => ['high', 'critical'].includes(f.severity) },
  { name: 'ref', issueType: 'sast', filters: () => ({ ref: 'feature/checkout-v2' }), sends: ['ref'], holds: (f) => f.ref === 'feature/checkout-v2' },
  { name: 'policies', issueType: 'sast', filters: () => ({ policies: ['rule-board-block'] }), sends: ['policies'], holds: (f) => {
    const rules = platform.data.rulesByPolicyId.get(String(f.policy?.id)) ?? [];
    return rules.some((r) => r.path === f.ruleName && r.policyMode === 'MODE_BLOCK');
  } },
  { name: 'rules', issueType: 'sast', filters: () => ({ rules: [platform.data.sast[0]?.rule_name ?? ''] }), sends: ['rules'], holds: (f) => f.ruleName === platform.data.sast[0]?.rule_name },
  { name: 'categories', issueType: 'sast', filters: () => ({ categories: ['correctness'] }), sends: ['categories'], holds: (f) => (wire(f).categories ?? []).includes('correctness') },
  { name: 'confidence', issueType: 'sast', filters: () => ({ confidence: 'low' }), sends: ['confidence'], holds: (f) => f.confidence === 'low' },
  { name: 'autotriageVerdict', issueType: 'sast', filters: () => ({ autotriageVerdict: 'false_positive' }), sends: ['autotriage_verdict'], holds: (f) => wire(f).assistant?.autotriage?.verdict === 'false_positive' },
  { name: 'componentTags', issueType: 'sast', filters: () => ({ componentTags: ['payments', 'admin'] }), sends: ['component_tags'], holds: (f) => ['payments', 'admin'].includes(wire(f).assistant?.component?.tag ?? '') },
  { name: 'clickToFixPrState', issueType: 'sast', filters: () => ({ clickToFixPrState: ['merged'] }), sends: ['click_to_fix_pr_state'], holds: (f) => clickToFixPrState(wire(f)) === 'merged' },
  { name: 'exposures', issueType: 'sca', filters: () => ({ exposures: ['reachable', 'always_reachable'] }), sends: ['exposures'], holds: (f) => ['reachable', 'always_reachable'].includes(f.sca?.reachability ?? '') },
  { name: 'transitivities', issueType: 'sca', filters: () => ({ transitivities: ['transitive'] }), sends: ['transitivities'], holds: (f) => f.sca?.transitivity === 'transitive' },
  { name: 'isMalicious', issueType: 'sca', filters: () => ({ isMalicious: true }), sends: ['is_malicious'], holds: (f) => f.sca?.isMalicious === true },
];

void describe('findings filters', () => {
  for (const c of filterCases) {
    void it(`${c.name} is sent and honoured`, async () => {
      const all = await client.listFindings(slug(), c.issueType, {}, { pageSize: 100 });
      platform.requests.length = 0;
      const result = await client.listFindings(slug(), c.issueType, c.filters(), { pageSize: 100 });
      const sentKeys = new Set(platform.requests.flatMap((r) => [...new URLSearchParams(r.rawUrl.split('?')[1]).keys()]));
      for (const key of c.sends) assert.ok(sentKeys.has(key), `${key} not sent`);
      assert.ok(result.findings.length > 0, 'the filter matched nothing: pick a value present in the data');
      assert.ok(result.findings.length < all.findings.length, 'the filter changed nothing');
      const failing = result.findings.filter((f) => !c.holds(f)).map((f) => f.id);
      assert.deepEqual(failing, []);
      // Exactly the findings of the unfiltered list that satisfy it, in the same order.
      if (c.name !== 'triageReasons') {
        assert.deepEqual(result.findings.map((f) => f.id), all.findings.filter(c.holds).map((f) => f.id));
      }
    });
  }

  void it('dedup is sent and removes duplicates across refs', async () => {
    const all = await client.listFindings(slug(), 'sast', {}, { pageSize: 100 });
    const deduped = await client.listFindings(slug(), 'sast', { dedup: true }, { pageSize: 100 });
    assert.ok(deduped.findings.length < all.findings.length);
    const keys = deduped.findings.map((f) => `${wire(f).syntactic_id ?? ''}\n${f.repositoryName ?? ''}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  void it('sast-only filters are not sent for sca, and sca-only ones not for sast', async () => {
    const sca = await client.listFindings(slug(), 'sca', { rules: ['nope'], confidence: 'low', policies: ['rule-board-block'] }, { pageSize: 100 });
    assert.equal(sca.findings.length, platform.data.sca.length);
    const sast = await client.listFindings(slug(), 'sast', { exposures: ['unreachable'], isMalicious: true }, { pageSize: 100 });
    assert.equal(sast.findings.length, platform.data.sast.length);
    const urls = platform.requests.map((r) => r.rawUrl).join('\n');
    assert.doesNotMatch(urls, /rules=|confidence=|policies=|exposures=|is_malicious=/);
  });

  void it('decodes every finding of the data, with locations and supply-chain facts', async () => {
    const sast = await client.listFindings(slug(), 'sast', {}, { pageSize: 3000 });
    const sca = await client.listFindings(slug(), 'sca', {}, { pageSize: 100, concurrency: 4 });
    assert.equal(sast.findings.length + sast.skipped, platform.data.sast.length);
    assert.equal(sca.findings.length + sca.skipped, platform.data.sca.length);
    assert.equal(new Set(sca.findings.map((f) => f.id)).size, sca.findings.length);
    assert.ok(sca.findings.every((f) => f.sca?.package && f.sca.lockfileLine));
    assert.ok(sast.findings.filter((f) => f.location).length > sast.findings.length * 0.9);
  });
});

void describe('paging over the platform', () => {
  void it('reads an exact multiple of the page size and stops on the empty page', async () => {
    const saved = platform.data.sast;
    platform.data.sast = saved.slice(0, 300);
    try {
      const result = await client.listFindings(slug(), 'sast', {}, { pageSize: 100, concurrency: 1 });
      assert.equal(result.findings.length + result.skipped, 300);
      assert.deepEqual(platform.requests.map((r) => new URLSearchParams(r.rawUrl.split('?')[1]).get('page')), ['0', '1', '2', '3']);
    } finally {
      platform.data.sast = saved;
    }
  });

  void it('reads an empty list as one empty page', async () => {
    const saved = platform.data.sca;
    platform.data.sca = [];
    try {
      const pages = [];
      for await (const page of client.findings(slug(), 'sca', {}, { pageSize: 100 })) pages.push(page);
      assert.deepEqual(pages, [{ findings: [], skipped: 0 }]);
    } finally {
      platform.data.sca = saved;
    }
  });

  void it('keeps concurrent pages in order under uneven latency', async () => {
    platform.faults.inject({ kind: 'delay', ms: 60 }, { pathIncludes: 'page=1&' });
    const result = await client.listFindings(slug(), 'sast', {}, { pageSize: 100, concurrency: 4 });
    const expected = await client.listFindings(slug(), 'sast', {}, { pageSize: 3000 });
    assert.deepEqual(result.findings.map((f) => f.id), expected.findings.map((f) => f.id));
  });
});

void describe('errors from the platform', () => {
  void it('a wrong token is unauthorized, and the token never shows', async () => {
    const bad = makeClient({ getToken: () => Promise.resolve('wrong-token-value') });
    await assert.rejects(bad.listDeployments(), (e) => isReason('unauthorized')(e) && !(e as Error).message.includes('wrong-token-value'));
    await bad.close();
  });

  void it('an unknown deployment is notFound with the Web API hint', async () => {
    await assert.rejects(client.listProjects('nobody'), (e) => isReason('notFound')(e) && /Web API access/.test((e as Error).message));
  });

  const injected: [string, Parameters<RunningPlatform['faults']['inject']>[0], PlatformError['reason']][] = [
    ['400', { kind: 'status', status: 400, body: '{"error":"bad page_size"}' }, 'badRequest'],
    ['403', { kind: 'status', status: 403 }, 'forbidden'],
    ['500', { kind: 'status', status: 500 }, 'server'],
    ['html200', { kind: 'html200' }, 'invalidResponse'],
    ['wrongContentType', { kind: 'wrongContentType' }, 'invalidResponse'],
    ['truncate', { kind: 'truncate' }, 'invalidResponse'],
    ['cross-origin redirect', { kind: 'redirect', status: 302, location: 'https://elsewhere.example/api/v1/deployments' }, 'redirect'],
  ];
  for (const [name, fault, reason] of injected) {
    void it(`${name} → ${reason}`, async () => {
      platform.faults.inject(fault);
      await assert.rejects(client.listDeployments(), isReason(reason));
      assert.equal(platform.requests.length, 1);
    });
  }

  void it('429 with Retry-After, 502 and a reset are retried for a GET', async () => {
    platform.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' } });
    platform.faults.inject({ kind: 'status', status: 502 });
    platform.faults.inject({ kind: 'reset' });
    assert.equal((await client.listDeployments()).length, 1);
    assert.equal(platform.requests.length, 4);
  });

  void it('a lasting 503 ends as server after the retries', async () => {
    platform.faults.inject({ kind: 'status', status: 503 }, {}, 10);
    await assert.rejects(client.listPolicies(deploymentId()), isReason('server'));
    assert.equal(platform.requests.length, 4);
  });

  void it('a 429 asking for longer than the budget ends as rateLimited with the wait', async () => {
    platform.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    await assert.rejects(client.listDeployments(), (e) => isReason('rateLimited')(e) && (e as PlatformError).retryAfterMs === 3_600_000);
  });

  void it('the SBOM POST is never retried', async () => {
    platform.faults.inject({ kind: 'status', status: 502 }, { method: 'POST' });
    const project = platform.data.projects[0];
    assert.ok(project);
    await assert.rejects(
      client.createSbomExport(deploymentId(), { repositoryId: project.repository_id, ref: 'main', outputFormat: 'SBOM_OUTPUT_FORMAT_JSON', cycloneDxVersion: '1.5', componentType: 'APPLICATION' }),
      isReason('server'),
    );
    assert.equal(platform.requests.length, 1);
  });

  void it('the tags PUT is retried on 503', async () => {
    platform.faults.inject({ kind: 'status', status: 503 }, { method: 'PUT' });
    await client.addProjectTags(slug(), 'acme/payments-api', ['pci']);
    assert.equal(platform.requests.length, 2);
  });

  void it('a hang times out (retried as a GET), a huge body is refused', async () => {
    platform.faults.inject({ kind: 'hang' }, {}, 2);
    const impatient = makeClient({ retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 } });
    await assert.rejects(impatient.listDeployments(), isReason('timeout'));
    assert.equal(platform.requests.length, 2);
    platform.faults.inject({ kind: 'hugeBody', bytes: 8 * 1024 * 1024 });
    const small = makeClient({ maxBodyBytes: 1024 * 1024 });
    await assert.rejects(small.listDeployments(), isReason('invalidResponse'));
    await Promise.all([impatient.close(), small.close()]);
  });

  void it('cancelling a slow findings sync rejects promptly with cancelled', async () => {
    platform.faults.inject({ kind: 'delay', ms: 5_000 });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(client.listFindings(slug(), 'sast', {}, { signal: controller.signal }), isReason('cancelled'));
    assert.ok(Date.now() - started < 1_000);
  });
});
