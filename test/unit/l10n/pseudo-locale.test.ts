// The pseudo locale's words (test/integration/launch/pseudo-locale.mjs), generated at run time for
// `npm run test:pseudo-locale`: every English text of ours wrapped, accented and about 40 % longer,
// with what a translation keeps (placeholders, codicons, link targets, setting links, code spans)
// intact, and every key of package.nls.json and of the runtime words covered.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CLOSE,
  GROWTH,
  OPEN,
  PAD,
  PSEUDO_LOCALE,
  englishLeft,
  keptParts,
  pseudoText,
  pseudoWords,
  writePseudoLocale,
  wordsOf,
} from '../../integration/launch/pseudo-locale.mjs';
import { englishKeys } from '../helpers/l10n-keys';
import { ROOT } from '../helpers/package-text';

const englishNls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The text with what a translation keeps taken out: only the words a translation changes. */
const wordsPart = (text: string): string => keptParts(text).reduce((rest, kept) => rest.replace(kept, ''), text);

void test('a string is wrapped in the markers, every letter accented, and about 40 % longer', () => {
  const pseudo = pseudoText('Filter Findings');
  assert.equal(pseudo, '[Ƒîļţéŕ Ƒîñðîñĝš ~~~]');
  assert.ok(pseudo.startsWith(OPEN) && pseudo.endsWith(`${PAD}${CLOSE}`), pseudo);
  assert.deepEqual(wordsOf(pseudo), [], 'no plain ASCII word is left');
  const long = 'The primary branch of this project is still the one the platform chose';
  assert.ok(pseudoText(long).length >= Math.floor(long.length * (1 + GROWTH)), `${pseudoText(long).length} for ${long.length}`);
  assert.ok(pseudoText('OK').length > 'OK'.length, 'even a short word grows');
});

void test('placeholders, codicons, link targets, setting links, code spans and URLs are kept as they are', () => {
  const english = '$(shield) {0} of {1}: [Sign In](command:appsecFindings.signIn), see #http.proxy# and `appsecFindings.groupBy` at https://semgrep.dev/docs';
  const pseudo = pseudoText(english);
  for (const kept of ['$(shield)', '{0}', '{1}', '](command:appsecFindings.signIn)', '#http.proxy#', '`appsecFindings.groupBy`', 'https://semgrep.dev/docs']) {
    assert.ok(pseudo.includes(kept), `${kept} in ${pseudo}`);
  }
  assert.deepEqual(keptParts(pseudo), keptParts(english));
  assert.ok(pseudo.includes('[Šîĝñ Îñ](command:'), `the link's text is pseudo, its target is not: ${pseudo}`);
  assert.deepEqual(wordsOf(wordsPart(pseudo)), [], `only kept parts hold ASCII: ${pseudo}`);
});

void test('every key of package.nls.json and every runtime key has pseudo words that keep its kept parts', () => {
  const keys = englishKeys();
  const words = pseudoWords(englishNls, keys);
  assert.deepEqual(Object.keys(words.nls).sort(), Object.keys(englishNls).sort());
  assert.deepEqual(Object.keys(words.bundle).sort(), [...keys].sort());
  const english = new Map<string, string>([...Object.entries(englishNls), ...keys.map((k): [string, string] => [k, k])]);
  for (const [key, pseudo] of [...Object.entries(words.nls), ...Object.entries(words.bundle)]) {
    const source = english.get(key) ?? key;
    assert.ok(pseudo.startsWith(OPEN) && pseudo.endsWith(CLOSE), `${key}: ${pseudo}`);
    assert.deepEqual(keptParts(pseudo), keptParts(source), `${key} keeps its placeholders, codicons and links`);
    assert.deepEqual(wordsOf(wordsPart(pseudo)), [], `${key}: no English word outside the kept parts (${pseudo})`);
  }
});

void test('the run writes the words into the installed copy, with the runtime keys read from src at run time', () => {
  const installed = mkdtempSync(join(tmpdir(), 'appsec-pseudo-'));
  try {
    mkdirSync(join(installed, 'l10n'));
    writeFileSync(join(installed, 'package.nls.json'), JSON.stringify({ 'view.projects.name': 'Projects' }));
    const counts = writePseudoLocale(installed);
    const nls = JSON.parse(readFileSync(join(installed, `package.nls.${PSEUDO_LOCALE}.json`), 'utf8')) as Record<string, string>;
    const bundle = JSON.parse(readFileSync(join(installed, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`), 'utf8')) as Record<string, string>;
    assert.deepEqual(nls, { 'view.projects.name': pseudoText('Projects') });
    assert.deepEqual(Object.keys(bundle).sort(), [...englishKeys()].sort());
    assert.deepEqual(counts, { nlsKeys: 1, bundleKeys: englishKeys().length });
  } finally {
    rmSync(installed, { recursive: true, force: true });
  }
});

void test("English left: plain words of ours are listed; pseudo text, the platform's words and the contract are not", () => {
  const allowed = new Set(['acme', 'payments', 'api', 'AppSec']);
  assert.deepEqual(englishLeft(`acme/payments-api ${pseudoText('in workspace')} AppSec`, allowed), []);
  assert.deepEqual(englishLeft('acme/payments-api 3 dependencies in workspace', allowed), ['dependencies', 'in', 'workspace']);
});

void test('English left: a word the window joined from two allowed ones (a label and its description) is not English', () => {
  const allowed = new Set(['gateway', 'main', 'AppSec', 'CVE']);
  assert.deepEqual(englishLeft('gatewaymain AppSecCVE', allowed), []);
  assert.deepEqual(englishLeft('gatewayRefresh', allowed), ['gatewayRefresh']);
});
