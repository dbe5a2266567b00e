// Each agent handler on its own, as both adapters call it: over the core's real client, store and
// services, wired as standalone mode wires them (platformHandlerDeps), against the local
// platform, with a workspace folder whose findings sit two lines further down today. Each answer is read as an agent reads it (its text and structured content),
// and each problem is an answer naming its cause, never a throw.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformClient } from '../../../src/core/api/client';
import { dependenciesHandler } from '../../../src/core/agent/dependencies-handler';
import { findingHandler, triageHandler } from '../../../src/core/agent/finding-handlers';
import { findingsHandler, type AgentHandlerDeps } from '../../../src/core/agent/findings-handler';
import type { ToolAnswer } from '../../../src/core/agent/tool-answer';
import { errorMessage } from '../../../src/core/model/errors';
import type { Finding } from '../../../src/core/model/types';
import { DependenciesService } from '../../../src/core/services/dependencies-service';
import { ProjectsService } from '../../../src/core/services/projects-service';
import { platformHandlerDeps } from '../../../src/mcp/standalone-backend';
import { generateDeployment, startPlatformServer, type RunningPlatform } from '../../platform';
import { inventoryOf } from '../../platform/dependencies';

/** Today, every finding's code sits two lines below where it was scanned. */
const MOVED_BY = 2;

interface Listed {
  readonly id: number;
  readonly issueType: string;
  readonly rule: string;
  readonly path?: string;
  readonly line?: number;
  readonly url?: string;
}

const listedOf = (answer: ToolAnswer): Listed[] => (answer.structured as { findings: Listed[] }).findings;

