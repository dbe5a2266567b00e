// package.json names each word a person reads by a key (`%command.refresh.title%`); VS Code
// reads the text from package.nls.json, or from package.nls.<locale>.json in another display
// language (docs/l10n-glossary.md, "Where the words live"). Tests that check what a person
// reads resolve the keys here, the way VS Code does, so they read the text rather than the key.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../../..');

/** The display languages shipped, as VS Code names them (`package.nls.<locale>.json`). */
export const LOCALES = ['de', 'fr', 'es', 'pt-br', 'ja', 'zh-cn'] as const;
export type Locale = (typeof LOCALES)[number];

/** The pattern VS Code replaces: the whole string is one key between percent signs. */
const KEY = /^%([\w.-]+)%$/;

/** The key a manifest string names, or undefined for a literal string. */
export function nlsKey(value: string): string | undefined {
  return KEY.exec(value)?.[1];
}

/** package.nls.json (English), or one locale's file. */
export function nlsBundle(locale?: Locale): Record<string, string> {
  const file = locale === undefined ? 'package.nls.json' : `package.nls.${locale}.json`;
  return JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, string>;
}

/** package.json as written, keys unresolved. */
export function rawManifest(): unknown {
  return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as unknown;
}

function resolveStrings(value: unknown, bundle: Record<string, string>, fallback: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const key = nlsKey(value);
    if (key === undefined) return value;
    const text = bundle[key] ?? fallback[key];
    if (text === undefined) throw new Error(`package.json names %${key}%, which package.nls.json does not have`);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => resolveStrings(v, bundle, fallback));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveStrings(v, bundle, fallback)]));
  }
  return value;
}

/**
 * package.json as VS Code shows it: every `%key%` replaced by its text in English, or in `locale`
 * (a key the locale lacks falls back to English, as in VS Code).
 */
export function manifestText<T>(locale?: Locale): T {
  const english = nlsBundle();
  return resolveStrings(rawManifest(), locale === undefined ? english : nlsBundle(locale), english) as T;
}
