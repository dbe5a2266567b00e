// A finding's story in the words every view shares: where else it is and in what state, each
// event of its history, its owners, what the user may not do, and its fix pull request.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { activityLine, elsewhereText, fixPullRequestText, mayIgnore, ownersText, triageLimitText } from '../../../src/core/services/story-words';

void describe('story words', () => {
  void test('elsewhere: the state, then the branch or pull request', () => {
    assert.equal(elsewhereText({ id: 1, ref: 'refs/heads/feature/login', state: 'fixed' }), 'fixed on feature/login');
    assert.equal(elsewhereText({ id: 2, ref: 'refs/pull/12/head', pullRequestId: '12', state: 'open' }), 'open in pull request #12');
    assert.equal(elsewhereText({ id: 6, ref: 'feature/x', pullRequestId: '345', state: 'reviewing' }), 'being reviewed in pull request #345 (feature/x)');
    assert.equal(elsewhereText({ id: 3, state: 'ignored_code' }), 'ignored in the code (nosemgrep) on another branch');
    assert.equal(elsewhereText({ id: 4, ref: 'main' }), 'in an unknown state on main');
    assert.equal(elsewhereText({ id: 5, ref: 'main', state: 'archived_someday' }), 'archived_someday on main', 'a state added later is kept as sent');
  });

  void test("activity: the platform's title, else our words for the kind; who, why and the note apart", () => {
    const date = new Date('2024-05-01T10:00:00Z');
    assert.deepEqual(activityLine({ kind: 'triage', date, title: 'Triaged as ignored', actor: 'Dana', triageReason: 'false_positive', note: 'test data' }), {
      text: 'Triaged as ignored',
      date,
      actor: 'Dana',
      reason: 'false positive',
      note: 'test data',
    });
    assert.deepEqual(activityLine({ kind: 'fixPrOpened' }), { text: 'A fix pull request was opened' });
    assert.deepEqual(activityLine({ kind: 'other', rawType: 'HISTORY_TYPE_NEW_THING', title: '  ' }), { text: 'Something happened (HISTORY_TYPE_NEW_THING)' });
  });

  void test('owners, teams marked; none is nothing', () => {
    assert.equal(
      ownersText([
        { name: 'acme/api-maintainers', isTeam: true },
        { name: 'Dana Whitfield', isTeam: false },
      ]),
      'acme/api-maintainers (team), Dana Whitfield',
    );
    assert.equal(ownersText([]), undefined);
  });

  void test('triage permission: Ignore works unless the platform said the user may only request an exception, or nothing', () => {
    assert.deepEqual([undefined, 'ignore', 'request', 'none'].map(mayIgnore), [true, true, false, false]);
    assert.match(triageLimitText('request') ?? '', /only request an exception, which is done in the platform\.$/);
    assert.match(triageLimitText('request', 'requested') ?? '', /An exception is already requested\.$/);
    assert.match(triageLimitText('none') ?? '', /may not ignore this finding or request an exception/);
    assert.equal(triageLimitText('ignore'), undefined);
  });

  void test('the fix pull request: asked for is not open', () => {
    assert.equal(fixPullRequestText({ state: 'requested' }), 'asked for: the platform opens it once the fix is written');
    assert.equal(fixPullRequestText({ state: 'opened', url: 'https://x/pull/1' }), 'open');
    assert.equal(fixPullRequestText({ state: 'failed', reason: 'no write access' }), 'could not be made: no write access');
    assert.equal(fixPullRequestText({ state: 'merged' }), 'merged');
    assert.equal(fixPullRequestText({ state: 'none' }), undefined);
  });
});
