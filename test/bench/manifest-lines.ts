/**
 * Opening a lockfile: each dependency of the inventory located on today's line and its inlay
 * hint's text, for a generated 2 000-line package-lock.json of 1 000 packages. The editor does
 * this again on every change of the document, so it must stay far below a frame's worth of work
 * per keystroke; the target is what opening such a file may add.
 */
import type { Dependency } from '../../src/core/model/dependency';
import type { Finding } from '../../src/core/model/types';
import { dependencyHint } from '../../src/core/workspace/dependency-facts';
import { PackageFindings } from '../../src/core/workspace/package-findings';
import { locateDependencies } from '../../src/core/workspace/manifest-lines';
import { median } from './measure';
import type { Figure } from './report';

const PACKAGES = 1_000;
/** Untimed runs before the rounds: the editor runs this on every change, so its code is optimized. */
const WARM_UP = 10;
const ROUNDS = 15;
const MAX_MS = 20;

interface Item {
  readonly dependency: Dependency;
}

/** package-lock.json v3: a key line and a line of version, resolved URL and integrity per package. */
function lockfile(): { text: string; items: Item[]; findings: Finding[] } {
  const lines = ['{', '  "name": "bench",', '  "version": "1.0.0",', '  "lockfileVersion": 3,', '  "requires": true,', '  "packages": {'];
  const items: Item[] = [];
  const findings: Finding[] = [];
  for (let i = 0; i < PACKAGES; i++) {
    const name = i % 10 === 0 ? `@scope-${i % 7}/package-${i}` : `package-${i}`;
    const version = `${i % 5}.${i % 13}.${i}`;
    items.push({
      dependency: {
        repositoryId: '1',
        ecosystem: 'npm',
        name,
        version,
        transitivity: i % 4 === 0 ? 'direct' : 'transitive',
        licenses: i % 3 === 0 ? ['MIT', 'Apache-2.0'] : ['ISC'],
        definedAt: { path: 'package-lock.json', line: lines.length + 1 },
      },
    });
    if (i % 10 === 0) {
      findings.push({
        issueType: 'sca',
        id: i,
        ruleName: `ssc-${i}`,
        message: '',
        severity: 'high',
        status: 'open',
        sca: { package: name, version, ecosystem: 'npm', fixVersions: [`${i % 5}.${i % 13}.${i + 1}`] },
      });
    }
    lines.push(
      `    "node_modules/${name}": {`,
      `      "version": "${version}", "resolved": "https://registry.npmjs.org/${name}/-/package-${i}-${version}.tgz", "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==" },`,
    );
  }
  lines.push('  }', '}', '');
  return { text: lines.join('\n'), items, findings };
}

/**
 * What the editor does for one version of the document: join the findings (the index is built
 * once per answer, and a new version of the document builds it again), locate, then each located
 * line's hint.
 */
function locateAndHint(text: string, items: readonly Item[], all: readonly Finding[]): number {
  let hinted = 0;
  const index = new PackageFindings(all);
  for (const { item } of locateDependencies('package-lock.json', text, items)) {
    const findings = index.of(item.dependency);
    if (dependencyHint({ dependency: item.dependency, findings }) !== '') hinted++;
  }
  return hinted;
}

/** One timed run: wall and process CPU time, in milliseconds. */
function timed(run: () => void): { ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  run();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * The median time to locate and hint every package, at the platform's lines and after lines
 * inserted above; and, for context, the very first run, before the code was ever optimized (the
 * first lockfile opened in a session). The runs go back to back, taking turns, rather than each
 * after a forced collection as `timeRounds` does: a run this short, right after a full collection,
 * mostly pays for the collector's leftover sweeping, which no keystroke in the editor follows.
 */
export function manifestLinesFigures(): Promise<Figure[]> {
  const { text, items, findings } = lockfile();
  const lineCount = text.split('\n').length;
  // Three lines typed in at the top: every platform line is stale and each package is searched for.
  const edited = `\n\n\n${text}`;
  const run = (document: string) => (): void => {
    const hinted = locateAndHint(document, items, findings);
    if (hinted !== PACKAGES) throw new Error(`bench: ${hinted} of ${PACKAGES} packages hinted`);
  };
  const first = timed(run(text));
  for (let i = 0; i < WARM_UP; i++) [run(text), run(edited)].forEach((task) => task());
  const atScan: { ms: number; cpuMs: number }[] = [];
  const afterEdit: { ms: number; cpuMs: number }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    atScan.push(timed(run(text)));
    afterEdit.push(timed(run(edited)));
  }
  const figure = (key: string, label: string, timings: readonly { ms: number }[]): Figure => ({
    key,
    label,
    value: median(timings.map((t) => t.ms)),
    unit: 'ms',
    max: MAX_MS,
    runs: timings.map((t) => t.ms),
  });
  const what = `${lineCount.toLocaleString('en-US')}-line package-lock.json, ${PACKAGES.toLocaleString('en-US')} packages`;
  return Promise.resolve([
    figure('lockfileHintsMs', `Lockfile lines and hints, ${what}`, atScan),
    figure('lockfileHintsEditedMs', 'Same, after 3 lines inserted above (every platform line stale)', afterEdit),
    // Another process busy on the same cores stretches the wall time, not the CPU time.
    {
      key: 'lockfileHintsCpuMs',
      label: "CPU time of the same (bench process, at the platform's lines)",
      value: median(atScan.map((t) => t.cpuMs)),
      unit: 'ms',
    },
    { key: 'lockfileHintsFirstMs', label: 'Same, the first run of the process (code not yet optimized)', value: first.ms, unit: 'ms' },
  ]);
}
