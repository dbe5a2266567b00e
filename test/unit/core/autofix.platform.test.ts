/**
 * A fix pull request asked of the platform, through the client, against the local platform:
 * each refusal with its own sentence, a refused role and a deployment without the call, and an
 * accepted request followed until its pull request shows on the finding.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { AUTOFIX_SENTENCES, type AutofixOutcome, type AutofixRefusal } from '../../../src/core/model/autofix-outcome';
import { PlatformError } from '../../../src/core/model/errors';
import { fixPullRequestOf, type FindingStory } from '../../../src/core/model/finding-story';
import { AUTOFIX_ERROR_TYPES, type AutofixErrorType } from '../../platform/autofix';
import { generateDeployment, startPlatformServer } from '../../platform/index';
import { allFindings } from './helpers/allPages';
import { usePlatform } from './helpers/platformFixture';

const fx = usePlatform();

void afterEach(() => {
  fx.platform.setAutofixOutcome('accept');
  fx.platform.restoreProducts();
});

/** Written out here rather than derived, so a wrong mapping in the client cannot agree with itself. */
const EXPECTED: Record<AutofixErrorType, AutofixRefusal> = {
  AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND: 'issueNotFound',
  AUTOFIX_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE: 'unsupportedIssueType',
  AUTOFIX_ERROR_TYPE_AUTOFIX_NOT_ENABLED: 'autofixNotEnabled',
  AUTOFIX_ERROR_TYPE_INVALID_REPOSITORY: 'invalidRepository',
  AUTOFIX_ERROR_TYPE_NO_WRITE_ACCESS: 'noWriteAccess',
  AUTOFIX_ERROR_TYPE_SCM_CONFIG_NOT_FOUND: 'scmConfigNotFound',
  AUTOFIX_ERROR_TYPE_SCM_TOKEN_FAILED: 'scmTokenFailed',
  AUTOFIX_ERROR_TYPE_CODE_ACCESS_NOT_GRANTED: 'codeAccessNotGranted',
  AUTOFIX_ERROR_TYPE_CREDITS_EXHAUSTED: 'creditsExhausted',
  AUTOFIX_ERROR_TYPE_IN_FLIGHT_FIX_PENDING: 'inFlightFixPending',
  AUTOFIX_ERROR_TYPE_NO_RECOMMENDED_UPGRADE: 'noRecommendedUpgrade',
  AUTOFIX_ERROR_TYPE_INVALID_ISSUE_STATE: 'invalidIssueState',
};

const openCodeFinding = (skip = 0): number => {
  const found = fx.platform.data.sast.filter((f) => f.status === 'open' && (f.click_to_fix_prs?.length ?? 0) === 0)[skip];
  assert.ok(found?.id);
  return found.id;
};

function refusal(outcome: AutofixOutcome): AutofixRefusal | undefined {
  return outcome.kind === 'refused' ? outcome.refusal : undefined;
}

async function storyOf(id: number): Promise<FindingStory> {
  const answer = await fx.client.findingStory(fx.deploymentId(), id);
  assert.equal(answer.kind, 'story');
  return answer.story;
}

