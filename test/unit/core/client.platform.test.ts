/**
 * PlatformClient against the local platform server (test/platform): every endpoint, and every
 * error reason the server's faults can produce. Filters and paging: findings.platform.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PlatformError } from '../../../src/core/model/errors';
import type { RunningPlatform } from '../../platform/index';
import { usePlatform } from './helpers/platformFixture';
import { allFindings, allPolicyRules } from './helpers/allPages';
import { beforeTimer } from '../helpers/before-timer';

const fx = usePlatform();
const isReason =
  (reason: PlatformError['reason']) =>
  (e: unknown): boolean =>
    PlatformError.is(e, reason);

void describe('endpoints', () => {
  void it('listDeployments finds the id and slug from the token', async () => {
    assert.deepEqual(await fx.client.listDeployments(), [{ id: '4242', name: 'Acme Corp', slug: 'acme' }]);
    assert.equal(fx.platform.requests[0]?.headers['user-agent'], 'appsec-findings/9.9.9');
  });

  void it('listPolicies', async () => {
    const policies = await fx.client.listPolicies(fx.deploymentId());
    assert.deepEqual(
      policies.map((p) => [p.id, p.isDefault]),
      [
        ['7', true],
        ['8', false],
        ['9', false],
      ],
    );
  });

  void it('policyRules reads every cursor page', async () => {
    const result = await allPolicyRules(() => fx.client.policyRules(fx.deploymentId(), '8', { limit: 7 }));
    const expected = fx.platform.data.rulesByPolicyId.get('8') ?? [];
    assert.equal(result.policy?.name, 'Strict PR Gate');
    assert.deepEqual(
      result.rules.map((r) => r.path),
      expected.map((r) => r.path),
    );
    assert.deepEqual(
      result.rules.map((r) => r.mode),
      expected.map((r) => r.policyMode),
    );
    assert.equal(fx.platform.requests.length, Math.ceil(expected.length / 7));
  });

  void it('listProjects reads every page, concurrently, in order', async () => {
    const projects = await fx.client.listProjects(fx.slug(), { pageSize: 2, concurrency: 3 });
    assert.deepEqual(
      projects.map((p) => p.name),
      fx.platform.data.projects.map((p) => p.name),
    );
    assert.ok(projects.every((p) => p.managedScanConfig === undefined));
  });

  void it('getProject reads a name with several slashes, a space and a plus', async () => {
    for (const stored of fx.platform.data.projects) {
      const project = await fx.client.getProject(fx.slug(), stored.name);
      assert.equal(project.id, stored.id);
      assert.equal(project.managedScanConfig?.fullScanEnabled, stored.managed_scan_config.full_scan.enabled);
    }
    assert.ok(fx.platform.requests.some((r) => r.path === '/api/v1/deployments/acme/projects/acme/labs/proto%2Bgrpc%20gateway'));
  });

  void it('follows the 307 of a %2F project path with the token', async () => {
    fx.platform.faults.inject(
      { kind: 'redirect', status: 307, location: '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service' },
      { method: 'GET' },
    );
    const project = await fx.client.getProject(fx.slug(), 'acme/payments-api');
    assert.equal(project.name, 'acme/platform/sub/billing-service');
    assert.equal(fx.platform.requests[1]?.headers.authorization, `Bearer ${fx.platform.token}`);
  });

  void it('addProjectTags merges tags', async () => {
    const project = await fx.client.addProjectTags(fx.slug(), 'acme/auth-service', ['team:identity', 'customer-facing']);
    assert.deepEqual([...project.tags].sort(), ['customer-facing', 'team:identity']);
    assert.ok(project.managedScanConfig);
  });

  void it('createSbomExport and getSbomExportStatus run a job to completion', async () => {
    const project = fx.platform.data.projects[0];
    assert.ok(project);
    const token = await fx.client.createSbomExport(fx.deploymentId(), {
      repositoryId: project.repository_id,
      ref: project.primary_branch,
      outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      cycloneDxVersion: '1.6',
      componentType: 'LIBRARY',
      supplier: { name: 'Acme', contact: { email: 'sec@acme.example' } },
    });
    assert.equal((await fx.client.getSbomExportStatus(fx.deploymentId(), token)).state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    const done = await fx.client.getSbomExportStatus(fx.deploymentId(), token);
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.match(done.downloadUrl ?? '', /^http/);
  });
});

void describe('errors from the platform', () => {
  void it('a wrong token is unauthorized, and the token never shows', async () => {
    const bad = fx.makeClient({ getToken: () => Promise.resolve('wrong-token-value') });
    await assert.rejects(bad.listDeployments(), (e) => isReason('unauthorized')(e) && !(e as Error).message.includes('wrong-token-value'));
    await bad.close();
  });

  void it('an unknown deployment is notFound with the Web API hint', async () => {
    await assert.rejects(fx.client.listProjects('nobody'), (e) => isReason('notFound')(e) && /Web API access/.test((e as Error).message));
  });

  const injected: [string, Parameters<RunningPlatform['faults']['inject']>[0], PlatformError['reason']][] = [
    ['400', { kind: 'status', status: 400, body: '{"error":"bad page_size"}' }, 'badRequest'],
    ['403', { kind: 'status', status: 403 }, 'forbidden'],
    ['500', { kind: 'status', status: 500 }, 'server'],
    ['html200', { kind: 'html200' }, 'invalidResponse'],
    ['wrongContentType', { kind: 'wrongContentType' }, 'invalidResponse'],
    ['cross-origin redirect', { kind: 'redirect', status: 302, location: 'https://elsewhere.example/api/v1/deployments' }, 'redirect'],
  ];
  for (const [name, fault, reason] of injected) {
    void it(`${name} → ${reason}`, async () => {
      fx.platform.faults.inject(fault);
      await assert.rejects(fx.client.listDeployments(), isReason(reason));
      assert.equal(fx.platform.requests.length, 1);
    });
  }

  void it('429 with Retry-After, 502, a reset and truncated JSON are retried for a GET', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '0' } });
    fx.platform.faults.inject({ kind: 'status', status: 502 });
    fx.platform.faults.inject({ kind: 'reset' });
    assert.equal((await fx.client.listDeployments()).length, 1);
    assert.equal(fx.platform.requests.length, 4);
    fx.platform.faults.inject({ kind: 'truncate' });
    assert.equal((await fx.client.listDeployments()).length, 1);
    assert.equal(fx.platform.requests.length, 6);
  });

  void it('a lasting 503 ends as server after the retries', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 503 }, {}, 10);
    await assert.rejects(fx.client.listPolicies(fx.deploymentId()), isReason('server'));
    assert.equal(fx.platform.requests.length, 4);
  });

  void it('a 429 asking for longer than the budget ends as rateLimited with the wait', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    await assert.rejects(fx.client.listDeployments(), (e) => isReason('rateLimited')(e) && (e as PlatformError).retryAfterMs === 3_600_000);
  });

  void it('the SBOM POST is never retried', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 502 }, { method: 'POST' });
    const project = fx.platform.data.projects[0];
    assert.ok(project);
    await assert.rejects(
      fx.client.createSbomExport(fx.deploymentId(), {
        repositoryId: project.repository_id,
        ref: 'main',
        outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
        cycloneDxVersion: '1.5',
        componentType: 'APPLICATION',
      }),
      isReason('server'),
    );
    assert.equal(fx.platform.requests.length, 1);
  });

  void it('the tags PUT is retried on 503', async () => {
    fx.platform.faults.inject({ kind: 'status', status: 503 }, { method: 'PUT' });
    await fx.client.addProjectTags(fx.slug(), 'acme/payments-api', ['pci']);
    assert.equal(fx.platform.requests.length, 2);
  });

  void it('a hang times out (retried as a GET), a huge body is refused', async () => {
    fx.platform.faults.inject({ kind: 'hang' }, {}, 2);
    const impatient = fx.makeClient({ retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 5_000 } });
    await assert.rejects(impatient.listDeployments(), isReason('timeout'));
    assert.equal(fx.platform.requests.length, 2);
    fx.platform.faults.inject({ kind: 'hugeBody', bytes: 8 * 1024 * 1024 });
    const small = fx.makeClient({ maxBodyBytes: 1024 * 1024 });
    await assert.rejects(small.listDeployments(), isReason('invalidResponse'));
    await Promise.all([impatient.close(), small.close()]);
  });

  void it('cancelling a slow findings sync rejects promptly with cancelled', async () => {
    fx.platform.faults.inject({ kind: 'delay', ms: 5_000 });
    // Timeouts beyond the slow answer, so only the abort can end the sync before it comes.
    const patient = fx.makeClient({ timeouts: { headersMs: 10_000, bodyMs: 10_000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    try {
      await beforeTimer(
        () =>
          assert.rejects(
            allFindings(() => patient.findings(fx.slug(), 'sast', {}, { signal: controller.signal })),
            isReason('cancelled'),
          ),
        5_000,
        'cancelled on the abort, not once the slow answer came',
      );
    } finally {
      await patient.close();
    }
  });
});
