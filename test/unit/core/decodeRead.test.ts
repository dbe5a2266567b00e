import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import {
  asObject,
  isObject,
  readBoolean,
  readIdString,
  readNumber,
  readSafeInteger,
  readString,
  readStringArray,
  readTimestamp,
} from '../../../src/core/model/decodeRead';
import { StringInterner } from '../../../src/core/model/interner';

void describe('readTimestamp', () => {
  void it('reads ISO 8601 with Z and milliseconds', () => {
    assert.equal(readTimestamp('2024-05-01T12:00:00.123Z')?.toISOString(), '2024-05-01T12:00:00.123Z');
  });

  void it('reads the space-separated form with microseconds and +00:00', () => {
    assert.equal(readTimestamp('2020-11-18 23:28:12.391807+00:00')?.toISOString(), '2020-11-18T23:28:12.391Z');
  });

  void it('applies a non-zero offset, with or without colon', () => {
    assert.equal(readTimestamp('2024-05-01T12:00:00+02:00')?.toISOString(), '2024-05-01T10:00:00.000Z');
    assert.equal(readTimestamp('2024-05-01T12:00:00-0130')?.toISOString(), '2024-05-01T13:30:00.000Z');
    assert.equal(readTimestamp('2024-05-01T12:00:00+05')?.toISOString(), '2024-05-01T07:00:00.000Z');
  });

  void it('reads a timestamp without zone or seconds as UTC', () => {
    assert.equal(readTimestamp('2024-05-01T12:00')?.toISOString(), '2024-05-01T12:00:00.000Z');
    assert.equal(readTimestamp('2024-05-01 12:00:07.5')?.toISOString(), '2024-05-01T12:00:07.500Z');
  });

  void it('returns undefined for anything that is not a real instant', () => {
    for (const bad of ['', 'yesterday', '2024-13-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01', 1714564800, null, undefined]) {
      assert.equal(readTimestamp(bad), undefined, String(bad));
    }
  });
});

void describe('scalar readers', () => {
  void it('readSafeInteger accepts safe integers and digit strings only', () => {
    assert.equal(readSafeInteger(42), 42);
    assert.equal(readSafeInteger('42'), 42);
    assert.equal(readSafeInteger(-3), -3);
    assert.equal(readSafeInteger(2 ** 53), undefined);
    assert.equal(readSafeInteger('123456789012345678901'), undefined);
    assert.equal(readSafeInteger(1.5), undefined);
    assert.equal(readSafeInteger('4x'), undefined);
    assert.equal(readSafeInteger(null), undefined);
  });

  void it('readIdString keeps text and converts numbers with String()', () => {
    assert.equal(readIdString('123456789012345678'), '123456789012345678');
    assert.equal(readIdString(123), '123');
    assert.equal(readIdString(Number.NaN), undefined);
    assert.equal(readIdString(''), undefined);
    assert.equal(readIdString({}), undefined);
  });

  void it('readString treats empty and non-strings as absent', () => {
    assert.equal(readString('a'), 'a');
    assert.equal(readString(''), undefined);
    assert.equal(readString(3), undefined);
  });

  void it('readBoolean, readNumber, readStringArray, isObject, asObject', () => {
    assert.equal(readBoolean(false), false);
    assert.equal(readBoolean('true'), undefined);
    assert.equal(readNumber(0.5), 0.5);
    assert.equal(readNumber(Number.POSITIVE_INFINITY), undefined);
    assert.equal(readNumber('1'), undefined);
    assert.deepEqual(readStringArray(['a', 1, null, 'b']), ['a', 'b']);
    assert.deepEqual(readStringArray('a'), []);
    assert.equal(isObject([]), false);
    assert.equal(isObject(null), false);
    assert.deepEqual(asObject({ a: 1 }), { a: 1 });
    assert.equal(asObject('x'), undefined);
  });
});

void describe('StringInterner', () => {
  void it('returns the first instance of equal strings', () => {
    const interner = new StringInterner();
    const a = interner.intern(['ru', 'le'].join(''));
    const b = interner.intern(['r', 'ule'].join(''));
    assert.equal(a, b);
    assert.equal(interner.size, 1);
  });
});

void describe('readTimestamp: the calendar and the clock', () => {
  const iso = (text: string): string | undefined => readTimestamp(text)?.toISOString();
  void test('month lengths and leap years: a day that does not exist is no instant', () => {
    for (const [text, real] of [
      ['2024-02-29T00:00:00Z', true],
      ['2023-02-29T00:00:00Z', false],
      ['2000-02-29T00:00:00Z', true],
      ['1900-02-29T00:00:00Z', false],
      ['2024-04-30T00:00:00Z', true],
      ['2024-04-31T00:00:00Z', false],
      ['2024-06-31T00:00:00Z', false],
      ['2024-09-31T00:00:00Z', false],
      ['2024-11-31T00:00:00Z', false],
      ['2024-12-31T00:00:00Z', true],
      ['2024-01-31T00:00:00Z', true],
      ['2024-02-30T00:00:00Z', false],
      ['2024-00-10T00:00:00Z', false],
      ['2024-13-10T00:00:00Z', false],
      ['2024-05-00T00:00:00Z', false],
      ['2024-05-32T00:00:00Z', false],
    ] as const) {
      assert.equal(iso(text) !== undefined, real, text);
    }
    assert.equal(iso('2024-02-29 23:59:59+00:00'), '2024-02-29T23:59:59.000Z');
  });

  void test('the clock: 24 h, 60 min and 60 s do not exist; both separators, seconds optional', () => {
    assert.equal(iso('2024-05-01T24:00:00Z'), undefined);
    assert.equal(iso('2024-05-01T23:60:00Z'), undefined);
    assert.equal(iso('2024-05-01T23:59:60Z'), undefined);
    assert.equal(iso('2024-05-01T23:59Z'), '2024-05-01T23:59:00.000Z');
    assert.equal(iso('2024-05-01 08:30:00Z'), '2024-05-01T08:30:00.000Z');
    assert.equal(iso('2024-05-01X08:30:00Z'), undefined);
    assert.equal(iso('2024/05/01T08:30:00Z'), undefined);
    assert.equal(iso('2024-05-01T08-30:00Z'), undefined);
  });

  void test('zones: Z, ±hh:mm, ±hhmm, ±hh; nothing may follow; no zone is UTC', () => {
    assert.equal(iso('2024-05-01T12:00:00-05:30'), '2024-05-01T17:30:00.000Z');
    assert.equal(iso('2024-05-01T12:00:00+0530'), '2024-05-01T06:30:00.000Z');
    assert.equal(iso('2024-05-01T12:00:00+05'), '2024-05-01T07:00:00.000Z');
    assert.equal(iso('2024-05-01T12:00:00'), '2024-05-01T12:00:00.000Z');
    assert.equal(iso('2024-05-01T12:00:00Zjunk'), undefined);
    assert.equal(iso('2024-05-01T12:00:00,5Z'), '2024-05-01T12:00:00.500Z');
    assert.equal(iso('2024-05-01T12:0a:00Z'), undefined);
    assert.equal(iso('2024-5-01T12:00:00Z'), undefined);
  });
});
