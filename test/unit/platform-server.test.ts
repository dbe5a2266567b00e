// The local platform server's own behaviour: what the client, integration tests and the
// benchmark rely on. Global fetch is the client, so nothing here depends on src/core.
// (`void`: node:test returns promises that the runner itself awaits.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WireProject, WireSastFinding, WireScaFinding } from '../platform/wire';
import { clickToFixPrState, demoDeployment, generateDeployment, startPlatformServer, type RunningPlatform } from '../platform';
import { inventoryOf } from '../platform/dependencies';

interface FindingsBody {
  sastFindings?: { findings: WireSastFinding[] };
  scaFindings?: { findings: WireScaFinding[] };
}

let platform: RunningPlatform;

function get(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${platform.url}${path}`, { ...init, headers: { authorization: `Bearer ${platform.token}`, ...init.headers } });
}

async function getJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await get(path, init);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return (await res.json()) as T;
}

async function sast(query: string): Promise<WireSastFinding[]> {
  const body = await getJson<FindingsBody>(`/api/v1/deployments/acme/findings?${query}`);
  assert.ok(body.sastFindings && !body.scaFindings);
  return body.sastFindings.findings;
}

async function sca(query: string): Promise<WireScaFinding[]> {
  const body = await getJson<FindingsBody>(`/api/v1/deployments/acme/findings?issue_type=sca&${query}`);
  assert.ok(body.scaFindings && !body.sastFindings);
  return body.scaFindings.findings;
}

const time = (f: { relevant_since?: string }): number => Date.parse((f.relevant_since ?? '').replace(' ', 'T'));

before(async () => {
  // The filter and paging checks read the stored spelling: the spec's shape, switched on.
  // The service's shape (the default) has its own tests in service-shape.test.ts.
  platform = await startPlatformServer({ data: generateDeployment({ projects: 6, sastPerProject: 200, scaPerProject: 60, refsPerProject: 3 }), shape: 'spec' });
});
after(() => platform.close());

void describe('generated data', () => {
  void test('is deterministic per seed and mixes the wire shapes the real service sends', () => {
    const a = generateDeployment({ seed: 5 });
    assert.deepEqual(generateDeployment({ seed: 5 }).sast, a.sast);
    assert.equal(a.sast.length, 200);
    assert.equal(a.sca.length, 75);
    const names = a.projects.map((p) => p.name);
    assert.ok(names.some((n) => n.split('/').length >= 4));
    assert.ok(names.some((n) => encodeURIComponent(n.split('/').pop() ?? '') !== n.split('/').pop()));
    assert.ok(a.sast.some((f) => f.location?.filePath) && a.sast.some((f) => f.location?.file_path));
    assert.ok(a.sast.some((f) => f.location?.endLine === undefined && f.location?.end_line === undefined));
    assert.ok(a.sast.some((f) => f.relevant_since?.endsWith('Z')) && a.sast.some((f) => f.relevant_since?.endsWith('+00:00')));
    assert.ok(a.sca.some((f) => f.usage?.location?.start_line) && a.sca.some((f) => !f.usage));
    assert.ok(a.sca.every((f) => /#L\d+$/.test(f.found_dependency?.lockfile_line_url ?? '')));
    assert.ok(a.sca.some((f) => f.is_malicious));
    const rules = [...a.rulesByPolicyId.values()].flat();
    assert.ok(rules.some((r) => r.policyMode === 'MODE_DISABLED') && rules.some((r) => r.lastChangeBy));
    const paths = new Set(rules.map((r) => r.path));
    assert.ok(a.sast.filter((f) => paths.has(f.rule_name)).length > a.sast.length / 2);
    assert.ok(a.sast.some((f) => clickToFixPrState(f) === 'open') && a.sast.some((f) => clickToFixPrState(f) === 'merged'));
  });
});

void describe('auth, routing and errors', () => {
  void test('401 without or with a wrong token, and the token is never echoed', async () => {
    const none = await fetch(`${platform.url}/api/v1/deployments`);
    assert.equal(none.status, 401);
    assert.ok(typeof ((await none.json()) as { error?: unknown }).error === 'string');
    const wrong = await fetch(`${platform.url}/api/v1/deployments`, { headers: { authorization: 'Bearer nope-secret' } });
    assert.equal(wrong.status, 401);
    assert.ok(!(await wrong.text()).includes('nope-secret'));
  });

  void test('404 for unknown deployments, routes, policies and projects; 405 for a wrong method', async () => {
    for (const path of [
      '/api/v1/deployments/other/findings',
      '/api/v1/deployments/1/policies',
      '/api/v1/deployments/acme/policies',
      '/api/v1/nothing',
      '/api/v1/deployments/4242/policies/999',
      '/api/v1/deployments/acme/projects/acme/nope',
    ]) {
      assert.equal((await get(path)).status, 404, path);
    }
    assert.equal((await get('/api/v1/deployments/acme/findings', { method: 'POST' })).status, 405);
  });

  void test('400 for out-of-range or malformed paging parameters', async () => {
    for (const q of ['page_size=99', 'page_size=3001', 'page_size=abc', 'page=-1', 'issue_type=dast', 'since=soon', 'dedup=maybe']) {
      assert.equal((await get(`/api/v1/deployments/acme/findings?${q}`)).status, 400, q);
    }
    for (const q of ['limit=0', 'limit=2001', 'limit=1.5', 'cursor=garbage!', `cursor=${Buffer.from('offset:9999').toString('base64url')}`]) {
      assert.equal((await get(`/api/v1/deployments/4242/policies/7?${q}`)).status, 400, q);
    }
    for (const q of ['page_size=0', 'page_size=10001']) assert.equal((await get(`/api/v1/deployments/acme/projects?${q}`)).status, 400, q);
  });

  void test('deployments, policies and cursor paging of policy rules', async () => {
    const { deployments } = await getJson<{ deployments: unknown[] }>('/api/v1/deployments');
    assert.deepEqual(deployments, [{ id: 4242, name: 'Acme Corp', slug: 'acme' }]);
    const { policies } = await getJson<{ policies: { id: string }[] }>('/api/v1/deployments/4242/policies');
    assert.deepEqual(
      policies.map((p) => p.id),
      ['7', '8', '9'],
    );
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await getJson<{ cursor: string; rules: { id: string }[] }>(`/api/v1/deployments/4242/policies/7?limit=7&cursor=${cursor}`);
      seen.push(...page.rules.map((r) => r.id));
      cursor = page.cursor;
    } while (cursor !== '');
    assert.equal(seen.length, 30);
    assert.equal(new Set(seen).size, 30);
  });
});

void describe('findings', () => {
  void test('newest first across pages, short last page', async () => {
    const all: WireSastFinding[] = [];
    for (let page = 0; ; page++) {
      const batch = await sast(`page=${page}&page_size=500`);
      all.push(...batch);
      if (batch.length < 500) break;
    }
    assert.equal(all.length, platform.data.sast.length);
    for (let i = 1; i < all.length; i++) assert.ok(time(all[i - 1]) >= time(all[i]));
  });

  void test('filters: repeated keys, status with triage reasons, ref, repository ids, since, policies', async () => {
    const sev = await sast('severities=high&severities=critical&page_size=3000');
    assert.ok(sev.length > 0 && sev.every((f) => f.severity === 'high' || f.severity === 'critical'));
    const fp = await sast('status=ignored&triage_reasons=false_positive&page_size=3000');
    assert.ok(fp.length > 0 && fp.every((f) => f.status === 'ignored' && f.triage_reason === 'false_positive'));
    const project = platform.data.projects[1];
    const byRepo = await sast(`repository_ids=${project.repository_id}&ref=main&page_size=3000`);
    assert.ok(byRepo.length > 0 && byRepo.every((f) => f.repository?.name === project.name && f.ref === 'main'));
    const since = Math.floor(Date.UTC(2024, 0, 1) / 1000);
    const recent = await sast(`since=${since}&page_size=3000`);
    assert.ok(recent.length > 0 && recent.every((f) => time(f) >= since * 1000));
    const blocked = await sast('policies=rule-board-block&page_size=3000');
    const modes = new Map([...platform.data.rulesByPolicyId].flatMap(([id, rules]) => rules.map((r) => [`${id}/${r.path}`, r.policyMode])));
    assert.ok(blocked.length > 0 && blocked.every((f) => modes.get(`${f.sourcing_policy?.id}/${f.rule_name}`) === 'MODE_BLOCK'));
    const merged = await sast('click_to_fix_pr_state=merged&page_size=3000');
    assert.ok(merged.length > 0 && merged.every((f) => f.status === 'fixed' && (f.click_to_fix_prs?.length ?? 0) > 0));
    const tagged = await sast('component_tags=payments&autotriage_verdict=true_positive&page_size=3000');
    assert.ok(tagged.every((f) => f.assistant?.component?.tag === 'payments' && f.assistant.autotriage?.verdict === 'true_positive'));
  });

  void test("each issue type ignores the other type's filters", async () => {
    const allSca = await sca('page_size=3000');
    assert.equal((await sca('confidence=nonsense&rules=x&page_size=3000')).length, allSca.length);
    assert.equal((await sast('exposures=nonsense&is_malicious=true&page_size=3000')).length, platform.data.sast.length);
    const malicious = await sca('is_malicious=true&page_size=3000');
    assert.ok(malicious.length > 0 && malicious.every((f) => f.is_malicious));
    assert.equal((await sca('is_malicious=false&page_size=3000')).length, allSca.length - malicious.length);
    const direct = await sca('transitivities=direct&exposures=reachable&page_size=3000');
    assert.ok(direct.every((f) => f.found_dependency?.transitivity === 'direct' && f.reachability === 'reachable'));
  });

  void test('dedup keeps the newest finding per syntactic_id and repository', async () => {
    const all = await sast('page_size=3000');
    const deduped = await sast('dedup=true&page_size=3000');
    const key = (f: WireSastFinding): string => `${f.syntactic_id}|${f.repository?.name}`;
    assert.ok(deduped.length < all.length);
    assert.equal(new Set(deduped.map(key)).size, deduped.length);
    assert.equal(deduped.length, new Set(all.map(key)).size);
    const newest = new Map<string, WireSastFinding>();
    for (const f of all) if (!newest.has(key(f))) newest.set(key(f), f);
    for (const f of deduped) assert.equal(f.id, newest.get(key(f))?.id);
  });

  void test('a finding added to the live data shows up first on the next request', async () => {
    const copy: WireSastFinding = { ...platform.data.sast[0], id: 99_999_999, relevant_since: '2030-01-01T00:00:00.000Z' };
    platform.data.sast.push(copy);
    try {
      assert.equal((await sast(''))[0]?.id, 99_999_999);
    } finally {
      platform.data.sast.pop();
    }
    assert.notEqual((await sast(''))[0]?.id, 99_999_999);
  });
});

void describe('projects', () => {
  void test('list without scan config; one project with it; several slashes and encoded segments', async () => {
    const { projects } = await getJson<{ projects: WireProject[] }>('/api/v1/deployments/acme/projects?page_size=4');
    assert.equal(projects.length, 4);
    assert.ok(projects.every((p) => p.managed_scan_config === undefined));
    for (const p of platform.data.projects) {
      const path = p.name.split('/').map(encodeURIComponent).join('/');
      const { project } = await getJson<{ project: WireProject }>(`/api/v1/deployments/acme/projects/${path}`);
      assert.equal(project.name, p.name);
      assert.equal(typeof project.managed_scan_config?.diff_scan?.enabled, 'boolean');
    }
  });

  void test('an encoded slash is redirected (307) to the literal-slash path', async () => {
    const res = await get('/api/v1/deployments/acme/projects/acme%2Fplatform%2fsub/billing-service?x=1', { redirect: 'manual' });
    assert.equal(res.status, 307);
    assert.equal(res.headers.get('location'), '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service?x=1');
  });

  void test('PUT tags merges, in all three body forms, and rejects bad bodies', async () => {
    const path = '/api/v1/deployments/acme/projects/acme/platform/sub/billing-service/tags';
    const put = (body: string): Promise<Response> => get(path, { method: 'PUT', body, headers: { 'content-type': 'application/json' } });
    const before = [...platform.data.projects[1].tags];
    assert.equal((await put('{"tags":["alpha"]}')).status, 200);
    assert.equal((await put('["alpha","beta"]')).status, 200);
    const last = (await (await put('{"deploymentSlug":"acme","projectName":"acme/platform/sub/billing-service","tags":["gamma"]}')).json()) as {
      project: WireProject;
    };
    assert.deepEqual(last.project.tags, [...before.filter((t) => !['alpha', 'beta', 'gamma'].includes(t)), 'alpha', 'beta', 'gamma']);
    assert.ok(last.project.managed_scan_config);
    for (const bad of ['not json', '{"tags":"x"}', '[1]', '{"projectName":"other","tags":["a"]}']) assert.equal((await put(bad)).status, 400, bad);
  });
});

void describe('sbom export', () => {
  const exportPath = '/api/v1/deployments/4242/sbom/export';
  const post = (body: unknown): Promise<Response> =>
    get(exportPath, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  void test('validates the request', async () => {
    const repositoryId = String(platform.data.projects[0].repository_id);
    for (const body of [
      {},
      { repositoryId: '1' },
      { repositoryId, metadataComponentType: 'X' },
      { repositoryId, sbomOutputFormat: 'XML' },
      { repositoryId, formatVersion: { version: '2.0' } },
    ]) {
      assert.equal((await post(body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await get(`${exportPath}/no-such-token`)).status, 404);
  });

  void test('job lifecycle: new job per POST, IN_PROGRESS twice, then COMPLETED with a download', async () => {
    const project = platform.data.projects[2];
    const body = {
      repositoryId: String(project.repository_id),
      ref: 'main',
      formatVersion: { format: 'SBOM_FORMAT_CYCLONEDX', version: '1.6' },
      metadataComponentType: 'SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_LIBRARY',
    };
    const a = (await (await post(body)).json()) as { taskToken: string };
    const b = (await (await post(body)).json()) as { taskToken: string };
    assert.notEqual(a.taskToken, b.taskToken);
    const statuses: string[] = [];
    let downloadUrl = '';
    for (let i = 0; i < 3; i++) {
      const s = await getJson<{ status: string; downloadUrl?: string }>(`${exportPath}/${a.taskToken}`);
      statuses.push(s.status);
      downloadUrl = s.downloadUrl ?? '';
    }
    assert.deepEqual(statuses, ['SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_COMPLETED']);
    assert.ok(downloadUrl.startsWith(`${platform.storageUrl}/downloads/sbom/`), 'served from a second origin, like object storage');
    assert.notEqual(new URL(downloadUrl).origin, new URL(platform.url).origin);
    const withToken = await fetch(downloadUrl, { headers: { authorization: `Bearer ${platform.token}` } });
    assert.equal(withToken.status, 400, 'the storage origin refuses a request that brings the token');
    const unsigned = new URL(downloadUrl);
    unsigned.searchParams.delete('signature');
    assert.equal((await fetch(unsigned)).status, 403, "and one without the link's signature");
    const bom = (await (await fetch(downloadUrl)).json()) as {
      bomFormat: string;
      specVersion: string;
      metadata: { component: { type: string } };
      components: { name: string }[];
    };
    assert.equal(bom.bomFormat, 'CycloneDX');
    assert.equal(bom.specVersion, '1.6');
    assert.equal(bom.metadata.component.type, 'library');
    // The packages the repository's dependency inventory lists (those of its findings among them), as Dependencies shows them.
    const listed = new Set(
      inventoryOf(platform.data)
        .dependencies.filter((d) => d.repositoryId === project.repository_id)
        .map((d) => d.name),
    );
    const packages = new Set(platform.data.sca.filter((f) => f.repository?.name === project.name && f.ref === 'main').map((f) => f.found_dependency?.package));
    const names = new Set(bom.components.map((c) => c.name));
    assert.deepEqual(names, new Set([...listed, ...packages]), 'every package of the inventory and the findings');
    assert.ok(listed.size > packages.size, 'more than the vulnerable ones');
  });

  void test('an XML export is served as CycloneDX XML', async () => {
    const project = platform.data.projects[2];
    const body = {
      repositoryId: project.repository_id,
      ref: 'main',
      sbomOutputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      formatVersion: { format: 'SBOM_FORMAT_CYCLONEDX', version: '1.5' },
    };
    const { taskToken } = (await (await post(body)).json()) as { taskToken: string };
    let downloadUrl = '';
    for (let i = 0; i < 3; i++) downloadUrl = (await getJson<{ downloadUrl?: string }>(`${exportPath}/${taskToken}`)).downloadUrl ?? '';
    const response = await fetch(downloadUrl);
    assert.equal(response.headers.get('content-type'), 'application/xml');
    const text = await response.text();
    assert.match(text, /^<\?xml[^>]*\?>\n<bom xmlns="http:\/\/cyclonedx.org\/schema\/bom\/1.5"/);
  });
});

void describe('faults', () => {
  const path = '/api/v1/deployments';

  void test('status fault comes before auth, with its headers; FIFO and `times`', async () => {
    const applied = platform.faults.applied;
    platform.faults.inject({ kind: 'status', status: 429, headers: { 'Retry-After': '2' } }, { pathIncludes: '/deployments' }, 2);
    platform.faults.inject({ kind: 'status', status: 503 });
    const first = await fetch(`${platform.url}${path}`);
    assert.equal(first.status, 429);
    assert.equal(first.headers.get('retry-after'), '2');
    assert.equal((await get(path)).status, 429);
    assert.equal((await get(path)).status, 503);
    assert.equal((await get(path)).status, 200);
    assert.equal(platform.faults.applied, applied + 3);
  });

  void test('match by method leaves other requests alone', async () => {
    platform.faults.inject({ kind: 'status', status: 500 }, { method: 'PUT' });
    assert.equal((await get(path)).status, 200);
    platform.faults.clear();
  });

  void test('delay and latency', async () => {
    platform.faults.inject({ kind: 'delay', ms: 150 });
    let t = Date.now();
    assert.equal((await get(path)).status, 200);
    assert.ok(Date.now() - t >= 140);
    platform.setLatency(100);
    t = Date.now();
    await get(path);
    assert.ok(Date.now() - t >= 90);
    platform.setLatency(0);
  });

  void test('hang never answers', async () => {
    platform.faults.inject({ kind: 'hang' });
    await assert.rejects(get(path, { signal: AbortSignal.timeout(200) }));
  });

  void test('reset and truncate break the body', async () => {
    platform.faults.inject({ kind: 'reset' });
    await assert.rejects(async () => (await get('/api/v1/deployments/acme/findings')).text());
    platform.faults.inject({ kind: 'truncate' });
    const truncated = await get('/api/v1/deployments/acme/findings');
    assert.equal(truncated.status, 200);
    await assert.rejects(truncated.json());
  });

  void test('html200, wrongContentType and redirect', async () => {
    platform.faults.inject({ kind: 'html200' });
    const html = await get(path);
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type') ?? '', /text\/html/);
    platform.faults.inject({ kind: 'wrongContentType' });
    const plain = await get(path);
    assert.match(plain.headers.get('content-type') ?? '', /text\/plain/);
    assert.ok(Array.isArray((JSON.parse(await plain.text()) as { deployments: unknown }).deployments));
    platform.faults.inject({ kind: 'redirect', status: 307, location: 'http://127.0.0.2:1/elsewhere' });
    const moved = await get(path, { redirect: 'manual' });
    assert.equal(moved.status, 307);
    assert.equal(moved.headers.get('location'), 'http://127.0.0.2:1/elsewhere');
  });

  void test('hugeBody streams the padding', async () => {
    platform.faults.inject({ kind: 'hugeBody', bytes: 5_000_000 });
    const res = await get(path);
    assert.equal(res.headers.get('content-length'), null);
    let total = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) total += chunk.length;
    assert.ok(total >= 5_000_000);
  });

  void test('random faults are deterministic by seed', async () => {
    const run = async (): Promise<number[]> => {
      platform.faults.setRandom({ rate: 0.5, kinds: [{ kind: 'status', status: 502 }], seed: 42 });
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await get(path)).status);
      platform.faults.setRandom(undefined);
      return statuses;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(502) && first.includes(200));
  });

  void test('requests are recorded with raw path and body', () => {
    const put = platform.requests.find((r) => r.method === 'PUT');
    assert.ok(put?.body && put.path.includes('/projects/acme/platform/sub/billing-service/tags'));
  });
});

void test('close() ends a hung request and the listening socket', async () => {
  const own = await startPlatformServer({ data: demoDeployment() });
  own.faults.inject({ kind: 'hang' });
  const pending = fetch(`${own.url}/api/v1/deployments`).catch((e: unknown) => e);
  await new Promise((r) => setTimeout(r, 50));
  await own.close();
  assert.ok((await pending) instanceof Error);
  await assert.rejects(fetch(`${own.url}/api/v1/deployments`));
});

void test('a deployment without Secrets lists no Secrets policy and answers 404 for it; one with Secrets lists it', async () => {
  const data = demoDeployment();
  const secretsPolicy = data.policies.find((p) => p.productType === 'PRODUCT_TYPE_SECRETS');
  assert.ok(secretsPolicy?.id, 'the demo deployment has a Secrets policy');
  const listed = async (own: RunningPlatform): Promise<(string | undefined)[]> => {
    const body = (await (
      await fetch(`${own.url}/api/v1/deployments/${data.deployment.id}/policies`, { headers: { Authorization: `Bearer ${own.token}` } })
    ).json()) as { policies: { id?: string }[] };
    return body.policies.map((p) => p.id);
  };
  const full = await startPlatformServer({ data });
  const lacking = await startPlatformServer({ data, without: ['secrets'] });
  try {
    assert.ok((await listed(full)).includes(secretsPolicy.id));
    assert.ok(!(await listed(lacking)).includes(secretsPolicy.id));
    assert.ok((await listed(lacking)).length > 0, 'the code policies stay');
    const one = await fetch(`${lacking.url}/api/v1/deployments/${data.deployment.id}/policies/${secretsPolicy.id}`, {
      headers: { Authorization: `Bearer ${lacking.token}` },
    });
    assert.equal(one.status, 404);
  } finally {
    await full.close();
    await lacking.close();
  }
});
