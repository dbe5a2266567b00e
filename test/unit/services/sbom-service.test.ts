// SBOM exports through the real client against the local platform: start a job, follow it to
// its end with a tiny poll interval, keep a capped history, and say clearly when it cannot finish.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/api/errors';
import { HISTORY_LIMIT, SbomService, isFinal, type SbomExportRecord, type SbomPollPolicy } from '../../../src/core/services/sbom-service';
import type { SbomExportRequest, SbomExportStatus } from '../../../src/core/model/types';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';

const FAST: SbomPollPolicy = { intervalMs: 1, maxPolls: 10 };

void describe('SbomService (real client, local platform)', () => {
  let h: Harness;
  let data: PlatformData;
  let request: SbomExportRequest;
  let projectName: string;
  before(async () => {
    data = generateDeployment({ projects: 2, sastPerProject: 5, scaPerProject: 5 });
    // Two polls answer "in progress", the third "completed".
    h = await startHarness({ data, sbomPollsUntilDone: 2 });
    const project = data.projects[0];
    assert.ok(project);
    projectName = project.name;
    request = {
      repositoryId: project.repository_id, ref: 'main', outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      cycloneDxVersion: '1.6', componentType: 'LIBRARY',
    };
  });
  after(() => h.close());

  const service = (options: { history?: SbomExportRecord[]; poll?: SbomPollPolicy; deploymentId?: () => string | undefined } = {}): SbomService => {
    const client = h.client();
    return new SbomService(() => client, options.deploymentId ?? (() => '4242'), options.history ?? [], options.poll ?? FAST);
  };

  void test('start records the job at the top of the history, in progress', async () => {
    const s = service();
    const published: (readonly SbomExportRecord[])[] = [];
    s.onDidChange((records) => published.push(records));
    const mark = h.mark();
    const record = await s.start(projectName, request);
    assert.match(record.taskToken, /\S/);
    assert.equal(record.projectName, projectName);
    assert.equal(record.ref, 'main');
    assert.equal(record.format, 'SBOM_OUTPUT_FORMAT_CYCLONEDX 1.6');
    assert.equal(record.state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    assert.ok(!Number.isNaN(Date.parse(record.startedAt)));
    assert.deepEqual(s.history, [record]);
    assert.deepEqual(published, [[record]], 'the host is told, so it can persist the history');
    const posts = h.requestsSince(mark, '/sbom/export');
    assert.equal(posts.length, 1);
    assert.equal(posts[0]?.method, 'POST');
    assert.equal(posts[0]?.path, '/api/v1/deployments/4242/sbom/export');
  });

  void test('follow polls until the job is completed and keeps the download link', async () => {
    const s = service();
    const started = await s.start(projectName, request);
    const statuses: SbomExportStatus[] = [];
    const mark = h.mark();
    const done = await s.follow(started.taskToken, undefined, (status) => statuses.push(status));
    assert.deepEqual(statuses.map((x) => x.state), ['SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_COMPLETED']);
    assert.equal(h.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, 3, 'no poll after the final state');
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.ok(done.downloadUrl?.startsWith(`${h.server.url}/downloads/sbom/`));
    assert.equal(done.projectName, projectName, 'what was known at the start is kept');
    assert.equal(done.startedAt, started.startedAt);
    assert.deepEqual(s.history, [done]);
  });

  void test('a job that fails ends with the platform\'s message', async () => {
    const s = service();
    const started = await s.start(projectName, { ...request, ref: 'never-scanned-branch' });
    const done = await s.follow(started.taskToken);
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_FAILED');
    assert.match(done.errorMessage ?? '', /never-scanned-branch/);
    assert.equal(done.downloadUrl, undefined);
  });

  void test('the history is capped and newest first', async () => {
    const old: SbomExportRecord[] = Array.from({ length: HISTORY_LIMIT }, (_, i) => ({
      taskToken: `old-${i}`, projectName: 'acme/old', ref: 'main', format: 'SBOM_OUTPUT_FORMAT_JSON 1.5',
      startedAt: new Date(Date.UTC(2024, 0, 20 - i)).toISOString(), state: 'SBOM_EXPORT_STATUS_COMPLETED',
    }));
    const s = service({ history: old });
    assert.equal(s.history.length, HISTORY_LIMIT);
    const first = await s.start(projectName, request);
    const second = await s.start(projectName, request);
    assert.equal(s.history.length, HISTORY_LIMIT);
    assert.deepEqual(s.history.map((r) => r.taskToken), [second.taskToken, first.taskToken, ...old.slice(0, HISTORY_LIMIT - 2).map((r) => r.taskToken)]);
  });

  void test('a task token the platform does not know gives a not-found error and adds nothing', async () => {
    const s = service();
    await assert.rejects(s.follow('no-such-task-token'), (e: unknown) => PlatformError.is(e, 'notFound'));
    assert.deepEqual(s.history, []);
  });

  void test('a job still running after the last allowed poll says so, with its task token', async () => {
    const s = service({ poll: { intervalMs: 1, maxPolls: 2 } });
    const started = await s.start(projectName, request);
    const mark = h.mark();
    await assert.rejects(s.follow(started.taskToken), (e: unknown) => {
      assert.ok(e instanceof Error);
      assert.equal(e.message, `The SBOM export is still running after 2 checks. Its task token is ${started.taskToken}; check it later in the platform.`);
      return true;
    });
    assert.equal(h.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, 2);
    assert.equal(s.history[0]?.state, 'SBOM_EXPORT_STATUS_IN_PROGRESS');
    // Following it later picks up where the platform is.
    assert.equal((await s.follow(started.taskToken)).state, 'SBOM_EXPORT_STATUS_COMPLETED');
  });

  void test('following can be cancelled while waiting between polls', async () => {
    const s = service({ poll: { intervalMs: 5_000, maxPolls: 10 } });
    const started = await s.start(projectName, request);
    const controller = new AbortController();
    const following = s.follow(started.taskToken, controller.signal, () => controller.abort());
    const t0 = Date.now();
    await assert.rejects(following, (e: unknown) => PlatformError.is(e, 'cancelled') || (e instanceof Error && e.name === 'AbortError'));
    assert.ok(Date.now() - t0 < 1_000, 'stopped at once, not after the poll interval');
  });

  void test('a failed start (the platform refuses) adds nothing and is not retried', async () => {
    const s = service();
    h.server.faults.inject({ kind: 'status', status: 503 }, { pathIncludes: '/sbom/export', method: 'POST' });
    const mark = h.mark();
    await assert.rejects(s.start(projectName, request), (e: unknown) => PlatformError.is(e, 'server'));
    assert.equal(h.requestsSince(mark, '/sbom/export').length, 1, 'a POST is never repeated: it could start a second job');
    assert.deepEqual(s.history, []);
  });

  void test('without a deployment: sign in first', async () => {
    const s = service({ deploymentId: () => undefined });
    await assert.rejects(s.start(projectName, request), /Sign in first/);
    await assert.rejects(s.follow('x'), /Sign in first/);
  });

  void test('only completed and failed are final states', () => {
    assert.equal(isFinal('SBOM_EXPORT_STATUS_COMPLETED'), true);
    assert.equal(isFinal('SBOM_EXPORT_STATUS_FAILED'), true);
    assert.equal(isFinal('SBOM_EXPORT_STATUS_IN_PROGRESS'), false);
    assert.equal(isFinal('SBOM_EXPORT_STATUS_QUEUED'), false);
  });
});
