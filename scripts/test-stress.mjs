// `npm run test:stress`: runs the unit tests and one host's in-host suite, three times each, while
// every core is kept busy by another process, and lists each test that failed even once, with how
// often. A test that passes only on an idle machine fails here. Not part of `npm test` (it takes
// several times as long).
//
// Usage: node scripts/test-stress.mjs [--suite both|unit|integration] [--runs N] [--host newest|oldest]
// The burners leave each suite about half the CPU, so each in-host launch gets twice the limit
// `npm test` gives it (run-code-server.mjs's 600 s).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const suite = option('--suite', 'both');
const runs = Number(option('--runs', '3'));
const host = option('--host', 'newest');
if (!['both', 'unit', 'integration'].includes(suite) || !(runs >= 1)) {
  console.error('usage: node scripts/test-stress.mjs [--suite both|unit|integration] [--runs N] [--host newest|oldest]');
  process.exit(2);
}

// One busy loop per core, in processes of their own, as another job on the machine would be.
const burners = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
const stopBurners = () => burners.forEach((b) => b.kill('SIGKILL'));
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => process.exit(130));

mkdirSync('test-results', { recursive: true });
const failures = new Map();
const count = (title) => failures.set(title, (failures.get(title) ?? 0) + 1);

function unitRun() {
  const tap = 'test-results/stress-unit.tap';
  rmSync(tap, { force: true });
  spawnSync(process.execPath, ['scripts/test-unit.mjs'], { stdio: 'inherit', env: { ...process.env, APPSEC_UNIT_TAP: tap } });
  if (!existsSync(tap)) return count('(the unit run wrote no results)');
  // node:test's TAP: a failing test is `not ok N - title`, indented by its nesting.
  for (const match of readFileSync(tap, 'utf8').matchAll(/^\s*not ok \d+ - (.+)$/gm)) count(match[1]);
}

function integrationRun() {
  const summary = 'test-results/integration-summary.json';
  rmSync(summary, { force: true });
  const result = spawnSync(process.execPath, ['test/integration/launch/run-code-server.mjs', '--host', host, '--timeout', '1200'], { stdio: 'inherit' });
  if (!existsSync(summary)) return count(`(the in-host run wrote no summary; exit ${result.status})`);
  for (const [name, r] of Object.entries(JSON.parse(readFileSync(summary, 'utf8')).hosts ?? {})) {
    for (const f of r.failures ?? []) count(f.title);
    // A host that crashed or hung names no failing test, and is a failure all the same.
    if (r.error && (r.failures ?? []).length === 0) count(`(the ${name} host: ${String(r.error).split('\n')[0]})`);
  }
}

const started = Date.now();
const minutes = (since) => ((Date.now() - since) / 60_000).toFixed(1);
const times = [];
for (let i = 1; i <= runs; i++) {
  for (const [name, run] of [
    ['unit', unitRun],
    ['integration', integrationRun],
  ]) {
    if (suite !== 'both' && suite !== name) continue;
    console.log(`\n=== stress: ${name} run ${i} of ${runs}, ${burners.length} cores kept busy ===`);
    const at = Date.now();
    run();
    times.push(`${name} ${i}: ${minutes(at)} min`);
  }
}
stopBurners();
console.log(`\n=== stress: ${runs} ${suite === 'both' ? 'unit and integration' : suite} runs under load in ${minutes(started)} min (${times.join(', ')}) ===`);
if (failures.size === 0) console.log('no test failed');
for (const [title, times] of [...failures].sort((a, b) => b[1] - a[1])) console.log(`${times}/${runs}  ${title}`);
process.exit(failures.size === 0 ? 0 : 1);
