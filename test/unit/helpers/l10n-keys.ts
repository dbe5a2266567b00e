// The English keys of the run-time words: every `t('…')` and `said('…')` in src, read by a small
// parser (the one place that knows how a key is written; docs/l10n-glossary.md, "Where the words
// live"). The first argument must be one string literal (quotes or a backtick without `${`): a
// call it cannot read is reported, since its words could never be in a bundle.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from './package-text';

/** Where `t` and `said` are defined, not called. */
const DEFINITIONS = new Set(['src/core/l10n.ts']);

export interface KeyUse {
  readonly key: string;
  readonly file: string;
  readonly line: number;
}

export interface CollectedKeys {
  readonly uses: readonly KeyUse[];
  /** Calls whose first argument is not one string literal: `file:line: text`. */
  readonly unreadable: readonly string[];
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The string literal starting at `source[start]` (a quote or backtick): its value and where it ends, or undefined. */
export function readLiteral(source: string, start: number): { value: string; end: number } | undefined {
  const quote = source[start];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  let value = '';
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      i++;
    } else if (c === quote) {
      return { value, end: i + 1 };
    } else if (quote === '`' && c === '$' && source[i + 1] === '{') {
      return undefined;
    } else if (c === '\n' && quote !== '`') {
      return undefined;
    } else {
      value += c;
    }
  }
  return undefined;
}

/** The keys of one file's source (comments blanked first, so an example in a comment is no key). */
export function keysOf(source: string, file = 'source.ts'): CollectedKeys {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, (m, head: string) => head + ' '.repeat(m.length - head.length));
  const uses: KeyUse[] = [];
  const unreadable: string[] = [];
  for (const match of code.matchAll(/(?<![\w.$])(t|said)\(\s*/g)) {
    const at = (match.index ?? 0) + match[0].length;
    const line = code.slice(0, match.index).split('\n').length;
    const literal = readLiteral(code, at);
    const after = literal ? code.slice(literal.end).trimStart()[0] : undefined;
    if (literal && (after === ',' || after === ')')) uses.push({ key: literal.value, file, line });
    else unreadable.push(`${file}:${line}: ${code.slice(match.index, at + 40).split('\n')[0]}`);
  }
  return { uses, unreadable };
}

/** Every key used in src, with where. */
export function collectKeys(): CollectedKeys {
  const uses: KeyUse[] = [];
  const unreadable: string[] = [];
  for (const path of tsFiles(join(ROOT, 'src')).sort()) {
    const file = relative(ROOT, path).split(sep).join('/');
    if (DEFINITIONS.has(file)) continue;
    const found = keysOf(readFileSync(path, 'utf8'), file);
    uses.push(...found.uses);
    unreadable.push(...found.unreadable);
  }
  return { uses, unreadable };
}

/** The English set: each key once, sorted. */
export function englishKeys(): string[] {
  return [...new Set(collectKeys().uses.map((u) => u.key))].sort();
}
