/**
 * A finding's story kept with the finding, over real HTTP against the local platform: read once
 * when wanted, kept while the finding stays the same, read again after a triage (its trace kept
 * meanwhile), dropped when the finding's scanned place changes, and a deployment without the call
 * read calmly as not available.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { Finding } from '../../../src/core/model/types';
import { FindingStories } from '../../../src/core/services/finding-stories';
import type { WireSastFinding } from '../../platform/wire';
import { usePlatform } from '../core/helpers/platformFixture';
import { sastFinding } from './finding-fixtures';

const fx = usePlatform();

void afterEach(() => fx.platform.restoreProducts());

/** The store's finding for a generated code finding: its id, place and state as the list gives them. */
function findingOf(wire: WireSastFinding): Finding {
  const l = wire.location ?? {};
  return sastFinding({
    id: wire.id,
    file: l.filePath ?? l.file_path,
    line: l.line,
    ref: wire.ref,
    lineOfCodeUrl: wire.line_of_code_url,
    status: wire.status ?? 'open',
  });
}

/** A code finding whose story has a trace (the platform gives none to every fifth). */
const traced = (skip = 0): Finding => {
  const wire = fx.platform.data.sast.filter((f) => (f.id ?? 0) % 5 !== 0 && f.location)[skip];
  assert.ok(wire?.id);
  return findingOf(wire);
};

const storyRequests = (): number => fx.platform.requests.filter((r) => r.path.includes('/issues/v2/')).length;

function service(deploymentId = (): string | undefined => fx.deploymentId()): FindingStories {
  return new FindingStories(() => fx.client, deploymentId);
}

void describe('finding stories', () => {
  void it('reads a story once when wanted, tells who listens, and keeps it for the finding as it is', async () => {
    const stories = service();
    const finding = traced();
    const heard: number[] = [];
    stories.onDidRead((f) => heard.push(f.id));
    assert.equal(stories.peek(finding), undefined, 'nothing is read before it is wanted');
    assert.equal(stories.traceOf(finding), undefined);
    const [a, b] = await Promise.all([stories.get(finding), stories.get(finding)]);
    assert.equal(a, b, 'two askers share one request');
    assert.equal(a?.kind, 'story');
    assert.equal(storyRequests(), 1);
    assert.deepEqual(heard, [finding.id]);
    assert.equal(await stories.get({ ...finding }), a, 'the same finding (another object) is not asked again');
    assert.equal(storyRequests(), 1);
    const trace = stories.traceOf(finding);
    assert.ok(trace && trace.length >= 2, 'its trace is kept for Problems');
    assert.deepEqual(
      stories.tracedFindings().map((f) => f.id),
      [finding.id],
    );
  });

  void it('a triage: the trace stays, the story is read again when next wanted (its history changed)', async () => {
    const stories = service();
    const finding = traced(1);
    await stories.get(finding);
    const triaged: Finding = { ...finding, status: 'reviewing' };
    assert.ok(stories.traceOf(triaged), 'the trace is a fact of the scanned code: kept');
    assert.equal(stories.isStale(triaged), true);
    const before = storyRequests();
    await stories.get(triaged);
    assert.equal(storyRequests(), before + 1, 'asked again');
    assert.equal(stories.isStale(triaged), false);
  });

  void it("the finding's scanned place changes (another scan): the story and its trace are dropped", async () => {
    const stories = service();
    const finding = traced(2);
    await stories.get(finding);
    const rescanned: Finding = { ...finding, location: { filePath: finding.location?.filePath ?? 'x', line: (finding.location?.line ?? 1) + 7 } };
    assert.equal(stories.traceOf(rescanned), undefined);
    assert.equal(stories.peek(rescanned), undefined);
    assert.equal(stories.peek(finding), undefined, 'dropped, not kept beside');
  });

  void it('a finding without a trace has none for Problems; fresh reads again', async () => {
    const stories = service();
    const wire = fx.platform.data.sast.find((f) => (f.id ?? 1) % 5 === 0 && f.location);
    assert.ok(wire);
    const finding = findingOf(wire);
    const answer = await stories.get(finding);
    assert.equal(answer?.kind === 'story' ? answer.story.trace : 'not a story', undefined);
    assert.equal(stories.traceOf(finding), undefined);
    const before = storyRequests();
    await stories.get(finding, { fresh: true });
    assert.equal(storyRequests(), before + 1);
  });

  void it('a deployment without the call: not available, said once per finding, never an error', async () => {
    fx.platform.setProduct('issue-v2', 404);
    const stories = service();
    const finding = traced(3);
    const answer = await stories.get(finding);
    assert.equal(answer?.kind, 'notAvailable');
    assert.equal(answer?.kind === 'notAvailable' ? answer.unavailable.status : 0, 404);
    assert.equal(stories.traceOf(finding), undefined);
    const before = storyRequests();
    assert.equal((await stories.within(finding, 1_000))?.kind, 'notAvailable');
    assert.equal(storyRequests(), before, 'kept: not asked again');
    fx.platform.setProduct('issue-v2', 403);
    assert.equal((await service().get(traced(4)))?.kind, 'notAvailable', '403 reads the same');
  });

  void it("signed out: nothing; a failure is thrown and not kept; another deployment's stories are not this one's", async () => {
    assert.equal(await service(() => undefined).get(traced()), undefined);
    const failing = new FindingStories(
      () => fx.makeClient({ retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, totalBudgetMs: 100 } }),
      () => fx.deploymentId(),
    );
    fx.platform.faults.inject({ kind: 'status', status: 500 }, { pathIncludes: '/issues/v2/' }, 5);
    await assert.rejects(failing.get(traced(5)));
    fx.platform.faults.clear();
    assert.equal(failing.peek(traced(5)), undefined, 'a failure is not kept');
    assert.equal((await failing.get(traced(5)))?.kind, 'story');
    let deployment = fx.deploymentId();
    const switching = service(() => deployment);
    await switching.get(traced(6));
    deployment = 'another';
    assert.equal(switching.peek(traced(6)), undefined);
    assert.equal(switching.traceOf(traced(6)), undefined);
  });

  void it('within: the story if it comes in time, else what is known (nothing), without throwing', async () => {
    const stories = service();
    fx.platform.faults.inject({ kind: 'delay', ms: 400 }, { pathIncludes: '/issues/v2/' });
    assert.equal(await stories.within(traced(7), 20), undefined, 'too slow: nothing yet');
    fx.platform.faults.clear();
    assert.equal((await stories.within(traced(8), 5_000))?.kind, 'story');
    stories.forget(traced(8));
    assert.equal(stories.peek(traced(8)), undefined);
    stories.clear();
    assert.equal(stories.tracedFindings().length, 0);
  });
});
