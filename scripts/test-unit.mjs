// Runs the plain-Node unit tests (node:test, TypeScript through tsx) under c8 for coverage of
// src/core. Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/test-unit.mjs [substring filter]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
}

const filter = process.argv[2];
const files = find('test/unit').filter((f) => !filter || f.includes(filter)).sort();
if (files.length === 0) {
  console.error('no unit test files found');
  process.exit(1);
}
const c8 = [
  'c8', '--include', 'src/core/**', '--exclude', '**/*.d.ts', '--reporter', 'text-summary', '--reporter', 'lcov',
  '--check-coverage', '--lines', filter ? '0' : '90',
];
// The spec reporter is for people; an optional TAP copy lets `npm test` add up the counts.
const tap = process.env.APPSEC_UNIT_TAP;
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
if (tap) reporters.push('--test-reporter=tap', `--test-reporter-destination=${tap}`);
const node = ['node', '--import', 'tsx', '--test', ...reporters, ...files];
const result = spawnSync('npx', [...c8, ...node], { stdio: 'inherit' });
process.exit(result.status ?? 1);
