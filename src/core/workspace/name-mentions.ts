/**
 * Where a package's name is written in any text, found word by word: the words of every line are
 * indexed in one pass for all the names looked for (hashed first, so the many words that are no
 * package's build no string), and a whole name is told from part of another (`@scope/name`,
 * `group:artifact`). PyPI names compare in their PEP 503 form. `manifest-lines.ts` looks names up
 * this way in lockfiles and in any text whose declarations it does not read, and picks among the
 * mentions.
 */

/** One place a package's name is written: a line and the name's columns on it. */
export interface Mention {
  /** 0-based. */
  readonly line: number;
  /** The columns of the package's name on that line, `[start, end)`: the range of a diagnostic. */
  readonly start: number;
  readonly end: number;
}

/** A PyPI name as PEP 503 compares them: case-insensitive, with runs of `-`, `_` and `.` equal. */
export function pep503Name(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/** Characters of a word of a package name; `@`, `/` and `:` join words into scoped or grouped names. */
export function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 46 || code === 95;
}

/** Adds a mention to the list of its key. */
export function add(map: Map<string, Mention[]>, key: string, mention: Mention): void {
  const list = map.get(key);
  if (list) list.push(mention);
  else map.set(key, [mention]);
}

/** The last word of a name (`core` of `@babel/core`): the word the index finds the name by. */
export function lastWord(name: string): string {
  return name.slice(name.search(/[A-Za-z0-9._-]*$/));
}

/**
 * Every word of the text that ends a wanted name (folded the PEP 503 way, which also matches
 * names compared exactly), by that folded form: one pass over the lines for all the items. A
 * word's hash is checked first, so the many words that are no package's build no string.
 */
export function wordIndex(lines: readonly string[], wanted: ReadonlySet<string>): Map<string, Mention[]> {
  const index = new Map<string, Mention[]>();
  const hashes = new Set<number>();
  for (const word of wanted) forEachWord(word, (_start, _end, hash) => hashes.add(hash));
  lines.forEach((text, line) =>
    forEachWord(text, (start, end, hash) => {
      const key = hashes.has(hash) ? pep503Name(text.slice(start, end)) : '';
      if (wanted.has(key)) add(index, key, { line, start, end });
    }),
  );
  return index;
}

/** Each word of `text`, with a hash of its PEP 503 form computed without building that form. */
function forEachWord(text: string, visit: (start: number, end: number, hash: number) => void): void {
  for (let i = 0; i < text.length; i++) {
    if (!isWordChar(text.charCodeAt(i))) continue;
    const start = i;
    let hash = 0;
    for (let separator = false; i < text.length && isWordChar(text.charCodeAt(i)); i++) {
      const c = text.charCodeAt(i);
      const isSeparator = c === 45 || c === 46 || c === 95;
      if (!(isSeparator && separator)) hash = (Math.imul(hash, 31) + (isSeparator ? 45 : c >= 65 && c <= 90 ? c + 32 : c)) | 0;
      separator = isSeparator;
    }
    visit(start, i, hash);
  }
}

/**
 * The words that are the whole name: the same word (PEP 503 for PyPI, exact otherwise), or for a
 * name of several words (`@babel/core`, `github.com/x/y`, `group:artifact`) the whole name ending
 * there. A plain name preceded by `@scope/` is another package. A `group:artifact` name that
 * today's text never writes whole is looked for by its artifact, as pom.xml writes it.
 */
export function wholeNameMentions(lines: readonly string[], words: readonly Mention[], name: string, pypi: boolean): Mention[] {
  const simple = lastWord(name) === name;
  const out: Mention[] = [];
  for (const word of words) {
    const text = lines[word.line] ?? '';
    // The index already matched the word the PEP 503 way.
    if (simple) {
      if ((pypi || text.slice(word.start, word.end) === name) && !inScope(text, word.start)) out.push(word);
    } else {
      const start = word.end - name.length;
      if (start >= 0 && text.startsWith(name, start) && (start === 0 || !isWordChar(text.charCodeAt(start - 1))))
        out.push({ line: word.line, start, end: word.end });
    }
  }
  if (out.length === 0 && !simple && name.includes(':')) return wholeNameMentions(lines, words, lastWord(name), false);
  return out;
}

/** True when the word at `start` follows `@scope/`: it is then part of a scoped npm name. */
function inScope(text: string, start: number): boolean {
  if (start === 0 || text.charCodeAt(start - 1) !== 47) return false;
  let i = start - 1;
  while (i > 0 && isWordChar(text.charCodeAt(i - 1))) i--;
  return i > 0 && text.charCodeAt(i - 1) === 64;
}