void describe('a fix pull request asked of the platform', () => {
  for (const errorType of AUTOFIX_ERROR_TYPES) {
    void it(`${errorType} is refused with its own plain sentence`, async () => {
      fx.platform.setAutofixOutcome(errorType);
      const outcome = await fx.client.requestAutofix(fx.deploymentId(), openCodeFinding());
      assert.equal(outcome.kind, 'refused');
      if (outcome.kind !== 'refused') return;
      assert.equal(outcome.refusal, EXPECTED[errorType]);
      assert.equal(outcome.sentence, AUTOFIX_SENTENCES[EXPECTED[errorType]]);
      assert.equal(outcome.errors[0]?.errorType, errorType);
      assert.ok(outcome.errors[0]?.message);
      assert.doesNotMatch(outcome.sentence, /AUTOFIX_ERROR_TYPE|_/);
      assert.equal(fx.platform.requests.length, 1);
    });
  }

  void it('every refusal has a sentence of its own, ending with a full stop', () => {
    const sentences = Object.values(AUTOFIX_SENTENCES);
    assert.equal(new Set(sentences).size, sentences.length);
    assert.ok(sentences.every((s) => /^[A-Z].{20,}\.$/.test(s)));
    assert.match(AUTOFIX_SENTENCES.autofixNotEnabled, /^Autofix is not enabled for this organization/);
  });

  void it('reads a refusal sent with an error status, a 403 included, as the same refusal', async () => {
    fx.platform.setAutofixOutcome({ errorType: 'AUTOFIX_ERROR_TYPE_CREDITS_EXHAUSTED', status: 400 });
    const credits = await fx.client.requestAutofix(fx.deploymentId(), openCodeFinding());
    assert.deepEqual([refusal(credits), credits.kind === 'refused' && credits.status], ['creditsExhausted', 400]);
    fx.platform.setAutofixOutcome({ errorType: 'AUTOFIX_ERROR_TYPE_NO_WRITE_ACCESS', status: 403 });
    assert.equal(refusal(await fx.client.requestAutofix(fx.deploymentId(), openCodeFinding())), 'noWriteAccess');
  });

  void it('an error type it does not know says what the platform said', async () => {
    fx.platform.setAutofixOutcome({ errorType: 'AUTOFIX_ERROR_TYPE_REPOSITORY_TOO_LARGE', status: 200 });
    const outcome = await fx.client.requestAutofix(fx.deploymentId(), openCodeFinding());
    assert.equal(refusal(outcome), 'other');
    assert.match(outcome.kind === 'refused' ? outcome.sentence : '', /did not accept .*: repository too large$/);
  });

  void it('refuses of itself what the platform would: an unknown finding, a fixed one, a dependency without an upgrade', async () => {
    const { data } = fx.platform;
    assert.equal(refusal(await fx.client.requestAutofix(fx.deploymentId(), 99_999_999)), 'issueNotFound');
    const fixed = data.sast.find((f) => f.status === 'fixed');
    assert.equal(refusal(await fx.client.requestAutofix(fx.deploymentId(), fixed?.id ?? -1)), 'invalidIssueState');
    const stuck = data.sca.find((f) => f.status === 'open' && (f.fix_recommendations?.length ?? 0) === 0);
    assert.equal(refusal(await fx.client.requestAutofix(fx.deploymentId(), stuck?.id ?? -1)), 'noRecommendedUpgrade');
  });

  void it('a role that may not write: the 403 is thrown as for every write, and nothing is asked', async () => {
    fx.platform.setReadOnly(true);
    const id = openCodeFinding(1);
    await assert.rejects(
      fx.client.requestAutofix(fx.deploymentId(), id),
      (e) => PlatformError.is(e, 'forbidden') && /role does not allow asking for a fix pull request/.test(e.message),
    );
    assert.equal(fx.platform.requests.length, 1, 'a write is never retried');
    fx.platform.setReadOnly(false);
    assert.equal(fixPullRequestOf(await storyOf(id)).state, 'none');
  });

  void it('a deployment without fix pull requests (404) is "not available" with its sentence', async () => {
    fx.platform.setProduct('autofix', 'default');
    const outcome = await fx.client.requestAutofix(fx.deploymentId(), openCodeFinding());
    assert.deepEqual([refusal(outcome), outcome.kind === 'refused' && outcome.status], ['notAvailable', 404]);
    assert.equal(outcome.kind === 'refused' && outcome.sentence, AUTOFIX_SENTENCES.notAvailable);
  });

  void it('a deployment started without the story and fix calls refuses both as products it lacks', async () => {
    const data = generateDeployment({ seed: 3, projects: 1, sastPerProject: 10, scaPerProject: 0 });
    const lacking = await startPlatformServer({ data, without: ['issue-v2', 'autofix'] });
    const client = fx.makeClient({ baseUrl: lacking.url, getToken: () => Promise.resolve(lacking.token) });
    try {
      const id = data.sast[0]?.id ?? -1;
      const story = await client.findingStory(String(data.deployment.id), id);
      assert.equal(story.kind === 'notAvailable' && story.unavailable.status, 404);
      assert.equal(refusal(await client.requestAutofix(String(data.deployment.id), id)), 'notAvailable');
    } finally {
      await client.close();
      await lacking.close();
    }
  });

  void it('accepted, then the pull request shows on the finding, in its story and in the findings list', async () => {
    fx.platform.setAutofixDelay(1000);
    const id = openCodeFinding(2);
    const wire = fx.platform.data.sast.find((f) => f.id === id);
    assert.equal(fixPullRequestOf(await storyOf(id)).state, 'none');

    assert.deepEqual(await fx.client.requestAutofix(fx.deploymentId(), id), { kind: 'accepted' });
    const pending = fixPullRequestOf(await storyOf(id));
    assert.deepEqual([pending.state, pending.url], ['requested', undefined], 'accepted is not yet a pull request');
    assert.equal(refusal(await fx.client.requestAutofix(fx.deploymentId(), id)), 'inFlightFixPending');

    const deadline = Date.now() + 5_000;
    let fix = pending;
    while (fix.state !== 'opened' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      fix = fixPullRequestOf(await storyOf(id));
    }
    assert.equal(fix.state, 'opened');
    assert.match(fix.url ?? '', new RegExp(`^${wire?.repository?.url ?? '-'}/(pull|-/merge_requests)/\\d+$`));
    const story = await storyOf(id);
    assert.equal(story.fixPullRequest?.id, /(\d+)$/.exec(fix.url ?? '')?.[1]);
    assert.deepEqual(
      story.activity?.slice(-2).map((a) => a.kind),
      ['fixPrRequested', 'fixPrOpened'],
    );

    const listed = await allFindings(() => fx.client.findings(fx.slug(), 'sast', { repos: [wire?.repository?.name ?? ''], ref: wire?.ref ?? '' }));
    const finding = listed.findings.find((f) => f.id === id);
    assert.ok(finding);
    const detail = await fx.client.findingDetail(fx.slug(), finding);
    assert.deepEqual(detail?.clickToFixPrUrls, [fix.url]);
  });
});
