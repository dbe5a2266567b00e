// StrykerJS configuration for `npm run mutation` (not part of CI).
//
// `src/core` is mutated in groups, each group against the unit tests that are meant to
// pin it down. Every test file counts as one test for Stryker's tap runner, and most
// platform tests reach every decoder, so letting all 60 files see every mutant makes a
// whole run take hours; grouping keeps it near an hour on 2 cores and says which tests
// own which code. `STRYKER_GROUP` picks the group (scripts/mutation.mjs runs them all).
const groups = {
  model: {
    mutate: ['src/core/model/**/*.ts', 'src/core/events.ts'],
    tests: [
      'test/unit/core/decode*.test.ts',
      'test/unit/core/errors.test.ts',
      'test/unit/core/severity.test.ts',
      'test/unit/core/match-key.test.ts',
      'test/unit/core/scans.platform.test.ts',
      'test/unit/core/service-shapes.test.ts',
      'test/unit/core/links.test.ts',
      'test/unit/robustness/decoders.property.test.ts',
      'test/unit/services/events.test.ts',
      'test/unit/services/ref-spelling.test.ts',
      'test/unit/views/*.test.ts',
    ],
  },
  api: {
    mutate: ['src/core/api/**/*.ts'],
    tests: [
      'test/unit/core/*.test.ts',
      'test/unit/net/check-connection.test.ts',
      'test/unit/robustness/paging.property.test.ts',
      'test/unit/robustness/faults.platform.test.ts',
      'test/unit/robustness/huge-body.platform.test.ts',
    ],
  },
  net: {
    mutate: ['src/core/net/**/*.ts'],
    tests: ['test/unit/net/*.test.ts'],
  },
  services: {
    mutate: ['src/core/services/**/*.ts'],
    tests: [
      'test/unit/services/*.test.ts',
      'test/unit/core/findings.platform.test.ts',
      'test/unit/robustness/refresh-cancel.platform.test.ts',
      'test/unit/robustness/user-input.property.test.ts',
    ],
  },
  workspace: {
    mutate: ['src/core/workspace/**/*.ts'],
    tests: ['test/unit/workspace/*.test.ts'],
  },
};

const group = process.env.STRYKER_GROUP;
const chosen = group ? groups[group] : undefined;
if (group && !chosen) {
  throw new Error(`STRYKER_GROUP must be one of ${Object.keys(groups).join(', ')}`);
}
const label = group ?? 'all';

export default {
  testRunner: 'tap',
  tap: {
    testFiles: chosen ? chosen.tests : ['test/unit/**/*.test.ts'],
    nodeArgs: ['--import', 'tsx'],
    forceBail: true,
  },
  mutate: chosen ? chosen.mutate : ['src/core/**/*.ts'],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 2),
  timeoutMS: 20000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: `test-results/mutation/${label}.json` },
  // A rerun only tests mutants whose code or tests changed since the last run.
  incremental: true,
  incrementalFile: `test-results/mutation/${label}.incremental.json`,
  tempDirName: `.stryker-tmp-${label}`,
  cleanTempDir: 'always',
  ignorePatterns: ['dist', 'dist-vsix', 'out', 'test-results', '.stryker-tmp*'],
};
