/**
 * Where each dependency of the supply-chain inventory is in today's text of a lockfile or a
 * manifest, for the hints, hovers and license diagnostics on those lines. The platform's line is
 * the scan's and goes stale as the file is edited, so a dependency is found by its name in the
 * current text, the platform's line only picking among several mentions. Runs on every change of
 * an open lockfile, so the lines are read once into an index that each dependency looks up.
 */
import type { Dependency } from '../model/dependency';
import { add, isWordChar, lastWord, pep503Name, wholeNameMentions, wordIndex, type Mention } from './name-mentions';

export interface LocatedDependency<T> extends Mention {
  readonly item: T;
}

/**
 * The items whose lockfile (`definedAt`) is `path`, and the direct ones whose manifest is `path`,
 * each on the line of today's `text` that declares it, sorted by line. `path` is relative to the
 * repository's root, with `/` separators.
 *
 * A lockfile item goes on its platform line when that line still names the package, else on the
 * nearest line naming it, an entry of its version (`namesVersion`) before a line that only
 * requires it. A manifest item goes on its declaration: a key of a dependencies block of
 * package.json, a requirement of a requirements or constraints file (PEP 503 names), else the
 * first line naming it as a whole word from the manifest's line when given. An item whose name
 * today's text lacks is left out.
 *
 * Two items of the same name and version never share a line, since their facts would repeat each
 * other: a duplicate (same platform line too) is dropped, and a second copy (another platform
 * line, as nested `node_modules` copies have) takes the nearest line not taken. Items of other
 * versions may share a line when the text cannot tell them apart (a manifest's range): the caller
 * merges what one line shows.
 */
export function locateDependencies<T extends { readonly dependency: Dependency }>(path: string, text: string, items: readonly T[]): LocatedDependency<T>[] {
  const file = normalPath(path);
  const mine: { readonly item: T; readonly hint: number | undefined }[] = [];
  for (const item of items) {
    const { definedAt, manifest, transitivity } = item.dependency;
    if (definedAt && normalPath(definedAt.path) === file) mine.push({ item, hint: definedAt.line });
    else if (manifest && transitivity === 'direct' && normalPath(manifest.path) === file) mine.push({ item, hint: manifest.line });
  }
  if (mine.length === 0) return [];
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const finder = mentionFinder(
    fileKind(file),
    text,
    lines,
    mine.map(({ item }) => item.dependency.name),
  );

  const located: (LocatedDependency<T> & { readonly order: number })[] = [];
  const taken = new Set<string>();
  const seen = new Set<string>();
  const later: { readonly order: number; readonly item: T; readonly mentions: readonly Mention[]; readonly from: number; readonly id: string }[] = [];
  const place = (order: number, item: T, at: Mention, id: string): void => {
    taken.add(`${at.line}\0${id}`);
    located.push({ line: at.line, start: at.start, end: at.end, item, order });
  };
  mine.forEach(({ item, hint }, order) => {
    const { name, version, ecosystem } = item.dependency;
    const id = `${isPypi(ecosystem) ? pep503Name(name) : name}\0${version}`;
    if (seen.has(`${id}\0${hint ?? ''}`)) return;
    seen.add(`${id}\0${hint ?? ''}`);
    const mentions = finder.mentions(name, isPypi(ecosystem));
    if (mentions.length === 0) return;
    const from = hint === undefined ? 0 : hint - 1;
    const onHint = hint === undefined ? undefined : mentions[firstAtOrAfter(mentions, from)];
    if (onHint && onHint.line === from && !taken.has(`${from}\0${id}`)) place(order, item, onHint, id);
    else later.push({ order, item, mentions, from, id });
  });
  // After every item whose platform line still holds it, so none of those is displaced.
  for (const { order, item, mentions, from, id } of later) {
    const free = (m: Mention): boolean => !taken.has(`${m.line}\0${id}`);
    const version = item.dependency.version;
    const entry =
      (below: boolean) =>
      (m: Mention): boolean =>
        free(m) && namesVersion(lines, m, version, below);
    const at =
      (finder.declarations ? undefined : (nearest(mentions, from, entry(true)) ?? nearest(mentions, from, entry(false)))) ?? nearest(mentions, from, free);
    if (at) place(order, item, at, id);
  }
  located.sort((a, b) => a.line - b.line || a.start - b.start || a.order - b.order);
  return located.map(({ line, start, end, item }) => ({ line, start, end, item }));
}

type FileKind = 'package.json' | 'requirements' | 'text';
function fileKind(path: string): FileKind {
  const [base = '', parent] = path.toLowerCase().split('/').reverse();
  if (base === 'package.json') return 'package.json';
  return /\.(txt|in)$/.test(base) && (/^(requirements|constraints)/.test(base) || parent === 'requirements') ? 'requirements' : 'text';
}

function normalPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+|^\/+/, '');
}

const isPypi = (ecosystem: string): boolean => ecosystem.toLowerCase() === 'pypi';

/**
 * The mentions of a name, sorted by line; `declarations` when all of them are declarations (a
 * manifest's), so that versions need not pick among them.
 */
