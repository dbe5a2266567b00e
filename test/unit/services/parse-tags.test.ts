// Tags typed into the "Tag Project…" box.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTags } from '../../../src/core/services/projects-service';

void describe('parseTags', () => {
  void test('comma-separated tags are trimmed, de-duplicated and kept in the order typed', () => {
    assert.deepEqual(parseTags(' team-payments, pci ,team-payments,  prod '), ['team-payments', 'pci', 'prod']);
  });

  void test('empty entries between commas are ignored', () => {
    assert.deepEqual(parseTags(',a,, ,b,'), ['a', 'b']);
  });

  void test('the characters a tag may have', () => {
    assert.deepEqual(parseTags('v1.2, owner:alice, team/sub, me@corp, c++, snake_case, Ünïcode, 東京'), [
      'v1.2', 'owner:alice', 'team/sub', 'me@corp', 'c++', 'snake_case', 'Ünïcode', '東京',
    ]);
  });

  void test('nothing typed asks for at least one tag, with an example', () => {
    for (const input of ['', '   ', ',', ' , ,']) {
      assert.equal(parseTags(input), 'Type at least one tag, e.g. "team-payments, pci".', JSON.stringify(input));
    }
  });

  void test('a tag with a character it cannot have is refused, naming the tag', () => {
    for (const bad of ['has space', 'semi;colon', 'quote"d', '-leading-dash', '.hidden', 'tab\there', 'emoji🔥']) {
      const result = parseTags(`ok, ${bad}`);
      assert.equal(typeof result, 'string', bad);
      assert.ok((result as string).startsWith(`"${bad}" has characters a tag cannot have.`), `${bad}: ${String(result)}`);
    }
  });

  void test('a tag longer than 100 characters is refused, quoted short', () => {
    assert.deepEqual(parseTags('a'.repeat(100)), ['a'.repeat(100)]);
    assert.equal(parseTags('a'.repeat(101)), `"${'a'.repeat(20)}…" is longer than 100 characters.`);
  });

  void test('at most 50 tags at once (after de-duplication)', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    assert.deepEqual(parseTags(fifty.join(',')), fifty);
    assert.equal(parseTags([...fifty, 't50'].join(',')), 'At most 50 tags at once.');
    assert.deepEqual(parseTags([...fifty, ...fifty].join(',')), fifty);
  });
});
