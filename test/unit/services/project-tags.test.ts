// The rules of a project's tags: one tag checked, tags given one by one, text typed where nothing
// is allowed, and an edit planned against the tags a project has.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBranchName } from '../../../src/core/services/project-changes';
import { checkTag, checkTags, planTagEdit, tagsAfter, typedTags } from '../../../src/core/services/project-tags';
import type { Said } from '../../../src/core/l10n';

void describe('checkTag and checkTags', () => {
  void test('a tag the platform takes passes; what it would refuse is said, naming the tag', () => {
    assert.equal(checkTag('team-a'), undefined);
    assert.equal(checkTag('東京'), undefined);
    assert.match(checkTag('a,b') ?? '', /^"a,b" has characters a tag cannot have\./);
    assert.match(checkTag(' padded') ?? '', /has characters/);
    assert.equal(checkTag('x'.repeat(101)), `"${'x'.repeat(20)}…" is longer than 100 characters.`);
  });

  void test('tags given one by one are de-duplicated in order, at most 50, each checked', () => {
    assert.deepEqual(checkTags(['b', 'a', 'b']), ['b', 'a']);
    assert.deepEqual(checkTags([]), []);
    assert.equal(checkTags(Array.from({ length: 51 }, (_, i) => `t${i}`)), 'At most 50 tags at once.');
    assert.match(checkTags(['ok', 'not ok']) as string, /^"not ok"/);
  });

  void test('typed text may be empty (nothing to add); otherwise it is read as the tags typed', () => {
    assert.deepEqual(typedTags(''), []);
    assert.deepEqual(typedTags(' , ,'), []);
    assert.deepEqual(typedTags('team-a, pci'), ['team-a', 'pci']);
    assert.match(typedTags('team a') as string, /^"team a" has characters/);
  });
});

void describe('planTagEdit', () => {
  void test('adds what the project lacks, removes what it has, and says what it skipped', () => {
    assert.deepEqual(planTagEdit(['legacy', 'pci'], [' team-a ', 'pci', 'team-a'], ['legacy', 'gone']), {
      add: ['team-a'],
      remove: ['legacy'],
      had: ['pci'],
      lacked: ['gone'],
    });
  });

  void test('nothing asked is nothing to send', () => {
    assert.deepEqual(planTagEdit(['a'], [], []), { add: [], remove: [], had: [], lacked: [] });
  });

  void test('a tag the project has is removed as it is, even one the rules would refuse today', () => {
    assert.deepEqual(planTagEdit(['old tag'], [], ['old tag']), { add: [], remove: ['old tag'], had: [], lacked: [] });
    assert.match((planTagEdit(['a'], [], ['no;such']) as Said).english, /^"no;such" has characters/);
  });

  void test('a tag both added and removed, or one that cannot be a tag, is refused', () => {
    assert.equal((planTagEdit(['a'], ['b'], ['b']) as Said).english, '"b" is both added and removed: choose one.');
    assert.match((planTagEdit([], ['b c'], []) as Said).english, /^"b c" has characters/);
  });

  void test('the tags after an edit: those kept in their order, then those added', () => {
    assert.deepEqual(tagsAfter(['a', 'b', 'c'], { add: ['d', 'a'], remove: ['b'] }), ['a', 'c', 'd']);
  });
});

void describe('checkBranchName', () => {
  void test('a branch name, short or full, passes', () => {
    for (const ok of ['main', 'feature/login', 'refs/heads/release-1.2', 'user@x']) assert.equal(checkBranchName(ok), undefined, ok);
  });

  void test('what the platform could not take as a branch is refused, quoting it', () => {
    for (const bad of ['', '  ', 'None', 'refs/tags/v1', 'has space', 'a..b', '-x', 'x/', 'x.lock', 'a:b', 'a~1']) {
      assert.match(checkBranchName(bad) ?? '', /is not a branch name/, JSON.stringify(bad));
    }
  });
});
