// The words said at run time (docs/l10n-glossary.md, "Where the words live"): the English set is
// every `t('…')`/`said('…')` key in src (test/unit/helpers/l10n-keys.ts, the one parser), and each
// shipped language's l10n/bundle.l10n.<locale>.json has exactly those keys, the same `{n}`
// placeholders, and no empty value. A key left out of a bundle would show English in that language.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES, ROOT, rawManifest } from '../helpers/package-text';
import { collectKeys, englishKeys, keysOf } from '../helpers/l10n-keys';

const placeholders = (text: string): string[] => [...text.matchAll(/\{\d+\}/g)].map((m) => m[0]).sort();

function bundle(locale: string): Record<string, string> | undefined {
  const file = join(ROOT, 'l10n', `bundle.l10n.${locale}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : undefined;
}

void describe('run-time words through vscode.l10n', () => {
  void test('the parser reads literal keys, escapes and both quotes, and reports a call it cannot read', () => {
    const found = keysOf(
      [
        "t('Loading {0}…', noun);",
        't("Can\'t {0}")',
        't(`Plain`)',
        "said('Refresh failed')",
        'vscode.l10n.t(message, ...args)',
        "// t('in a comment')",
        't(`Loading ${noun}`)',
        't(variable)',
        "t('a' + b)",
      ].join('\n'),
    );
    assert.deepEqual(
      found.uses.map((u) => u.key),
      ['Loading {0}…', "Can't {0}", 'Plain', 'Refresh failed'],
    );
    assert.equal(found.unreadable.length, 3, found.unreadable.join('\n'));
  });

  void test('every t() and said() in src names its English text as one literal', () => {
    assert.deepEqual(collectKeys().unreadable, []);
  });

  void test('package.json points VS Code at the bundles', () => {
    assert.equal((rawManifest() as { l10n?: unknown }).l10n, './l10n');
    const ignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(ignore.includes('!l10n/**'), '.vscodeignore ships l10n/**');
  });

  const english = englishKeys();
  void test('the English set is not empty', () => {
    assert.ok(english.length > 100, `only ${english.length} keys found`);
  });

  for (const locale of LOCALES) {
    void test(`l10n/bundle.l10n.${locale}.json: exactly the English keys, the same placeholders, no empty value`, () => {
      const words = bundle(locale);
      assert.ok(words, `l10n/bundle.l10n.${locale}.json is missing`);
      const keys = Object.keys(words);
      const missing = english.filter((k) => !Object.hasOwn(words, k));
      const extra = keys.filter((k) => !english.includes(k));
      const empty = keys.filter((k) => (words[k] ?? '').trim() === '');
      const wrongPlaceholders = keys.filter((k) => english.includes(k) && placeholders(k).join() !== placeholders(words[k] ?? '').join());
      assert.deepEqual({ missing, extra, empty, wrongPlaceholders }, { missing: [], extra: [], empty: [], wrongPlaceholders: [] });
    });
  }
});
