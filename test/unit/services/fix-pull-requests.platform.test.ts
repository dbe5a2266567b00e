/**
 * A fix pull request asked of the local platform and followed over real HTTP: accepted is not
 * opened, so the story is read again (waiting longer each time) until it names the pull request;
 * a refusal comes with its plain sentence and changes nothing; a deployment without the call, or
 * without the story to follow it by, is said calmly.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { AUTOFIX_SENTENCES } from '../../../src/core/model/autofix-outcome';
import type { Finding } from '../../../src/core/model/types';
import { FindingStories } from '../../../src/core/services/finding-stories';
import { requestFixPullRequest, type FixRequestDeps, type FollowClock } from '../../../src/core/services/fix-pull-requests';
import { usePlatform } from '../core/helpers/platformFixture';
import { sastFinding } from './finding-fixtures';

const fx = usePlatform();

void afterEach(() => {
  fx.platform.setAutofixOutcome('accept');
  fx.platform.setAutofixDelay(0);
  fx.platform.restoreProducts();
});

/** Real time, at a pace a test can wait for: 20 ms first, doubling to 160 ms, for 5 s. */
const QUICK = { firstDelayMs: 20, maxDelayMs: 160, giveUpAfterMs: 5_000 };

function deps(extra: Partial<Omit<FixRequestDeps, 'stories'>> = {}): FixRequestDeps & { stories: FindingStories } {
  const stories = new FindingStories(
    () => fx.client,
    () => fx.deploymentId(),
  );
  return { api: () => fx.client, deploymentId: () => fx.deploymentId(), policy: QUICK, ...extra, stories };
}

/** An open code finding without a fix pull request yet. */
function openFinding(skip = 0): Finding {
  const wire = fx.platform.data.sast.filter((f) => f.status === 'open' && (f.click_to_fix_prs?.length ?? 0) === 0 && f.location)[skip];
  assert.ok(wire?.id);
  return sastFinding({
    id: wire.id,
    file: wire.location?.filePath ?? wire.location?.file_path,
    line: wire.location?.line,
    lineOfCodeUrl: wire.line_of_code_url,
  });
}

const autofixRequests = (): number => fx.platform.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/autofix')).length;
const storyReads = (): number => fx.platform.requests.filter((r) => r.path.includes('/issues/v2/')).length;

void describe('a fix pull request, asked for and followed', () => {
  void it('accepted, then the pull request appears: followed until the story names it', async () => {
    fx.platform.setAutofixDelay(250);
    const d = deps();
    const finding = openFinding();
    const { outcome, follow } = await requestFixPullRequest(d, finding);
    assert.deepEqual(outcome, { kind: 'accepted' }, 'accepted: the platform took the job');
    assert.ok(follow, 'and it is followed');
    const result = await follow;
    assert.equal(result.kind, 'opened');
    assert.match(result.kind === 'opened' ? result.url : '', /\/(pull|-\/merge_requests)\/7\d{3}$/, 'the pull request the platform opened');
    assert.ok(storyReads() >= 2, `the story was read until it named it (${storyReads()} reads)`);
    const kept = d.stories.peek(finding);
    assert.equal(
      kept?.kind === 'story' ? kept.story.fixPullRequest?.url : undefined,
      result.kind === 'opened' ? result.url : 'none',
      'the story kept names it too',
    );
  });

  void it('the waits grow: each twice the last, up to the most, until it gives up', async () => {
    fx.platform.setAutofixDelay(60_000);
    let now = 0;
    const waits: number[] = [];
    const clock: FollowClock = {
      now: () => now,
      wait: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
    };
    const { follow } = await requestFixPullRequest(deps({ clock, policy: { firstDelayMs: 1_000, maxDelayMs: 8_000, giveUpAfterMs: 40_000 } }), openFinding(1));
    assert.deepEqual(await follow, { kind: 'stillWaiting' });
    assert.deepEqual(waits, [1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
  });

  void it("refused: the platform's reason in its plain sentence, nothing followed, nothing changed", async () => {
    fx.platform.setAutofixOutcome('AUTOFIX_ERROR_TYPE_CREDITS_EXHAUSTED');
    const d = deps();
    const finding = openFinding(2);
    const reads = storyReads();
    const { outcome, follow } = await requestFixPullRequest(d, finding);
    assert.equal(outcome.kind, 'refused');
    assert.equal(outcome.kind === 'refused' ? outcome.sentence : '', AUTOFIX_SENTENCES.creditsExhausted);
    assert.equal(follow, undefined);
    assert.equal(storyReads(), reads, 'nothing is followed');
    const story = await d.stories.get(finding);
    assert.equal(story?.kind === 'story' ? story.story.fixPullRequest : 'no story', undefined, 'no pull request on the finding');
    assert.ok(!(story?.kind === 'story' && story.story.activity?.some((e) => e.kind === 'fixPrRequested')), 'no request in its history');
  });

  void it('a second request while one is on its way is refused with its own sentence', async () => {
    fx.platform.setAutofixDelay(60_000);
    const finding = openFinding(3);
    const controller = new AbortController();
    const first = await requestFixPullRequest(deps(), finding, controller.signal);
    assert.equal(first.outcome.kind, 'accepted');
    const second = await requestFixPullRequest(deps(), finding);
    assert.equal(second.outcome.kind === 'refused' ? second.outcome.sentence : '', AUTOFIX_SENTENCES.inFlightFixPending);
    controller.abort();
    await assert.rejects(first.follow!, (e: Error) => /cancel/i.test(e.message), 'stopped following when asked');
  });

  void it('a deployment without the call: not available, said plainly, nothing sent again', async () => {
    fx.platform.setProduct('autofix', 404);
    const before = autofixRequests();
    const { outcome, follow } = await requestFixPullRequest(deps(), openFinding(4));
    assert.equal(outcome.kind === 'refused' ? outcome.refusal : '', 'notAvailable');
    assert.equal(outcome.kind === 'refused' ? outcome.sentence : '', AUTOFIX_SENTENCES.notAvailable);
    assert.equal(follow, undefined);
    assert.equal(autofixRequests(), before + 1, 'one request, never retried');
  });

  void it('accepted on a deployment without the story: the follow says it cannot tell, at once', async () => {
    fx.platform.setProduct('issue-v2', 404);
    const { outcome, follow } = await requestFixPullRequest(deps(), openFinding(5));
    assert.equal(outcome.kind, 'accepted');
    assert.deepEqual(await follow, { kind: 'notAvailable' });
  });

  void it('signed out: refused before anything is sent', async () => {
    const before = autofixRequests();
    await assert.rejects(requestFixPullRequest(deps({ deploymentId: () => undefined }), openFinding()), /Sign in/);
    assert.equal(autofixRequests(), before);
  });
});