void describe('the agent handlers, over the real services', () => {
  const data = generateDeployment({ seed: 17, projects: 2, sastPerProject: 24, scaPerProject: 6, refsPerProject: 1 });
  const project = data.projects[0];
  let platform: RunningPlatform;
  let signedIn = true;
  let deps: AgentHandlerDeps;
  let dependencies: DependenciesService;

  before(async () => {
    platform = await startPlatformServer({ data, shape: 'spec' });
  });
  after(() => platform.close());

  beforeEach(async () => {
    platform.restoreProducts();
    signedIn = true;
    const api = new PlatformClient({ baseUrl: platform.url, extensionVersion: 'test', getToken: () => Promise.resolve(platform.token) });
    const [deployment] = await api.listDeployments();
    const { id, slug } = deployment;
    const projects = new ProjectsService(
      () => api,
      () => slug,
    );
    await projects.load();
    dependencies = new DependenciesService(
      () => api,
      () => id,
    );
    const built = platformHandlerDeps(api, { id, slug }, platform.url, projects, {
      folders: () => [{ root: '/work/repo', projectName: project.name, branch: project.primary_branch }],
      place: (finding: Finding) =>
        finding.location ? { kind: 'here', path: finding.location.filePath, line: finding.location.line + MOVED_BY, changed: false } : undefined,
      trace: () => [],
    });
    // Signed out is a window's state; the same services answer otherwise.
    deps = { ...built, deploymentSlug: () => (signedIn ? slug : undefined) };
  });

  const openCode = (): (typeof data.sast)[number] =>
    data.sast.find((f) => f.repository?.name === project.name && f.ref === project.primary_branch && f.status === 'open' && f.location?.file_path)!;

  void test("findings: the workspace's findings, each where its code is today, with its link", async () => {
    const wanted = openCode();
    const answer = await findingsHandler(deps)({ path: wanted.location!.file_path }, AbortSignal.timeout(10_000));
    assert.equal(answer.isError, undefined, answer.text);
    const listed = listedOf(answer).find((f) => f.id === wanted.id);
    assert.ok(listed, answer.text);
    assert.equal(listed.issueType, 'sast');
    assert.equal(listed.path, wanted.location!.file_path);
    assert.equal(listed.line, wanted.location!.line! + MOVED_BY);
    assert.match(listed.url ?? '', new RegExp(`/findings/${wanted.id}$`));
    assert.ok(
      listedOf(answer).every((f) => f.path === wanted.location!.file_path),
      'only the file asked for',
    );
  });

  void test('findings: a deployment without Secrets still lists the others, and says so in English', async () => {
    platform.setProduct('secrets', 404);
    const answer = await findingsHandler(deps)({}, AbortSignal.timeout(10_000));
    assert.equal(answer.isError, undefined, answer.text);
    assert.ok(listedOf(answer).length > 0);
    assert.match(answer.text, /Secrets findings: not available for this deployment \(404\)/);
  });

  void test('findings: a field it does not take, and a signed-out window, are answers that say why', async () => {
    const unknown = await findingsHandler(deps)({ colour: 'red' }, AbortSignal.timeout(10_000));
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /colour/);
    signedIn = false;
    const out = await findingsHandler(deps)({}, AbortSignal.timeout(10_000));
    assert.equal(out.isError, true);
    assert.match(out.text, /Not signed in to the AppSec platform: ask the user to run "AppSec: Sign In"/);
  });

  void test("finding: by id once listed, and by its platform link, placed in today's code; one not loaded names the tool to list first", async () => {
    const wanted = openCode();
    const unknown = await findingHandler(deps)({ id: wanted.id }, AbortSignal.timeout(10_000));
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /list the project's findings first/);
    await findingsHandler(deps)({}, AbortSignal.timeout(10_000));
    const byId = await findingHandler(deps)({ id: wanted.id }, AbortSignal.timeout(10_000));
    assert.equal(byId.isError, undefined, byId.text);
    const summary = (byId.structured as { finding: Listed }).finding;
    assert.equal(summary.line, wanted.location!.line! + MOVED_BY);
    assert.ok(wanted.rule_name && byId.text.includes(wanted.rule_name), byId.text);
    const byLink = await findingHandler(deps)({ url: summary.url }, AbortSignal.timeout(10_000));
    assert.equal((byLink.structured as { finding: Listed }).finding.id, wanted.id);
  });

  void test('triage: the platform changes the finding and the store shows it; a role that may not write changes nothing and says so', async () => {
    const wanted = openCode();
    await findingsHandler(deps)({}, AbortSignal.timeout(10_000));
    const slug = deps.deploymentSlug()!;
    platform.setReadOnly(true);
    const refused = await triageHandler(deps)({ issueType: 'sast', findingIds: [wanted.id], state: 'reviewing' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /The triage was not made, nothing changed/);
    assert.equal(deps.store.finding(slug, 'sast', wanted.id!)?.status, 'open', 'rolled back');
    platform.setReadOnly(false);
    const done = await triageHandler(deps)({ issueType: 'sast', findingIds: [wanted.id], state: 'ignored', reason: 'false_positive', note: 'test fixture' });
    assert.equal(done.isError, undefined, done.text);
    assert.match(done.text, /^Done: the platform triaged \d+ finding/);
    assert.equal(deps.store.finding(slug, 'sast', wanted.id!)?.status, 'ignored');
    assert.equal(data.sast.find((f) => f.id === wanted.id)?.status, 'ignored', 'the platform holds it');
  });

  void test('dependencies: where a package is used, and a name with a range typed in is refused with how to give it', async () => {
    const handler = dependenciesHandler({ dependencies, signedIn: () => signedIn, errorMessage });
    const used = inventoryOf(data).dependencies[0];
    const answer = await handler({ package: used.name }, AbortSignal.timeout(10_000));
    assert.equal(answer.isError, undefined, answer.text);
    const rows = (answer.structured as { rows: { version: string }[] }).rows;
    assert.ok(
      rows.some((row) => row.version === used.version),
      answer.text,
    );
    const typedTogether = await handler({ package: `${used.name} <4.17.21` }, AbortSignal.timeout(10_000));
    assert.equal(typedTogether.isError, true);
    assert.match(typedTogether.text, /is not a package name: .*Give the versions apart/);
  });
});
