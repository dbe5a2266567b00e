// Runs the plain-Node unit tests (node:test, TypeScript through tsx) under c8. The coverage gate
// (90 % of lines) covers src/core and the parts of src/agent, src/views, src/host and
// src/commands that run without VS Code (no `vscode` import, directly or through what they
// import): those are what the unit tests can and must reach. Node 20's --test does not expand
// globs, so the files are listed here.
// Usage: node scripts/test-unit.mjs [substring filter]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

function find(dir, suffix) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name), suffix) : e.name.endsWith(suffix) ? [join(dir, e.name)] : [],
  );
}

/** Specifiers of the imports that exist at run time (`import type` is erased). */
function runtimeImports(file) {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [...code.matchAll(/(?:^|[;\s])(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g)].filter((m) => !m[1]).map((m) => m[2]);
}

const needsVscode = new Map();
/** Whether loading the file loads `vscode` (directly or through a relative import). */
function loadsVscode(file, visiting = new Set()) {
  if (needsVscode.has(file)) return needsVscode.get(file);
  if (visiting.has(file)) return false;
  visiting.add(file);
  const result = runtimeImports(file).some((specifier) => {
    if (specifier === 'vscode') return true;
    if (!specifier.startsWith('.')) return false;
    const base = resolve(dirname(file), specifier);
    const target = [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate));
    return target !== undefined && loadsVscode(target, visiting);
  });
  needsVscode.set(file, result);
  return result;
}

const pure = ['src/agent', 'src/mcp', 'src/views', 'src/host', 'src/commands']
  .flatMap((dir) => find(dir, '.ts'))
  .filter((file) => !loadsVscode(file))
  .map((file) => relative('.', file).split('\\').join('/'))
  .sort();

const filter = process.argv[2];
const files = find('test/unit', '.test.ts')
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('no unit test files found');
  process.exit(1);
}
const c8 = [
  'c8',
  '--include',
  'src/core/**',
  ...pure.flatMap((file) => ['--include', file]),
  '--exclude',
  '**/*.d.ts',
  '--reporter',
  'text-summary',
  '--reporter',
  'lcov',
  '--check-coverage',
  '--lines',
  filter ? '0' : '90',
];
// The spec reporter is for people; an optional TAP copy lets `npm test` add up the counts.
const tap = process.env.APPSEC_UNIT_TAP;
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
if (tap) reporters.push('--test-reporter=tap', `--test-reporter-destination=${tap}`);
// A test that hangs (a wait that never ends, a decoder gone quadratic) fails instead of holding
// the run until CI's own limit; five minutes is far beyond the slowest unit test.
const node = ['node', '--import', 'tsx', '--test', '--test-timeout=300000', ...reporters, ...files];
const result = spawnSync('npx', [...c8, ...node], { stdio: 'inherit' });
process.exit(result.status ?? 1);
