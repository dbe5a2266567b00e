// The integration suite's entry point, run inside the VS Code extension host by any launcher
// (test/integration/launch/run-code-server.mjs, run-electron.mjs) as `extensionTestsPath`.
//
// TO ADD A TEST FILE: create test/integration/suite/<name>.test.ts (mocha BDD: describe/it are
// globals) and add one line `() => import('./<name>.test'),` to TEST_FILES below. The launcher
// refuses to run while a *.test.ts file is missing from the list.
//
// Why a list instead of a glob: esbuild bundles this module and every test into one file
// (out/integration/index.js), so the tests must be reachable through literal imports; mocha's own
// file loading (addFile → require by path) would look for files that do not exist in the bundle.
// The imports are dynamic so they run only after mocha has installed describe/it on globalThis.
import Mocha from 'mocha';
import { writeFileSync } from 'node:fs';

// Each file stands alone: it signs in (or out) for itself and puts back what it changes, so the
// suite passes in this order, in reverse (APPSEC_IT_ORDER=reverse) and one file at a time
// (APPSEC_IT_ONLY=<name>, e.g. `store`). They share one platform and workspace (fixture.ts).
const TEST_FILES: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
  ['activation', () => import('./activation.test')],
  ['session', () => import('./session.test')],
  ['views', () => import('./views.test')],
  ['diagnostics', () => import('./diagnostics.test')],
  ['drift', () => import('./drift.test')],
  ['branch', () => import('./branch.test')],
  ['scanned-branch', () => import('./scanned-branch.test')],
  ['menus', () => import('./menus.test')],
  ['triage', () => import('./triage.test')],
  ['cache', () => import('./cache.test')],
  ['agent', () => import('./agent.test')],
  ['service-shapes', () => import('./service-shapes.test')],
  ['store', () => import('./store.test')],
  ['look', () => import('./look.test')],
  ['first-hour', () => import('./first-hour.test')],
  ['second-hour', () => import('./second-hour.test')],
  ['third-hour', () => import('./third-hour.test')],
  ['opening-findings', () => import('./opening-findings.test')],
  ['commands', () => import('./commands.test')],
  ['sbom', () => import('./sbom.test')],
  ['every-kind', () => import('./every-kind.test')],
  ['problems-words', () => import('./problems-words.test')],
  ['dependencies', () => import('./dependencies.test')],
  ['rule-modes', () => import('./rule-modes.test')],
  ['project-settings', () => import('./project-settings.test')],
  ['ticket-everywhere', () => import('./ticket-everywhere.test')],
  ['partial-deployment', () => import('./partial-deployment.test')],
  ['walkthrough', () => import('./walkthrough.test')],
  ['publisher', () => import('./publisher.test')],
  ['drawing', () => import('./drawing.test')],
  ['resilience', () => import('./resilience.test')],
  ['security', () => import('./security.test')],
  ['network', () => import('./network.test')],
  ['slow-project-list', () => import('./slow-project-list.test')],
  ['finding-fix', () => import('./finding-fix.test')],
  ['every-menu', () => import('./every-menu.test')],
  ['token-origin', () => import('./token-origin.test')],
  ['platform-text', () => import('./platform-text.test')],
  ['title-clicks', () => import('./title-clicks.test')],
  ['signout', () => import('./signout.test')],
  // Last: a file added before `drawing` moves it into the launch after `triage`, where it fails
  // (a large drawing leaves one file's diagnostics out; see the session notes).
  ['fourth-hour', () => import('./fourth-hour.test')],
  ['mcp', () => import('./mcp.test')],
];

/**
 * A locale run (`run-code-server.mjs --locale de|ja`, which sets APPSEC_IT_LOCALE and starts the
 * host in that display language) runs this file alone; an English run never loads it (its
 * assertions read the running language's bundle, which English does not have).
 */
const LANGUAGE_FILE = (): Promise<unknown> => import('./language.test');

/** `npm run bench:host` runs the in-host benchmark instead of the tests (it is not a test file). */
const BENCH_FILE = (): Promise<unknown> => import('./bench.host');

