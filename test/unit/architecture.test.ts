// The shape of src: every `import … from` and `export … from` (type-only ones too) is read, and
// the graph they make must have no cycle, no import pointing up a layer, and no file longer than
// 300 lines. A failure names every offender, so the whole list is fixed in one go.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');
const MAX_LINES = 300;

/**
 * Lowest first. A file belongs to the layer of the longest prefix that names it; files of one
 * layer may import each other (but not in a cycle), and any layer below.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/core/model/', 'src/core/events.ts', 'src/core/slices.ts', 'src/core/l10n.ts'],
  ['src/core/net/'],
  ['src/core/api/'],
  ['src/core/workspace/'],
  ['src/core/services/'],
  ['src/core/export/'],
  ['src/host/'],
  // The agent tools' handlers, vscode-free (checked below): they use the host's pure input schemas.
  ['src/core/agent/'],
  ['src/mcp/'],
  ['src/code-places/'],
  ['src/diagnostics/', 'src/editor/', 'src/views/', 'src/webviews/', 'src/agent/'],
  // A feature that crosses the layers above: its parts sit together, above what they use.
  ['src/inventory/'],
  ['src/commands/'],
  ['src/app.ts', 'src/status-bar.ts', 'src/extension.ts', 'src/stories.ts', 'src/start.ts'],
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `src/…` with forward slashes, as the layers name files. */
const name = (path: string): string => relative(ROOT, path).split(sep).join('/');

/** The module specifiers of every static import and re-export, and of `import('…')` types. */
export function specifiers(source: string): string[] {
  // Comments could hold example imports: blank them first (strings keep their quotes).
  const code = source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  const found: string[] = [];
  // import x from '…'; import type { X } from '…'; import * as x from '…'; export { x } from '…'; export * from '…'; export type { X } from '…'
  for (const m of code.matchAll(/(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g)) found.push(m[1] ?? '');
  // import('…') in type positions and dynamic imports; require('…')
  for (const m of code.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(m[1] ?? '');
  return found;
}

/** The src file a relative specifier names (`./x` → x.ts or x/index.ts); undefined for packages. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`${name(from)} imports ${specifier}, which names no file`);
}

export function layerOf(file: string): number | undefined {
  let best: { layer: number; length: number } | undefined;
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes) {
      const matches = prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix;
      if (matches && (!best || prefix.length > best.length)) best = { layer, length: prefix.length };
    }
  });
  return best?.layer;
}

/** Every cycle of the graph, once each (Tarjan's strongly connected components, then one loop per component). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  // One concrete loop through each component, for a readable message: a → b → … → a.
  return components.map((component) => {
    const members = new Set(component);
    const start = component[0];
    const path = [start];
    const seen = new Set([start]);
    const walk = (node: string): boolean => {
      for (const next of graph.get(node) ?? []) {
        if (!members.has(next)) continue;
        if (next === start) {
          path.push(start);
          return true;
        }
        if (seen.has(next)) continue;
        seen.add(next);
        path.push(next);
        if (walk(next)) return true;
        path.pop();
      }
      return false;
    };
    walk(start);
    return path.length > 1 ? path : component;
  });
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(SRC).sort()) {
    const targets = specifiers(readFileSync(file, 'utf8'))
      .map((s) => resolveImport(file, s))
      .filter((t): t is string => t !== undefined);
    graph.set(name(file), [...new Set(targets.map(name))]);
  }
  return graph;
}

void describe('the architecture of src', () => {
  const graph = importGraph();

  void test('every file is in a layer', () => {
    const outside = [...graph.keys()].filter((file) => layerOf(file) === undefined);
    assert.deepEqual(outside, [], `files in no layer (add them to LAYERS in this test): ${outside.join(', ')}`);
  });

  // The MCP server runs in plain Node, and the core is tested there: neither may reach `vscode`.
  void test('nothing under src/core or src/mcp reaches vscode, through any import', () => {
    const reached = new Map<string, string>();
    const stack = [...graph.keys()].filter((f) => f.startsWith('src/core/') || f.startsWith('src/mcp/')).map((f) => [f, f] as const);
    const offenders: string[] = [];
    while (stack.length > 0) {
      const [file, from] = stack.pop()!;
      if (reached.has(file)) continue;
      reached.set(file, from);
      if (specifiers(readFileSync(join(ROOT, file), 'utf8')).includes('vscode')) offenders.push(`  ${file}, reached from ${from}`);
      for (const next of graph.get(file) ?? []) stack.push([next, from]);
    }
    assert.deepEqual(offenders, [], `files that import vscode:\n${offenders.join('\n')}`);
  });

  void test('no import cycles', () => {
    const found = cycles(graph);
    assert.equal(found.length, 0, `${found.length} import cycle(s):\n${found.map((c) => `  ${c.join(' → ')}`).join('\n')}`);
  });

  void test('no import points up a layer', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file);
      for (const target of targets) {
        const to = layerOf(target);
        if (from !== undefined && to !== undefined && to > from) upward.push(`  ${file} (layer ${from}) imports ${target} (layer ${to})`);
      }
    }
    assert.equal(upward.length, 0, `${upward.length} import(s) pointing up a layer:\n${upward.join('\n')}`);
  });

  void test(`every file is at most ${MAX_LINES} lines`, () => {
    const long = [...graph.keys()]
      .map((file) => ({
        file,
        lines: readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .filter((_l, i, all) => i < all.length - 1 || all[i] !== '').length,
      }))
      .filter(({ lines }) => lines > MAX_LINES);
    assert.equal(long.length, 0, `${long.length} file(s) over ${MAX_LINES} lines:\n${long.map(({ file, lines }) => `  ${file}: ${lines}`).join('\n')}`);
  });
});

void describe('the architecture test reads imports and finds cycles', () => {
  void test('reads every form of import and re-export, type-only ones too', () => {
    const source = [
      "import * as vscode from 'vscode';",
      "import type { A } from './a';",
      "import { b, type B } from '../b';",
      "import c from './c';",
      "import './side-effect';",
      "export { d } from './d';",
      "export type { E } from './e';",
      "export * from './f';",
      "import {\n  g,\n  h,\n} from './gh';",
      "type I = import('./i').I;",
      "// import { no } from './commented';",
      "/* export * from './also-commented'; */",
      'const s = \'import x from "./not-code"\';',
    ].join('\n');
    const found = specifiers(source);
    for (const wanted of ['vscode', './a', '../b', './c', './side-effect', './d', './e', './f', './gh', './i'])
      assert.ok(found.includes(wanted), `missing ${wanted}`);
    assert.ok(!found.includes('./commented') && !found.includes('./also-commented'));
  });

  void test('finds each cycle, with its files in order', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    assert.deepEqual(cycles(graph), [
      ['a', 'b', 'c', 'a'],
      ['d', 'd'],
    ]);
    assert.deepEqual(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
      [],
    );
  });

  void test('a file belongs to the most specific layer that names it', () => {
    assert.equal(layerOf('src/core/model/types.ts'), 0);
    assert.equal(layerOf('src/core/events.ts'), 0);
    assert.equal(layerOf('src/core/services/filters.ts'), 4);
    assert.equal(layerOf('src/core/agent/tool-answer.ts'), 7);
    assert.equal(layerOf('src/views/tree-items.ts'), 10);
    assert.equal(layerOf('src/inventory/dependency-lines.ts'), 11);
    assert.equal(layerOf('src/extension.ts'), 13);
    assert.equal(layerOf('src/unknown.ts'), undefined);
  });
});
