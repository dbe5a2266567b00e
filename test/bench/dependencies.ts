/**
 * Decoding 100 000 dependencies of the supply-chain inventory: ten answers of 10 000 (the most a
 * page holds) in the service's spelling, as the local platform writes them, across 500
 * repositories. Times the decoding of parsed answers and parsing with it, and weighs what the
 * decoded dependencies keep once the answers and the interner are gone.
 */
import { decodeDependenciesPage } from '../../src/core/model/decodeDependency';
import type { Dependency } from '../../src/core/model/dependency';
import { StringInterner } from '../../src/core/model/interner';
import { dependencyJson } from '../platform/dependency-answers';
import type { StoredDependency } from '../platform/dependencies';
import { CLEAN_PACKAGES } from '../platform/dependency-vocab';
import { forceGc, median, timeRounds, type Timing } from './measure';
import type { Figure } from './report';

const COUNT = 100_000;
const PAGE = 10_000;
const REPOSITORIES = 500;
const ROUNDS = 3;
const LICENSES: readonly (readonly string[])[] = [['MIT'], ['Apache-2.0'], ['BSD-3-Clause'], ['ISC'], ['MIT', 'Apache-2.0'], ['LGPL-2.1'], ['GPL-3.0']];

/** The answers' texts: packages drawn from a pool of 2 000 names in three versions each, as a large organization's inventory repeats them. */
function answerTexts(): string[] {
  const known = Object.values(CLEAN_PACKAGES)
    .flat()
    .map((p) => p.name);
  const names = [...known, ...Array.from({ length: 2000 - known.length }, (_, i) => `package-${i}`)];
  const texts: string[] = [];
  let items: Record<string, unknown>[] = [];
  for (let i = 0; i < COUNT; i++) {
    const repo = i % REPOSITORIES;
    const slot = Math.floor(i / REPOSITORIES);
    const n = (i * 7919) % names.length;
    const name = names[n] ?? 'x';
    // Three versions of each package across the repositories.
    const version = `${1 + (n % 4)}.${(n + repo) % 3}.${n % 7}`;
    const lockfile = slot % 5 === 4 ? 'packages/admin/package-lock.json' : 'package-lock.json';
    const d: StoredDependency = {
      id: 8_000_000_000_001 + i,
      repositoryId: 370_001 + repo,
      ecosystem: 'npm',
      name,
      version,
      transitivity: i % 10 === 0 ? 'unknown' : i % 3 === 0 ? 'direct' : 'transitive',
      licenses: [...(LICENSES[n % LICENSES.length] ?? [])],
      resolvedUrl: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`,
      lockfile,
      line: 10 + slot * 4,
      endLine: 13 + slot * 4,
      manifest: lockfile.replace('package-lock.json', 'package.json'),
      repoUrl: `https://github.com/acme/repository-${repo}`,
      commit: (repo * 2654435761).toString(16).padStart(40, 'a'),
      committedAt: '2024-05-31T18:04:11Z',
    };
    if (d.transitivity === 'direct') d.manifestLine = 6 + (slot % 40);
    items.push(dependencyJson(d, 'service'));
    if (items.length === PAGE) {
      texts.push(JSON.stringify({ dependencies: items, cursor: String(d.id), hasMore: i + 1 < COUNT }));
      items = [];
    }
  }
  return texts;
}

function decodeAll(pages: readonly unknown[]): Dependency[] {
  const interner = new StringInterner();
  const out: Dependency[] = [];
  for (const body of pages) {
    const page = decodeDependenciesPage(body, interner);
    if (page.skipped !== 0) throw new Error(`bench: ${page.skipped} dependencies skipped`);
    out.push(...page.items);
  }
  return out;
}

/** Decoding time, parsing and decoding time, and the heap the decoded dependencies keep. */
export async function dependencyFigures(): Promise<Figure[]> {
  const texts = answerTexts();
  let parsed: unknown[] | undefined = texts.map((t) => JSON.parse(t) as unknown);
  const check = (decoded: readonly Dependency[]): void => {
    if (decoded.length !== COUNT) throw new Error(`bench: decoded ${decoded.length} dependencies, not ${COUNT}`);
  };
  const [decodeOnly, parseAndDecode] = await timeRounds(ROUNDS, [
    () => Promise.resolve(check(decodeAll(parsed ?? []))),
    () => Promise.resolve(check(decodeAll(texts.map((t) => JSON.parse(t) as unknown)))),
  ]);
  // Nothing parsed earlier stays to share strings with what is measured.
  parsed = undefined;
  forceGc();
  const before = process.memoryUsage().heapUsed;
  // The answers are parsed here and let go of; only the decoded dependencies are kept.
  const kept = decodeAll(texts.map((t) => JSON.parse(t) as unknown));
  forceGc();
  const retained = process.memoryUsage().heapUsed - before;
  check(kept);
  const ms = (timings: readonly Timing[]): number => median(timings.map((t) => t.ms));
  const label = `${COUNT.toLocaleString('en-US')} dependencies, ${REPOSITORIES} repositories, pages of ${PAGE.toLocaleString('en-US')}`;
  return [
    { key: 'dependenciesDecodeMs', label: `Decoding ${label}`, value: ms(decodeOnly), unit: 'ms', runs: decodeOnly.map((t) => t.ms) },
    {
      key: 'dependenciesParseDecodeMs',
      label: 'Same answers, JSON.parse + decoding',
      value: ms(parseAndDecode),
      unit: 'ms',
      runs: parseAndDecode.map((t) => t.ms),
    },
    {
      key: 'dependenciesRetainedBytesPerDependency',
      label: 'Retained heap per decoded dependency (answers and interner dropped)',
      value: retained / kept.length,
      unit: 'bytes',
    },
  ];
}