type Load = readonly [string, () => Promise<unknown>];

/**
 * The files to run, in the order asked for by the environment. APPSEC_IT_PART=<k>/<n> (the
 * launcher's `--parts n`) keeps every n-th file from the k-th on, so the parts of one host's
 * suite are launched one after another, each well inside the launcher's limit.
 */
function selectedFiles(): Load[] {
  if (process.env.APPSEC_BENCH === '1') return [['bench', BENCH_FILE]];
  if (process.env.APPSEC_IT_LOCALE) return [['language', LANGUAGE_FILE]];
  const only = process.env.APPSEC_IT_ONLY?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const chosen = only && only.length > 0 ? TEST_FILES.filter(([name]) => only.includes(name)) : [...TEST_FILES];
  if (only && chosen.length !== only.length) throw new Error(`APPSEC_IT_ONLY names no such file: ${only.join(', ')}`);
  const part = partOf(process.env.APPSEC_IT_PART);
  const kept = part ? chosen.filter((_, i) => i % part.of === part.index - 1) : chosen;
  if (process.env.APPSEC_IT_ORDER === 'reverse') kept.reverse();
  return kept;
}

function partOf(value: string | undefined): { index: number; of: number } | undefined {
  if (!value) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const of = Number(match?.[2]);
  if (!match || index < 1 || index > of) throw new Error(`APPSEC_IT_PART takes <k>/<n> with 1 ≤ k ≤ n (got ${value})`);
  return { index, of };
}

interface Results {
  passed: number;
  failed: number;
  failures: { title: string; error: string }[];
  /** Every test that ran, with its time and its own limit, so the launcher can name the slowest. */
  tests: { title: string; ms: number; timeoutMs: number }[];
  /** Each file's time from its first hook to its last, hooks included. */
  files: { name: string; ms: number }[];
}

export async function run(): Promise<void> {
  // The real host is slow the first time it opens a view or starts a language feature.
  const mocha = new Mocha({ ui: 'bdd', timeout: 20_000, color: true });
  mocha.suite.emit(Mocha.Suite.constants.EVENT_FILE_PRE_REQUIRE, globalThis, 'bundle', mocha);
  // Which file each top-level suite came from: the suites a file's import adds are its own.
  const fileOf = new Map<Mocha.Suite, string>();
  for (const [name, load] of selectedFiles()) {
    const before = mocha.suite.suites.length;
    await load();
    for (const suite of mocha.suite.suites.slice(before)) fileOf.set(suite, name);
  }

  const results: Results = { passed: 0, failed: 0, failures: [], tests: [], files: [] };
  const begun = new Map<string, number>();
  await new Promise<void>((resolve) => {
    mocha
      .run(() => resolve())
      .on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
        const name = fileOf.get(suite);
        if (name !== undefined && !begun.has(name)) begun.set(name, Date.now());
      })
      .on(Mocha.Runner.constants.EVENT_SUITE_END, (suite: Mocha.Suite) => {
        const name = fileOf.get(suite);
        if (name === undefined) return;
        const ms = Date.now() - (begun.get(name) ?? Date.now());
        const known = results.files.find((file) => file.name === name);
        if (known) known.ms = ms;
        else results.files.push({ name, ms });
      })
      .on(Mocha.Runner.constants.EVENT_TEST_END, (test: Mocha.Test) => {
        results.tests.push({ title: test.fullTitle(), ms: test.duration ?? 0, timeoutMs: test.timeout() });
      })
      .on(Mocha.Runner.constants.EVENT_TEST_PASS, () => {
        results.passed++;
      })
      .on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test: Mocha.Runnable, err: Error) => {
        // Hook failures arrive here too, so a broken before() is never a silent pass.
        results.failed++;
        results.failures.push({ title: test.fullTitle(), error: err.stack ?? String(err) });
      });
  });

  const resultsFile = process.env.APPSEC_TEST_RESULTS;
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  if (results.failed > 0) throw new Error(`${results.failed} integration test(s) failed`);
  if (results.passed === 0) throw new Error('the integration suite ran no test');
}