function mentionFinder(
  kind: FileKind,
  text: string,
  lines: readonly string[],
  names: readonly string[],
): { readonly declarations: boolean; mentions(name: string, pypi: boolean): readonly Mention[] } {
  if (kind !== 'text') {
    const declared = kind === 'package.json' ? packageJsonKeys(text) : requirementNames(lines);
    return { declarations: true, mentions: (name) => declared.get(kind === 'package.json' ? name : pep503Name(name)) ?? [] };
  }
  const words = wordIndex(lines, new Set(names.map((name) => pep503Name(lastWord(name))).filter((word) => word !== '')));
  const cache = new Map<string, readonly Mention[]>();
  return {
    declarations: false,
    mentions(name, pypi) {
      const key = `${pypi ? 'p' : 'x'}${name}`;
      let found = cache.get(key);
      if (!found) cache.set(key, (found = wholeNameMentions(lines, words.get(pep503Name(lastWord(name))) ?? [], name, pypi)));
      return found;
    },
  };
}

/**
 * Whether the version is written as a resolved version, not a range (`^1.2.3`, `>= 1.2.3`): on a
 * `version` line of the two after the mention (`below`: package-lock, yarn.lock, poetry.lock,
 * Cargo.lock) or on the mention's own line after the name (Gemfile.lock, pnpm-lock, go.sum).
 */
function namesVersion(lines: readonly string[], mention: Mention, version: string, below: boolean): boolean {
  if (version === '') return false;
  for (let line = below ? mention.line + 1 : mention.line; line <= (below ? mention.line + 2 : mention.line); line++) {
    const text = lines[line] ?? '';
    if (below && !text.includes('version')) continue;
    for (let at = text.indexOf(version, below ? 0 : mention.end); at >= 0; at = text.indexOf(version, at + 1)) {
      const before = at === 0 ? 32 : text.charCodeAt(at - 1);
      const after = text.charCodeAt(at + version.length);
      // `4.17.2` is not `4.17.21` nor `1.4.17.2`; `v1.2.3` (Go) and `x-1.2.3.tgz` are 1.2.3.
      const startsWord = !isWordChar(before) || before === 45 || before === 95 || before === 118;
      const endsWord = !isWordChar(after) || (after === 46 && !/\d/.test(text.charAt(at + version.length + 1)));
      if (startsWord && endsWord && !/[\^~<>=!]\s*v?$/.test(text.slice(Math.max(0, at - 4), at))) return true;
    }
  }
  return false;
}

/** The index of the first mention on `line` or after it (mentions are sorted by line). */
function firstAtOrAfter(mentions: readonly Mention[], line: number): number {
  let low = 0;
  for (let high = mentions.length; low < high;) {
    const mid = (low + high) >>> 1;
    if ((mentions[mid]?.line ?? 0) < line) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The accepted mention nearest `line`; of two as near, the one below (text inserted above pushes down). */
function nearest(mentions: readonly Mention[], line: number, accept: (m: Mention) => boolean): Mention | undefined {
  for (let below = firstAtOrAfter(mentions, line), above = below - 1; above >= 0 || below < mentions.length;) {
    const up = mentions[above];
    const down = mentions[below];
    const next = down && (!up || down.line - line <= line - up.line) ? mentions[below++] : mentions[above--];
    if (next && accept(next)) return next;
  }
  return undefined;
}

const DEPENDENCY_BLOCKS: ReadonlySet<string> = new Set(['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']);

/**
 * The keys of package.json's top-level dependency blocks, by name, read with a tolerant scan
 * rather than `JSON.parse`: a file being typed in is often not valid JSON for a moment, and its
 * other entries keep their hints meanwhile. A key is a string followed by `:`, so a missing comma
 * or a value cut short does not hide the entries after it.
 */
function packageJsonKeys(text: string): Map<string, Mention[]> {
  const found = new Map<string, Mention[]>();
  const blocks: (string | undefined)[] = [];
  let key: string | undefined;
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      line++;
      lineStart = i + 1;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"' && text[end] !== '\n') end += text[end] === '\\' && text[end + 1] !== '\n' ? 2 : 1;
      let after = end + 1;
      while (text[after] === ' ' || text[after] === '\t') after++;
      if (text[end] === '"' && text[after] === ':') {
        key = text.slice(i + 1, end);
        if (blocks.length === 2 && DEPENDENCY_BLOCKS.has(blocks[1] ?? '')) add(found, key, { line, start: i + 1 - lineStart, end: end - lineStart });
      }
      // A string cut by a line break ends there, so the line count stays right.
      i = text[end] === '"' ? end : end - 1;
    } else if (c === '{' || c === '[') {
      // Each open container, under the key that holds it: `[root, "dependencies"]` inside a block.
      blocks.push(c === '{' ? key : undefined);
      key = undefined;
    } else if (c === '}' || c === ']') {
      blocks.pop();
    }
  }
  return found;
}

/**
 * The requirements of a pip requirements or constraints file, by PEP 503 name: a line that starts
 * with a name. Comments, options (`-r`, `-e`, `--hash`), URLs, paths and the continuations of a
 * line ending in `\` name nothing; extras, versions and markers after the name are not read.
 */
function requirementNames(lines: readonly string[]): Map<string, Mention[]> {
  const found = new Map<string, Mention[]>();
  lines.forEach((text, line) => {
    if (line > 0 && (lines[line - 1] ?? '').trimEnd().endsWith('\\')) return;
    const match = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)(?![A-Za-z0-9._-]|\s*[:/+])/.exec(text);
    if (match?.[1]) add(found, pep503Name(match[1]), { line, start: match[0].length - match[1].length, end: match[0].length });
  });
  return found;
}
