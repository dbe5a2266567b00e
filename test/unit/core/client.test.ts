/**
 * PlatformClient against a small scripted server on a real socket: the request each method sends
 * (method, path, query, body) and how its answer is decoded, plus paging over HTTP.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, it } from 'node:test';
import { PlatformClient } from '../../../src/core/api/client';
import { PlatformError } from '../../../src/core/model/errors';
import { StringInterner } from '../../../src/core/model/interner';
import { sendJson, startLocalServer, type LocalServer, type SeenRequest } from './helpers/localServer';
import { allFindings, allPolicyRules } from './helpers/allPages';

const TOKEN = 'sgp_client_test_token';
const open: { close(): Promise<void> }[] = [];
void afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

type Route = (req: SeenRequest, url: URL, res: ServerResponse) => void;

async function serve(route: Route): Promise<{ server: LocalServer; client: PlatformClient }> {
  const server = await startLocalServer((req, res) => route(req, new URL(req.url, 'http://x'), res));
  const client = new PlatformClient({
    baseUrl: server.url,
    extensionVersion: '0.0.1',
    getToken: () => Promise.resolve(TOKEN),
    retryPolicy: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, totalBudgetMs: 2_000 },
  });
  open.push(server, client);
  return { server, client };
}

const finding = (id: number) => ({
  id,
  rule_name: `rule.${id % 3}`,
  rule_message: 'msg',
  severity: 'high',
  status: 'open',
  location: { file_path: 'a.py', line: id },
});

void describe('single-shot endpoints', () => {
  void it('listDeployments', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, { deployments: [{ id: 123, name: 'Acme', slug: 'acme' }] }));
    assert.deepEqual(await client.listDeployments(), [{ id: '123', name: 'Acme', slug: 'acme' }]);
    assert.equal(server.requests[0]?.url, '/api/v1/deployments');
  });

  void it('listPolicies', async () => {
    const { server, client } = await serve((_req, _url, res) =>
      sendJson(res, 200, { policies: [{ id: '7', name: 'Default', slug: 'default', isDefault: true }] }),
    );
    const policies = await client.listPolicies('123');
    assert.equal(policies[0]?.id, '7');
    assert.equal(server.requests[0]?.url, '/api/v1/deployments/123/policies');
  });

  void it('getProject keeps the slashes of the project name and encodes its segments', async () => {
    const { server, client } = await serve((_req, _url, res) =>
      sendJson(res, 200, { project: { id: 9, name: 'group/sub group/repo', tags: [], managed_scan_config: { diff_scan: { enabled: true } } } }),
    );
    const project = await client.getProject('acme', 'group/sub group/repo');
    assert.equal(project.managedScanConfig?.diffScanEnabled, true);
    assert.equal(server.requests[0]?.url, '/api/v1/deployments/acme/projects/group/sub%20group/repo');
  });

  void it('addProjectTags PUTs {"tags":[…]} and returns the project', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, { project: { id: 9, name: 'a/b', tags: ['x', 'y'] } }));
    const project = await client.addProjectTags('acme', 'a/b', ['x', 'y']);
    assert.deepEqual(project.tags, ['x', 'y']);
    const [req] = server.requests;
    assert.equal(req?.method, 'PUT');
    assert.equal(req?.url, '/api/v1/deployments/acme/projects/a/b/tags');
    assert.deepEqual(JSON.parse(req?.body ?? ''), { tags: ['x', 'y'] });
  });

  void it('addProjectTags refuses no tags or blank tags without a request', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, {}));
    await assert.rejects(client.addProjectTags('acme', 'a/b', []), (e) => PlatformError.is(e, 'badRequest'));
    await assert.rejects(client.addProjectTags('acme', 'a/b', ['ok', ' ']), (e) => PlatformError.is(e, 'badRequest'));
    assert.equal(server.requests.length, 0);
  });

  void it('createSbomExport POSTs the spec body and returns the task token', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, { taskToken: 'task-1' }));
    const token = await client.createSbomExport('123', {
      repositoryId: 55,
      ref: 'main',
      outputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
      cycloneDxVersion: '1.5',
      componentType: 'APPLICATION',
    });
    assert.equal(token, 'task-1');
    const [req] = server.requests;
    assert.equal(req?.method, 'POST');
    assert.equal(req?.url, '/api/v1/deployments/123/sbom/export');
    assert.deepEqual(JSON.parse(req?.body ?? ''), {
      deploymentId: '123',
      formatVersion: { format: 'SBOM_FORMAT_CYCLONEDX', version: '1.5' },
      metadataComponentType: 'SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_APPLICATION',
      ref: 'main',
      repositoryId: '55',
      sbomOutputFormat: 'SBOM_OUTPUT_FORMAT_JSON',
    });
  });

  void it('getSbomExportStatus encodes the task token', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, { status: 'SBOM_EXPORT_STATUS_IN_PROGRESS' }));
    const status = await client.getSbomExportStatus('123', 'a/b c');
    assert.equal(status.state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    assert.equal(server.requests[0]?.url, '/api/v1/deployments/123/sbom/export/a%2Fb%20c');
  });
});

void describe('findings over HTTP', () => {
  /** 250 findings (three malformed), answered out of order to exercise concurrent paging. */
  function findingsRoute(total: number): Route {
    return (_req, url, res) => {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('page_size'));
      const items: unknown[] = [];
      for (let i = page * size; i < Math.min(total, (page + 1) * size); i++) {
        items.push(i % 97 === 5 ? { id: 'bad' } : finding(i + 1));
      }
      setTimeout(() => sendJson(res, 200, { sastFindings: { findings: items } }), Math.max(0, 20 - page * 4));
    };
  }

  void it('collects every page in order, exactly, counting skipped ones', async () => {
    const { server, client } = await serve(findingsRoute(1050));
    const result = await allFindings(() => client.findings('acme', 'sast', { severities: ['high'] }, { pageSize: 100, concurrency: 4 }));
    const expected = Array.from({ length: 1050 }, (_, i) => i)
      .filter((i) => i % 97 !== 5)
      .map((i) => i + 1);
    assert.deepEqual(
      result.findings.map((f) => f.id),
      expected,
    );
    assert.equal(result.skipped, 1050 - expected.length);
    const pages = server.requests.map((r) => Number(new URL(r.url, 'http://x').searchParams.get('page')));
    // Page 11 is the empty one that ends the list; never more than 3 pages beyond it.
    assert.ok(pages.includes(11) && Math.max(...pages) <= 11 + 3, String(pages));
    assert.ok(server.requests.every((r) => r.url.includes('severities=high') && r.url.includes('issue_type=sast')));
  });

  void it('reads an exact multiple of the page size up to the empty page', async () => {
    const { server, client } = await serve(findingsRoute(300));
    const pages = [];
    for await (const page of client.findings('acme', 'sast', {}, { pageSize: 100, concurrency: 1, interner: new StringInterner() })) {
      pages.push(page.findings.length + page.skipped);
    }
    assert.deepEqual(pages, [100, 100, 100]);
    assert.equal(server.requests.length, 4);
  });

  void it('validates page_size before any request', async () => {
    const { server, client } = await serve(findingsRoute(1));
    await assert.rejects(
      allFindings(() => client.findings('acme', 'sca', {}, { pageSize: 99 })),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.throws(
      () => client.findings('acme', 'sca', {}, { pageSize: 3001 }),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.throws(
      () => client.findings('acme', 'sca', { since: Number.NaN }),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.equal(server.requests.length, 0);
  });

  void it('turns a malformed envelope into invalidResponse', async () => {
    const { client } = await serve((_req, _url, res) => sendJson(res, 200, { sastFindings: { findings: 'nope' } }));
    await assert.rejects(
      allFindings(() => client.findings('acme', 'sast', {})),
      (e) => PlatformError.is(e, 'invalidResponse'),
    );
  });

  void it('stops quietly when the consumer breaks, and cancels with the signal', async () => {
    const { client } = await serve(findingsRoute(100_000));
    for await (const page of client.findings('acme', 'sast', {}, { pageSize: 100 })) {
      assert.equal(page.findings.length > 0, true);
      break;
    }
    const controller = new AbortController();
    const pending = allFindings(() => client.findings('acme', 'sast', {}, { pageSize: 100, signal: controller.signal }));
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(pending, (e) => PlatformError.is(e, 'cancelled'));
  });
});

void describe('projects over HTTP', () => {
  void it('pages projects with page and page_size until a short page', async () => {
    const { server, client } = await serve((_req, url, res) => {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('page_size'));
      const ids = Array.from({ length: Math.max(0, Math.min(size, 25 - page * size)) }, (_, i) => page * size + i + 1);
      sendJson(res, 200, { projects: ids.map((id) => ({ id, name: `org/p${id}`, tags: [] })) });
    });
    const projects = await client.listProjects('acme', { pageSize: 10 });
    assert.deepEqual(
      projects.map((p) => p.id),
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    assert.ok(server.requests.every((r) => r.url.startsWith('/api/v1/deployments/acme/projects?page=')));
    assert.throws(
      () => client.projects('acme', { pageSize: 0 }),
      (e) => PlatformError.is(e, 'badRequest'),
    );
  });

  void it('refuses a page without projects', async () => {
    const { client } = await serve((_req, _url, res) => sendJson(res, 200, { items: [] }));
    await assert.rejects(client.listProjects('acme'), (e) => PlatformError.is(e, 'invalidResponse'));
  });
});

void describe('policy rules over HTTP', () => {
  const rule = (id: number) => ({ id: String(id), path: `r.${id}`, policyMode: 'MODE_MONITOR' });

  void it('follows cursors and sends limit', async () => {
    const { server, client } = await serve((_req, url, res) => {
      const cursor = url.searchParams.get('cursor') ?? '';
      const pages: Record<string, unknown> = {
        '': { cursor: 'p2', policy: { id: '7', name: 'Default', slug: 'default' }, rules: [rule(1), rule(2)] },
        p2: { cursor: 'p3', policy: { id: '7', name: 'Default', slug: 'default' }, rules: [rule(3), { id: '4' }] },
        p3: { policy: { id: '7', name: 'Default', slug: 'default' }, rules: [rule(5)] },
      };
      sendJson(res, 200, pages[cursor]);
    });
    const result = await allPolicyRules(() => client.policyRules('123', '7', { limit: 2 }));
    assert.equal(result.policy?.name, 'Default');
    assert.deepEqual(
      result.rules.map((r) => r.id),
      ['1', '2', '3', '5'],
    );
    assert.equal(result.skipped, 1);
    assert.deepEqual(
      server.requests.map((r) => r.url),
      [
        '/api/v1/deployments/123/policies/7?limit=2',
        '/api/v1/deployments/123/policies/7?cursor=p2&limit=2',
        '/api/v1/deployments/123/policies/7?cursor=p3&limit=2',
      ],
    );
  });

  void it('ends with invalidResponse on a repeated cursor', async () => {
    const { client } = await serve((_req, _url, res) => sendJson(res, 200, { cursor: 'same', rules: [rule(1)] }));
    await assert.rejects(
      allPolicyRules(() => client.policyRules('123', '7')),
      (e) => PlatformError.is(e, 'invalidResponse'),
    );
  });

  void it('validates limit before any request', async () => {
    const { server, client } = await serve((_req, _url, res) => sendJson(res, 200, {}));
    assert.throws(
      () => client.policyRules('123', '7', { limit: 0 }),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    await assert.rejects(
      allPolicyRules(() => client.policyRules('123', '7', { limit: 2001 })),
      (e) => PlatformError.is(e, 'badRequest'),
    );
    assert.equal(server.requests.length, 0);
  });
});
