/**
 * A large page parsed a slice at a time gives exactly what JSON.parse of the whole text gives,
 * however the text was cut into the chunks it arrived in, and whatever the strings hold.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseInSlices, TextPieces } from '../../../src/core/api/json-in-slices';
import { JsonLayoutScanner } from '../../../src/core/api/json-layout';

/** Reads `text` as arriving in `cuts` pieces, as `readCappedText` does, and parses it in slices. */
async function parsed(text: string, cuts: readonly number[], sliceChars: number): Promise<{ value: unknown; turns: number }> {
  const pieces = new TextPieces();
  const scanner = new JsonLayoutScanner();
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    const piece = text.slice(from, cut);
    pieces.add(piece);
    scanner.push(piece);
    from = cut;
  }
  let turns = 0;
  const value = await parseInSlices(pieces, scanner.end(), sliceChars, () => {
    turns++;
    return Promise.resolve();
  });
  return { value, turns };
}

/** A small seeded generator, so a failure can be run again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

// Strings that look like structure, escapes of every kind, and characters outside the BMP.
const NASTY = ['},{', '","', '\\', '\\"', '"', '[', ']', '{', '}', ',', '\n', '\u2028', '🙂', 'ü', '\\u0041', ''];

function value(next: () => number, depth: number): unknown {
  const kind = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (kind === 0) return Math.floor(next() * 1e6) / 100;
  if (kind === 1) return next() < 0.5 ? null : next() < 0.5;
  if (kind === 2 || kind === 3) return Array.from({ length: 1 + Math.floor(next() * 3) }, () => NASTY[Math.floor(next() * NASTY.length)]).join('x');
  if (kind === 4) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`${NASTY[Math.floor(next() * NASTY.length)]}${i}`, value(next, depth + 1)]),
  );
}

function page(next: () => number, count: number): { findings: unknown[]; cursor: unknown; other: unknown[] } {
  return {
    findings: Array.from({ length: count }, (_, id) => ({ id, message: value(next, 2), trace: [value(next, 3), { a: [value(next, 3)] }] })),
    cursor: value(next, 2),
    other: [1, '],[', { x: '},{' }],
  };
}

void describe('parsing a large page in slices', () => {
  void it('gives what JSON.parse gives, for pages with strings that look like structure, cut into chunks anywhere', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const text = JSON.stringify(page(next, 20 + Math.floor(next() * 60)), null, seed % 4 === 0 ? 2 : undefined);
      const cuts = Array.from({ length: Math.floor(next() * 30) }, () => Math.floor(next() * text.length)).sort((a, b) => a - b);
      const { value: got, turns } = await parsed(text, cuts, 40 + Math.floor(next() * 400));
      assert.deepEqual(got, JSON.parse(text), `seed ${seed}`);
      assert.ok(turns > 1, `seed ${seed}: the page was parsed in more than one slice`);
    }
  });

  void it('a page of megabytes arriving in chunks of 64 KB comes out whole, in slices of about the size asked', async () => {
    const next = random(7);
    const text = JSON.stringify(page(next, 30_000));
    assert.ok(text.length > 2 * 1024 * 1024, `the page is ${text.length} characters`);
    const cuts = Array.from({ length: Math.floor(text.length / 65536) }, (_, i) => (i + 1) * 65536);
    const { value: got, turns } = await parsed(text, cuts, 256 * 1024);
    assert.deepEqual(got, JSON.parse(text));
    assert.ok(turns >= Math.floor(text.length / (256 * 1024)) - 1, `${turns} turns for ${text.length} characters`);
  });

  void it('handles a chunk that ends between a backslash and the character it escapes, at every position', async () => {
    const text = JSON.stringify({ findings: [{ m: 'a\\"b\\\\' }, { m: '\\\\"' }, { m: '"},{"' }, {}, [], '\\'] });
    for (let cut = 1; cut < text.length; cut++) {
      assert.deepEqual((await parsed(text, [cut], 8)).value, JSON.parse(text), `cut at ${cut}`);
    }
  });

  void it('a top-level array, empty arrays, a key given twice and a __proto__ key come out as JSON.parse has them', async () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ i }));
    const texts = [
      JSON.stringify(many),
      '{"findings":[],"more":[ ]}',
      `{"findings":${JSON.stringify(many)},"findings":[1]}`,
      // The last value is an empty array, as the emptied one looks: JSON.parse keeps the last.
      `{"findings":${JSON.stringify(many)},"findings":[]}`,
      `{"findings":${JSON.stringify(many)},"findings":[ ],"x":1}`,
      `{"findings":${JSON.stringify(many)},"findings":null}`,
      `{"findings":${JSON.stringify(many)},"findings":${JSON.stringify(many.slice(1))}}`,
      `{"__proto__":${JSON.stringify(many)},"x":1}`,
      `  {"a" : ${JSON.stringify(many, null, 1)} , "b":"c"}  `,
      '"just a string"',
      '12',
    ];
    for (const text of texts) {
      const { value: got } = await parsed(text, [3, 17], 16);
      assert.deepEqual(got, JSON.parse(text), text.slice(0, 40));
      if (text.includes('__proto__')) assert.equal(Object.getPrototypeOf(got), Object.prototype, 'the key is a property, not the prototype');
    }
  });

  void it('refuses what JSON.parse refuses: a cut-off page, text after the value, a broken element', async () => {
    const text = JSON.stringify({ findings: Array.from({ length: 50 }, (_, i) => ({ i, m: `m${i}` })) });
    for (const broken of [text.slice(0, -20), `${text}]`, text.replace('"m7"', '"m7'), text.replace('{"i":9,', '{"i":9,,'), `${text}{}`]) {
      await assert.rejects(parsed(broken, [10, 100], 32), SyntaxError, broken.slice(-30));
    }
  });

  void it('a page under the slice size is parsed at once, without a turn given away', async () => {
    const text = JSON.stringify({ findings: [{ a: 1 }, { a: 2 }] });
    const { value: got, turns } = await parsed(text, [5], 1024);
    assert.deepEqual(got, JSON.parse(text));
    assert.equal(turns, 0);
  });
});
