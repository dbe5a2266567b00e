// The input checks commands and agent tools share: each gives the typed value or one sentence
// naming the field that is wrong; the triage request is one schema for the command and the tool.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  anything,
  argumentList,
  boolean,
  id,
  listOf,
  map,
  object,
  oneOf,
  optional,
  parse,
  refine,
  text,
  wholeNumber,
  type Checked,
} from '../../../src/host/schema';
import { TRIAGE_INPUT } from '../../../src/host/triage-input';

const problem = <T>(checked: Checked<T>): string => (checked.ok ? assert.fail(`accepted: ${JSON.stringify(checked.value)}`) : checked.problem);
const value = <T>(checked: Checked<T>): T => (checked.ok ? checked.value : assert.fail(checked.problem));

void describe('schemas', () => {
  void test('scalars: text, boolean, one of, whole numbers in a range, ids from numbers or digits', () => {
    assert.equal(value(text('t').check('a')), 'a');
    assert.equal(problem(text('name must be text.').check(1)), 'name must be text.');
    assert.equal(value(boolean('b').check(false)), false);
    assert.equal(problem(boolean('follow must be true or false.').check('no')), 'follow must be true or false.');
    assert.equal(value(oneOf(['a', 'b'], 'x').check('b')), 'b');
    assert.equal(problem(oneOf(['a', 'b'], 'kind takes a, b.').check('c')), 'kind takes a, b.');
    assert.equal(value(wholeNumber(1, 5, 'n').check(5)), 5);
    for (const bad of [0, 6, 2.5, '3', Number.NaN]) assert.equal(problem(wholeNumber(1, 5, 'n 1–5').check(bad)), 'n 1–5');
    assert.equal(value(id('i').check('42')), 42);
    assert.equal(value(id('i').check(7)), 7);
    for (const bad of [-1, 'x', '1'.repeat(16), 1.5, null]) assert.equal(problem(id('ids are whole numbers').check(bad)), 'ids are whole numbers');
  });

  void test('lists say the list or the item that is wrong; optional lets undefined through', () => {
    const ids = listOf(id('each id is a number'), 'ids must be a list');
    assert.deepEqual(value(ids.check(['1', 2])), [1, 2]);
    assert.equal(problem(ids.check('1')), 'ids must be a list');
    assert.equal(problem(ids.check([1, 'x'])), 'each id is a number');
    assert.equal(problem(listOf(oneOf(['a'], ''), 'not a list', 'takes a').check(['b'])), 'takes a');
    assert.equal(value(optional(text('t')).check(undefined)), undefined);
    assert.equal(problem(optional(text('t must be text')).check(3)), 't must be text');
  });

  void test('objects: fields in order, every field in the result, other keys refused when closed', () => {
    const options = object(
      { ref: optional(text('ref must be text.')), follow: optional(boolean('follow must be true or false.')) },
      'options are an object.',
      (extra, known) => `no option ${extra} (it takes ${known})`,
    );
    assert.deepEqual(value(options.check({ ref: 'main' })), { ref: 'main', follow: undefined });
    assert.equal(problem(options.check([])), 'options are an object.');
    assert.equal(problem(options.check(null)), 'options are an object.');
    assert.equal(problem(options.check({ ref: 1, follow: 'x' })), 'ref must be text.', 'the first wrong field is said');
    assert.equal(problem(options.check({ saveto: '/x' })), 'no option saveto (it takes ref, follow)');
    const open = object({ a: text('a') }, 'object');
    assert.deepEqual(value(open.check({ a: 'x', b: 1 })), { a: 'x' }, 'an open object drops other keys');
  });

  void test("refine and map; argument lists by position; parse throws the caller's error", () => {
    const noSpaces = refine(text('ref must be text'), (r) => (/\s/.test(r) ? 'ref has no spaces' : undefined));
    assert.equal(problem(noSpaces.check('a b')), 'ref has no spaces');
    assert.equal(problem(noSpaces.check(1)), 'ref must be text');
    assert.equal(value(map(text('t'), (s) => s.length).check('abc')), 3);
    assert.equal(problem(map(text('t'), (s) => s.length).check(1)), 't');
    const args = argumentList(
      anything((v) => (typeof v === 'string' ? v.toUpperCase() : undefined)),
      optional(wholeNumber(1, 9, 'n must be 1–9')),
    );
    assert.deepEqual(value(args.check(['a'])), ['A', undefined]);
    assert.deepEqual(value(args.check([])), [undefined, undefined]);
    assert.equal(problem(args.check(['a', 10])), 'n must be 1–9');
    assert.throws(
      () => parse(args, ['a', 0], (p) => new RangeError(p)),
      (e: unknown) => e instanceof RangeError && e.message === 'n must be 1–9',
    );
    assert.throws(() => parse(text('t is text'), 1), /t is text/);
  });
});

void describe('the triage request (command and agent tool)', () => {
  void test('ids as numbers or digits; state, reason and note as the service takes them', () => {
    assert.deepEqual(value(TRIAGE_INPUT.check({ findingIds: ['4', 5], issueType: 'sast', state: 'ignored', reason: 'false_positive', note: 'n' })), {
      issueType: 'sast',
      ids: [4, 5],
      state: 'ignored',
      reason: 'false_positive',
      note: 'n',
    });
    assert.deepEqual(value(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'secrets', note: 'only a note' })), {
      issueType: 'secrets',
      ids: [1],
      state: undefined,
      reason: undefined,
      note: 'only a note',
    });
  });

  void test("each wrong field is named, and the service's own rules are checked before anything is sent", () => {
    assert.match(problem(TRIAGE_INPUT.check('x')), /findingIds, issueType/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'dast', state: 'fixing' })), /^issueType must be "sast", "sca" or "secrets"/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: 1, issueType: 'sast', state: 'fixing' })), /^findingIds must be a list/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: ['twelve'], issueType: 'sast', state: 'fixing' })), /^findingIds must be whole numbers/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', state: 'closed' })), /^state takes ignored, reviewing, fixing, reopened/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', state: 'ignored', reason: 'bored' })), /^reason takes/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', note: 3 })), /^note must be text/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', state: 'fixing', comment: 'x' })), /"comment" is not a triage field/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', state: 'reviewing', reason: 'no_time' })), /only with "ignored"/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast', note: 'x'.repeat(3001) })), /at most 3,000/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [], issueType: 'sast', state: 'fixing' })), /at least one/);
    assert.match(problem(TRIAGE_INPUT.check({ findingIds: [1], issueType: 'sast' })), /state or a note/);
  });
});
