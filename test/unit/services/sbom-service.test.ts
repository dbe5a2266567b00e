// SBOM exports through the real client against the local platform: start a job, follow it to
// its end with a tiny poll interval, keep a capped history, and say clearly when it cannot finish.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/core/model/errors';
import {
  HISTORY_LIMIT,
  SbomService,
  SbomStalledError,
  isFinal,
  type SbomClock,
  type SbomExportRecord,
  type SbomPollPolicy,
} from '../../../src/core/services/sbom-service';
import type { SbomExportRequest, SbomExportStatus } from '../../../src/core/model/sbom';
import { generateDeployment, type PlatformData } from '../../platform/generator';
import { startHarness, type Harness } from './platform-harness';
import { beforeTimer } from '../helpers/before-timer';

const FAST: SbomPollPolicy = { firstDelayMs: 1, maxDelayMs: 1, giveUpAfterMs: 60_000 };

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
      repositoryId: project.repository_id,
      ref: 'main',
      outputFormat: 'SBOM_OUTPUT_FORMAT_CYCLONEDX',
      cycloneDxVersion: '1.6',
      componentType: 'LIBRARY',
    };
  });
  after(() => h.close());

  const service = (
    options: { history?: SbomExportRecord[]; poll?: SbomPollPolicy; deploymentId?: () => string | undefined; clock?: SbomClock } = {},
  ): SbomService => {
    const client = h.client();
    return new SbomService(() => client, options.deploymentId ?? (() => '4242'), options.history ?? [], options.poll ?? FAST, options.clock);
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
    assert.deepEqual(
      statuses.map((x) => x.state),
      ['SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_IN_PROGRESS', 'SBOM_EXPORT_STATUS_COMPLETED'],
    );
    assert.equal(h.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, 3, 'no poll after the final state');
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_COMPLETED');
    assert.ok(done.downloadUrl?.startsWith(`${h.server.storageUrl}/downloads/sbom/`));
    assert.equal(done.projectName, projectName, 'what was known at the start is kept');
    assert.equal(done.startedAt, started.startedAt);
    assert.deepEqual(s.history, [done]);
  });

  void test("a job that fails ends with the platform's message", async () => {
    const s = service();
    const started = await s.start(projectName, { ...request, ref: 'never-scanned-branch' });
    const done = await s.follow(started.taskToken);
    assert.equal(done.state, 'SBOM_EXPORT_STATUS_FAILED');
    assert.match(done.errorMessage ?? '', /never-scanned-branch/);
    assert.equal(done.downloadUrl, undefined);
  });

  void test('the history is capped and newest first', async () => {
    const old: SbomExportRecord[] = Array.from({ length: HISTORY_LIMIT }, (_, i) => ({
      taskToken: `old-${i}`,
      projectName: 'acme/old',
      ref: 'main',
      format: 'SBOM_OUTPUT_FORMAT_JSON 1.5',
      startedAt: new Date(Date.UTC(2024, 0, 20 - i)).toISOString(),
      state: 'SBOM_EXPORT_STATUS_COMPLETED',
    }));
    const s = service({ history: old });
    assert.equal(s.history.length, HISTORY_LIMIT);
    const first = await s.start(projectName, request);
    const second = await s.start(projectName, request);
    assert.equal(s.history.length, HISTORY_LIMIT);
    assert.deepEqual(
      s.history.map((r) => r.taskToken),
      [second.taskToken, first.taskToken, ...old.slice(0, HISTORY_LIMIT - 2).map((r) => r.taskToken)],
    );
  });

  void test('a task token the platform does not know gives a not-found error and adds nothing', async () => {
    const s = service();
    await assert.rejects(s.follow('no-such-task-token'), (e: unknown) => PlatformError.is(e, 'notFound'));
    assert.deepEqual(s.history, []);
  });

  void test('polls back off from 1 s, doubling up to 30 s, and give up after 10 minutes with the task token', async () => {
    // A fake clock: the waits are recorded and pass at once, so 10 minutes take milliseconds.
    let now = 0;
    const waits: number[] = [];
    const clock: SbomClock = {
      now: () => now,
      wait: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    };
    const slow = await startHarness({ data, sbomPollsUntilDone: 1_000 });
    try {
      const client = slow.client();
      const s = new SbomService(
        () => client,
        () => '4242',
        [],
        undefined,
        clock,
      );
      const started = await s.start(projectName, request);
      const mark = slow.mark();
      await assert.rejects(s.follow(started.taskToken), (e: unknown) => {
        assert.ok(e instanceof SbomStalledError);
        assert.match(e.message, /still running after 10 minutes; checking stopped\. Check it again from "AppSec: SBOM Exports" \(task token /);
        assert.ok(e.message.includes(started.taskToken));
        return true;
      });
      assert.deepEqual(waits.slice(0, 7), [1000, 2000, 4000, 8000, 16000, 30000, 30000]);
      assert.ok(waits.every((w) => w <= 30_000));
      assert.ok(now <= 10 * 60_000, `gave up within 10 minutes (${now} ms)`);
      assert.equal(slow.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, waits.length + 1, 'one request per wait, never two at once');
      assert.equal(s.history[0]?.stalled, true, 'marked, so a reload does not resume it');
      assert.deepEqual(s.pending, []);
    } finally {
      await slow.close();
    }
  });

  void test('following a job that is already followed shares the one poll', async () => {
    const s = service({ poll: { firstDelayMs: 20, maxDelayMs: 20, giveUpAfterMs: 60_000 } });
    const started = await s.start(projectName, request);
    assert.deepEqual(
      s.pending.map((r) => r.taskToken),
      [started.taskToken],
      'a running job is pending (a reload resumes it)',
    );
    const mark = h.mark();
    const [a, b] = await Promise.all([s.follow(started.taskToken), s.follow(started.taskToken)]);
    assert.equal(a, b);
    assert.equal(h.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, 3, 'three polls, not six');
    assert.deepEqual(s.pending, []);
  });

  void test('the finished document comes from the storage origin without the token, checked and named', async () => {
    const s = service();
    const started = await s.start(projectName, { ...request, outputFormat: 'SBOM_OUTPUT_FORMAT_JSON' });
    await s.follow(started.taskToken);
    const mark = h.server.storageRequests.length;
    const { text, fileName } = await s.document(started.taskToken);
    const fetched = h.server.storageRequests.slice(mark);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined, 'the token never goes to another origin');
    assert.equal((JSON.parse(text) as { bomFormat: string }).bomFormat, 'CycloneDX');
    assert.equal(fileName, `${projectName.split('/').pop()}-main.cdx.json`);
    s.saved(started.taskToken, '/tmp/x.cdx.json');
    assert.equal(s.history[0]?.savedTo, '/tmp/x.cdx.json');
  });

  void test('an XML export is checked as CycloneDX XML and named .cdx.xml', async () => {
    const s = service();
    const started = await s.start(projectName, request);
    await s.follow(started.taskToken);
    const { text, fileName } = await s.document(started.taskToken);
    assert.match(text, /^<\?xml/);
    assert.match(fileName, /-main\.cdx\.xml$/);
  });

  void test('an unfinished job has no document, and an expired link is a clear error', async () => {
    const s = service();
    const started = await s.start(projectName, { ...request, outputFormat: 'SBOM_OUTPUT_FORMAT_JSON' });
    await assert.rejects(s.document(started.taskToken), /not completed/);
    await s.follow(started.taskToken);
    // A link past its expiry: the storage origin answers 403.
    const record = s.history[0];
    assert.ok(record?.downloadUrl);
    const expired = new SbomService(
      () => h.client(),
      () => '4242',
      [{ ...record, downloadUrl: record.downloadUrl.replace('signature=local-test', 'signature=old') }],
      FAST,
    );
    await assert.rejects(expired.document(record.taskToken), (e: unknown) => e instanceof Error && /403|expired|forbidden|refused/i.test(e.message));
  });

  void test('following can be cancelled while waiting between polls', async () => {
    const POLL_MS = 5_000;
    const s = service({ poll: { firstDelayMs: POLL_MS, maxDelayMs: POLL_MS, giveUpAfterMs: 60_000 } });
    const started = await s.start(projectName, request);
    const mark = h.mark();
    const controller = new AbortController();
    // Cancelled once the first poll is answered, as the wait for the next one begins.
    await beforeTimer(
      () =>
        assert.rejects(
          s.follow(started.taskToken, controller.signal, () => controller.abort()),
          (e: unknown) => PlatformError.is(e, 'cancelled') || (e instanceof Error && e.name === 'AbortError'),
        ),
      POLL_MS,
      'stopped at once, not after the poll interval',
    );
    assert.equal(h.requestsSince(mark, `/sbom/export/${started.taskToken}`).length, 1, 'no poll after the cancel');
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
