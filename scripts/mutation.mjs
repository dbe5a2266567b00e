// Runs StrykerJS over `src/core`, one group after another (see stryker.config.mjs), then
// prints the score of each group and of the whole. `node scripts/mutation.mjs model api`
// runs only the named groups; the others keep their last report.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const allGroups = ['model', 'api', 'net', 'services', 'workspace'];
const asked = process.argv.slice(2);
for (const group of asked) {
  if (!allGroups.includes(group)) {
    console.error(`unknown group "${group}"; groups: ${allGroups.join(', ')}`);
    process.exit(2);
  }
}
for (const group of asked.length > 0 ? asked : allGroups) {
  console.log(`\n== mutation: ${group} ==`);
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    stdio: 'inherit',
    env: { ...process.env, STRYKER_GROUP: group },
  });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

const detected = new Set(['Killed', 'Timeout']);
const undetected = new Set(['Survived', 'NoCoverage']);
const total = { detected: 0, undetected: 0 };
console.log('\ngroup       score   killed+timeout  survived+no coverage');
for (const group of allGroups) {
  const file = `test-results/mutation/${group}.json`;
  if (!existsSync(file)) {
    console.log(`${group.padEnd(10)}  (not run)`);
    continue;
  }
  const counts = { detected: 0, undetected: 0 };
  for (const result of Object.values(JSON.parse(readFileSync(file, 'utf8')).files)) {
    for (const mutant of result.mutants) {
      if (detected.has(mutant.status)) counts.detected += 1;
      else if (undetected.has(mutant.status)) counts.undetected += 1;
    }
  }
  total.detected += counts.detected;
  total.undetected += counts.undetected;
  console.log(`${group.padEnd(10)}  ${score(counts)}  ${String(counts.detected).padStart(14)}  ${String(counts.undetected).padStart(20)}`);
}
console.log(`${'src/core'.padEnd(10)}  ${score(total)}  ${String(total.detected).padStart(14)}  ${String(total.undetected).padStart(20)}`);

function score({ detected: d, undetected: u }) {
  return d + u === 0 ? '   -  ' : `${((100 * d) / (d + u)).toFixed(1).padStart(5)}%`;
}
