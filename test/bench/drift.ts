/**
 * `npm run bench:drift`: how long placing findings onto today's code takes, with real git.
 *
 * A repository of 2 500 files with findings (4 each, 10 000 in all), 50 of them changed since
 * the scanned commit (lines inserted at the top, one line edited), one renamed. Measured, median
 * of 3 after a warm-up: what the drift tracker does once findings arrive (is the commit here,
 * `git diff --name-status -M` against the working tree, one `git cat-file --batch` for the
 * changed files, read them, diff, then map every finding's range). Target ≤ 300 ms.
 *
 * Typing: one edit mapped through the findings of the edited file, for files holding 10, 100 and
 * 1 000 findings, while the workspace holds 10 000 or 100 000: the time follows the file's
 * findings, never the workspace's.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { GitCli } from '../../src/host/git-cli';
import { diffLines, splitLines } from '../../src/core/workspace/line-diff';
import { LineMap, editHunk, mapThrough } from '../../src/core/workspace/range-mapper';
import type { PlannedRange } from '../../src/core/workspace/diagnostic-plan';
import { median } from './measure';
import { printTable, writeJson, type Figure } from './report';

const FILES = 2_500;
const LINES = 300;
const FINDINGS_PER_FILE = 4;
const CHANGED = 50;
const MAX_MAP_MS = 300;
const OUTPUT = join(resolve(__dirname, '../..'), 'test-results', 'bench-drift.json');

const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 26 }).trim();
const range = (line: number): PlannedRange => ({ startLine: line, startCharacter: 2, endLine: line, endCharacter: 12, wholeLine: false });

function makeRepository(): { root: string; commit: string; paths: string[] } {
  const root = mkdtempSync(join(tmpdir(), 'appsec-bench-drift-'));
  const paths = Array.from({ length: FILES }, (_, i) => `src/pkg${i % 50}/module_${i}.py`);
  for (const path of paths) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), Array.from({ length: LINES }, (_, l) => `    value_${l} = compute(${l}, "${path}")`).join('\n') + '\n');
  }
  git(root, 'init', '-q');
  git(root, 'config', 'user.email', 'bench@example.invalid');
  git(root, 'config', 'user.name', 'Bench');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'scanned');
  const commit = git(root, 'rev-parse', 'HEAD');
  for (const path of paths.slice(0, CHANGED)) {
    const lines = readFileSync(join(root, path), 'utf8').split('\n');
    lines[150] = `${lines[150]} # edited`;
    writeFileSync(join(root, path), [...Array.from({ length: 7 }, (_, i) => `import extra_${i}`), ...lines].join('\n'));
  }
  git(root, 'mv', paths[CHANGED], `${paths[CHANGED]}.renamed.py`);
  return { root, commit, paths };
}

/** What DriftTracker.map does, without the editor: the part that scales with the repository. */
async function mapAll(gitCli: GitCli, root: string, commit: string, findingsByPath: Map<string, PlannedRange[]>): Promise<number> {
  if (!(await gitCli.hasCommit(root, commit))) throw new Error('the scanned commit is missing');
  const changes = await gitCli.changedSince(root, commit);
  const changed = new Map(changes.map((c) => [c.scannedPath, c]));
  const wanted = [...findingsByPath.keys()].filter((p) => changed.has(p) && !changed.get(p)!.deleted);
  const texts = await gitCli.filesAt(root, commit, wanted);
  const maps = new Map<string, LineMap>();
  for (const path of wanted) {
    const today = readFileSync(join(root, changed.get(path)!.path), 'utf8');
    maps.set(path, new LineMap(diffLines(splitLines(texts.get(path) ?? ''), splitLines(today))));
  }
  let moved = 0;
  for (const [path, ranges] of findingsByPath) {
    const map = maps.get(path);
    for (const r of ranges) if (map && mapThrough([map], r).kind !== 'same') moved++;
  }
  return moved;
}

function perEditMicros(findingsInFile: number, findingsInWorkspace: number): number {
  // The workspace's other findings exist (as they would in memory) but an edit never visits them.
  const workspace = Array.from({ length: findingsInWorkspace - findingsInFile }, (_, i) => range(i % LINES));
  void workspace.length;
  const file = Array.from({ length: findingsInFile }, (_, i) => range((i * 7) % 5000));
  const edits: LineMap[] = [];
  const rounds = 2_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) {
    edits.push(
      new LineMap([editHunk({ startLine: i % 50, startCharacter: 4, endLine: i % 50, endCharacter: 4, text: i % 10 === 0 ? '\n' : 'x', atLineEnd: false })]),
    );
    if (edits.length > 20) edits.shift(); // the idle re-diff collapses older edits
    for (const r of file) mapThrough(edits, r);
  }
  const micros = Number(process.hrtime.bigint() - started) / 1000 / rounds;
  return micros;
}

async function main(): Promise<void> {
  const { root, commit, paths } = makeRepository();
  try {
    const findingsByPath = new Map(paths.map((p, i) => [p, Array.from({ length: FINDINGS_PER_FILE }, (_, k) => range(20 + ((i + k * 61) % 260)))]));
    const gitCli = new GitCli(() => 'git');
    const moved = await mapAll(gitCli, root, commit, findingsByPath); // warm-up
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await mapAll(gitCli, root, commit, findingsByPath);
      runs.push(performance.now() - started);
    }
    const figures: Figure[] = [
      {
        key: 'driftMapMs',
        label: `Map ${FILES * FINDINGS_PER_FILE} findings in ${FILES} files, ${CHANGED} changed + 1 renamed (${moved} moved)`,
        value: median(runs),
        unit: 'ms',
        runs,
        max: MAX_MAP_MS,
      },
    ];
    for (const [inFile, inWorkspace] of [
      [10, 10_000],
      [10, 100_000],
      [100, 100_000],
      [1_000, 100_000],
    ] as const) {
      figures.push({
        key: `editMicros_${inFile}_${inWorkspace}`,
        label: `One keystroke, ${inFile} findings in the file, ${inWorkspace.toLocaleString('en-US')} in the workspace`,
        value: perEditMicros(inFile, inWorkspace),
        unit: 'µs',
      });
    }
    printTable(figures);
    await writeJson(OUTPUT, { figures });
    const failed = figures.filter((f) => f.max !== undefined && f.value > f.max);
    if (failed.length > 0) {
      console.error(`bench:drift: over target: ${failed.map((f) => f.key).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
