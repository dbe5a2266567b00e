// match_based_id kept as a number: equal ids give equal keys, different ids different keys, and
// anything that is not an id gives none (so the finding is never called new on a guess).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchKeyOf } from '../../../src/core/model/match-key';

void test('the same id always gives the same key, a safe integer', () => {
  const id = 'e536489e68267e16e71dd76a61e27815fd86a7e2417d96f8e0c43af48540a41d_0';
  const key = matchKeyOf(id);
  assert.equal(typeof key, 'number');
  assert.ok(Number.isSafeInteger(key) && (key ?? -1) >= 0);
  assert.equal(matchKeyOf(`${id}`), key);
});

void test('200 000 different ids (near neighbours included) give 200 000 different keys', () => {
  const keys = new Set<number | undefined>();
  const base = 'ba5e0000000000000000000000000000';
  for (let i = 0; i < 100_000; i++) {
    keys.add(matchKeyOf(`${base}_${i}`)); // ids that differ in one suffix
    keys.add(matchKeyOf(`${i.toString(16).padStart(32, '0')}`)); // and ids that differ in one hex digit
  }
  assert.equal(keys.size, 200_000);
  assert.notEqual(matchKeyOf('ab'), matchKeyOf('ba'), 'order matters');
});

void test('no key for what is not an id: absent, null, empty, a number', () => {
  for (const value of [undefined, null, '', 42, {}, ['a']]) assert.equal(matchKeyOf(value), undefined, JSON.stringify(value));
});
