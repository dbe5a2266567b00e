// The pseudo locale (`--locale qps-ploc`, VS Code's own id for it): every word of ours wrapped in
// markers and lengthened with accented letters, so that a screenshot shows where a longer language
// breaks the layout and where English is left (a string that skipped localization stays plain
// ASCII). Its words are generated at run time from the English set, never shipped: the keys of
// package.nls.json and every `t('…')` key read from src (test/unit/helpers/l10n-keys.ts), written
// as package.nls.qps-ploc.json and l10n/bundle.l10n.qps-ploc.json into the installed copy of the
// extension for that run only.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const PSEUDO_LOCALE = 'qps-ploc';

/** What opens and closes every pseudo string, and pads it: a cut end shows as a missing `~]`. */
export const OPEN = '[';
export const CLOSE = ']';
export const PAD = '~';

/** How much longer a pseudo string is than its English, markers included (German and French run about this much longer). */
export const GROWTH = 0.4;
/** The markers and the space before the padding. */
const FRAME = OPEN.length + CLOSE.length + 1;

const PLAIN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ACCENTED = 'áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ';
const LOOKALIKE = new Map([...PLAIN].map((c, i) => [c, [...ACCENTED][i]]));

/**
 * The parts a translation keeps as they are: `{0}` placeholders, `$(codicon)`s, a markdown link's
 * target (`](command:…)`, kept with its brackets), `#setting.id#` links and `code` spans (setting
 * keys and values, a contract), and bare URLs.
 */
const KEPT = /\{\d+\}|\$\([\w~-]+\)|\]\([^)\s]*\)|#[\w.-]+#|`[^`]*`|https?:\/\/[^\s)`]+/g;

/** The English text in accented look-alikes, wrapped in the markers and padded to about 40 % longer (at least one pad). */
export function pseudoText(english) {
  let out = '';
  let length = 0;
  let at = 0;
  const accent = (plain) => {
    for (const c of plain) out += LOOKALIKE.get(c) ?? c;
    length += [...plain].length;
  };
  for (const kept of english.matchAll(KEPT)) {
    accent(english.slice(at, kept.index));
    out += kept[0];
    at = kept.index + kept[0].length;
  }
  accent(english.slice(at));
  const pad = Math.max(1, Math.ceil(length * (1 + GROWTH)) - length - FRAME);
  return `${OPEN}${out} ${PAD.repeat(pad)}${CLOSE}`;
}

/** The parts of a text a translation must keep, in order (for the tests: a pseudo string keeps them all). */
export function keptParts(text) {
  return [...text.matchAll(KEPT)].map((m) => m[0]);
}

/** package.nls and the runtime bundle in pseudo words: one entry for each English key. */
export function pseudoWords(nls, runtimeKeys) {
  return {
    nls: Object.fromEntries(Object.entries(nls).map(([key, english]) => [key, pseudoText(english)])),
    bundle: Object.fromEntries(runtimeKeys.map((key) => [key, pseudoText(key)])),
  };
}

/**
 * The English keys of the runtime words, read from src now by the unit tests' reader (a key added
 * since the last build is there too). In a child Node with tsx: loading TypeScript in this process
 * would leave module URLs that c8's report cannot read when the unit tests call it. The path is
 * the repo root's, where the launchers and the unit tests run.
 */
export function runtimeKeys() {
  const reader = resolve('test/unit/helpers/l10n-keys.ts');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', 'process.stdout.write(JSON.stringify(require(process.argv[1]).englishKeys()))', reader], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`reading the runtime keys from src failed (exit ${child.status ?? child.signal}):\n${child.stderr}`);
  return JSON.parse(child.stdout);
}

/**
 * Writes package.nls.qps-ploc.json and l10n/bundle.l10n.qps-ploc.json into the installed
 * extension folder (the .vsix's copy for this run; the repo is never written). The English of
 * package.json is the installed package.nls.json.
 */
export function writePseudoLocale(extensionDir) {
  const nls = JSON.parse(readFileSync(join(extensionDir, 'package.nls.json'), 'utf8'));
  const words = pseudoWords(nls, runtimeKeys());
  writeFileSync(join(extensionDir, `package.nls.${PSEUDO_LOCALE}.json`), `${JSON.stringify(words.nls, null, 2)}\n`);
  writeFileSync(join(extensionDir, 'l10n', `bundle.l10n.${PSEUDO_LOCALE}.json`), `${JSON.stringify(words.bundle, null, 2)}\n`);
  return { nlsKeys: Object.keys(words.nls).length, bundleKeys: Object.keys(words.bundle).length };
}

/** The plain-ASCII words of a text (two letters or more): pseudo text has none outside what it keeps. */
export function wordsOf(text) {
  return text.match(/[A-Za-z]{2,}/g) ?? [];
}

/**
 * The words of a text the window shows that are English left: plain ASCII words that are not
 * among `allowed` (the platform's names and texts, the parts a translation keeps, the contract).
 * A window's text joins adjacent elements without a space (a label and its description:
 * `gateway` + `main`), so a word made of two allowed words is allowed too.
 */
export function englishLeft(text, allowed) {
  const joined = (word) => [...word].some((_, i) => i >= 2 && i <= word.length - 2 && allowed.has(word.slice(0, i)) && allowed.has(word.slice(i)));
  return [...new Set(wordsOf(text).filter((word) => !allowed.has(word) && !joined(word)))];
}
