// Comments point at the docs by file and section name (a docs file, then the heading in double
// quotes, after a comma, a space or an opening parenthesis). Every such reference in src/ and
// test/ must name a file that exists and a heading it has, so a renamed or missing section is
// caught here rather than by a reader. A failure lists every broken reference at once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SOURCE_EXTENSIONS = ['.ts', '.mts', '.mjs', '.js'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext)) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export interface DocReference {
  readonly doc: string;
  readonly section: string;
  readonly line: number;
}

/**
 * The section references in one file's text. The file and its heading may be split over comment
 * lines (`//` or ` * ` continuations); the heading is read back as one line.
 */
export function docReferences(text: string): DocReference[] {
  const found: DocReference[] = [];
  const pattern = /\bdocs\/([\w.-]+\.md)`?(?:[,(\s]|\*(?!\/)|\/\/)*"([^"]{1,160})"/g;
  for (const match of text.matchAll(pattern)) {
    const section = (match[2] ?? '').replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ').trim();
    const line = text.slice(0, match.index).split('\n').length;
    found.push({ doc: match[1] ?? '', section, line });
  }
  return found;
}

/** The headings of a Markdown file (`#` to `######` lines), as written. */
export function headingsOf(markdown: string): Set<string> {
  const headings = new Set<string>();
  for (const line of markdown.split('\n')) {
    const match = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match?.[1]) headings.add(match[1]);
  }
  return headings;
}

describe('references to sections of docs/', () => {
  test('the reader finds references split over comment lines, in each form used', () => {
    const text = [
      '/**',
      ' * The answers (docs/x.md, "Triage and',
      ' * tickets"). Also docs/x.md "Paging" and docs/x.md ("Links").',
      ' */',
      '// one more (docs/x.md, "The same finding on',
      '// two branches")',
      '/** Not a section: docs/x.md): "this is prose". */',
    ].join('\n');
    assert.deepEqual(
      docReferences(text).map((r) => [r.section, r.line]),
      [
        ['Triage and tickets', 2],
        ['Paging', 3],
        ['Links', 3],
        ['The same finding on two branches', 5],
      ],
    );
  });

  test('every docs/*.md section named in src/ and test/ is a heading of that file', () => {
    const broken: string[] = [];
    const headings = new Map<string, Set<string> | undefined>();
    let count = 0;
    for (const file of [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'test'))]) {
      const where = relative(ROOT, file).split(sep).join('/');
      // This file's own examples are made up.
      if (where === 'test/unit/docs-references.test.ts') continue;
      for (const ref of docReferences(readFileSync(file, 'utf8'))) {
        count++;
        if (!headings.has(ref.doc)) {
          const path = join(ROOT, 'docs', ref.doc);
          headings.set(ref.doc, existsSync(path) ? headingsOf(readFileSync(path, 'utf8')) : undefined);
        }
        const known = headings.get(ref.doc);
        if (!known) broken.push(`${where}:${ref.line}: docs/${ref.doc} does not exist`);
        else if (!known.has(ref.section)) broken.push(`${where}:${ref.line}: docs/${ref.doc} has no heading "${ref.section}"`);
      }
    }
    assert.ok(count > 0, 'no references found: the reader no longer matches how comments cite the docs');
    assert.deepEqual(broken, [], `broken references to docs sections:\n${broken.join('\n')}`);
  });
});
