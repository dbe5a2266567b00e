/**
 * Asking the platform for a fix pull request, and following it. The platform's "accepted" means
 * it took the job, not that a pull request exists: it writes the fix and opens the pull request
 * later, and the finding's story (the v2 call) shows what became of it. So an accepted request is
 * followed by reading the story again, waiting longer each time, until it names the pull request
 * (or its failure), or the wait is given up (docs/platform-api.md, "One finding's story and its
 * fix"). A refused request changes nothing.
 */
import { sleep } from '../api/retry';
import type { AutofixOutcome } from '../model/autofix-outcome';
import { fixPullRequestOf, type FixPullRequest } from '../model/finding-story';
import type { Finding } from '../model/types';
import type { FindingStories } from './finding-stories';
import type { PlatformApi } from './platform-api';

export interface FollowPolicy {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly giveUpAfterMs: number;
}

/** A fix takes the platform from seconds to minutes: looked at after 2 s, then twice as long each time up to 30 s, for 10 minutes. */
export const FOLLOW_POLICY: FollowPolicy = { firstDelayMs: 2_000, maxDelayMs: 30_000, giveUpAfterMs: 10 * 60_000 };

/** Time as the follow sees it; tests pass a quick one. */
export interface FollowClock {
  now(): number;
  wait(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/**
 * `opened` (or already `merged`): the story names the pull request. `failed`: the platform could
 * not make it, with its reason when it gave one. `notAvailable`: the deployment has no story to
 * follow it by (it shows on the finding after a refresh). `stillWaiting`: given up waiting.
 */
export type FixFollowResult =
  | { readonly kind: 'opened' | 'merged'; readonly url: string }
  | { readonly kind: 'failed'; readonly reason?: string }
  | { readonly kind: 'notAvailable' }
  | { readonly kind: 'stillWaiting' };

export interface FixRequestDeps {
  readonly api: () => PlatformApi;
  readonly deploymentId: () => string | undefined;
  readonly stories: Pick<FindingStories, 'get' | 'peek'>;
  readonly policy?: FollowPolicy;
  readonly clock?: FollowClock;
}

/** The request, and for an accepted one the follow, already under way. */
export interface FixRequest {
  readonly outcome: AutofixOutcome;
  readonly follow?: Promise<FixFollowResult>;
}

/** Events this much older than the request still count as its own (the two clocks may differ). */
const CLOCK_SKEW_MS = 60_000;

/** Asks for the pull request; an accepted one is followed until `signal` aborts or the policy gives up. */
export async function requestFixPullRequest(deps: FixRequestDeps, finding: Finding, signal?: AbortSignal): Promise<FixRequest> {
  const deploymentId = deps.deploymentId();
  if (!deploymentId) throw new Error('Sign in to ask the platform for a fix pull request.');
  const peeked = deps.stories.peek(finding);
  const before = peeked?.kind === 'story' ? fixPullRequestOf(peeked.story) : undefined;
  const clock = deps.clock ?? { now: Date.now, wait: sleep };
  const since = clock.now() - CLOCK_SKEW_MS;
  const outcome = await deps.api().requestAutofix(deploymentId, finding.id, { signal });
  if (outcome.kind !== 'accepted') return { outcome };
  return { outcome, follow: follow(deps, clock, finding, { before, since }, signal) };
}

async function follow(
  deps: FixRequestDeps,
  clock: FollowClock,
  finding: Finding,
  known: { before?: FixPullRequest; since: number },
  signal?: AbortSignal,
): Promise<FixFollowResult> {
  const policy = deps.policy ?? FOLLOW_POLICY;
  const giveUpAt = clock.now() + policy.giveUpAfterMs;
  for (let delay = policy.firstDelayMs; ; delay = Math.min(delay * 2, policy.maxDelayMs)) {
    if (clock.now() + delay > giveUpAt) return { kind: 'stillWaiting' };
    await clock.wait(delay, signal);
    const answer = await deps.stories.get(finding, { fresh: true, signal });
    if (!answer || answer.kind === 'notAvailable') return { kind: 'notAvailable' };
    const done = settled(fixPullRequestOf(answer.story), known);
    if (done) return done;
  }
}

/** What the story says became of this request, or undefined while it says nothing new. */
function settled(now: FixPullRequest, known: { before?: FixPullRequest; since: number }): FixFollowResult | undefined {
  // An event of an earlier request (an old failure, an older pull request) is no answer to this one.
  const isNew = now.at !== undefined ? now.at.getTime() >= known.since : now.url !== known.before?.url || now.state !== known.before?.state;
  if (!isNew) return undefined;
  if ((now.state === 'opened' || now.state === 'merged') && now.url) return { kind: now.state, url: now.url };
  if (now.state === 'failed') return { kind: 'failed', ...(now.reason ? { reason: now.reason } : {}) };
  return undefined;
}
