/**
 * The findings of the workspace's projects on disk, and what Problems drew of them: written after
 * each refresh Problems drew (never after a patch or a redraw: only a refresh's answers are
 * worth keeping), the open files' part kept up to date as editors change, and read back at a
 * start so Problems is drawn before the platform answers.
 */
import * as vscode from 'vscode';
import type { Emitter } from '../core/events';
import type { FindingsCache } from '../core/services/findings-cache';
import { queryKey, type FindingsResult } from '../core/services/findings-query';
import type { FindingsStore } from '../core/services/findings-store';
import { decodeShownInSlices, encodeShownInSlices } from '../core/services/shown-snapshot';
import type { Logger } from '../host/logger';
import type { CachedStart } from './cached-start';
import type { ProblemsRenderer } from './problems-renderer';
import { sameList } from './kept-drawing';
import { shownReader, shownRecord } from './shown-diagnostics';

/** Findings at most in the cache's part for open files: it must stay quick to read at a start. */
const OPEN_PART_LIMIT = 5000;
/** A refresh's answers are written this long after Problems drew them, off the refresh's path. */
const WRITE_DELAY_MS = 1000;
/** Editors settle (a window restores several) before the open files' part is written again. */
const OPEN_PART_DELAY_MS = 1500;

export interface CacheKeepingDeps {
  readonly cache: FindingsCache;
  readonly store: Pick<FindingsStore, 'shownResults' | 'adopt'>;
  readonly renderer: ProblemsRenderer;
  readonly cachedStart: CachedStart;
  readonly deploymentSlug: () => string | undefined;
  readonly projectNames: () => ReadonlySet<string>;
  readonly enabled: () => boolean;
  readonly log: Logger;
}

/**
 * What this session last wrote, by identity (the store shares an unchanged finding's object, and
 * a file VS Code was handed nothing for keeps its diagnostics): a refresh that leaves all of it
 * the same writes nothing. A start's first refresh always writes, so the cache's age is that of
 * the last change or of this session's first answer, never newer than what was seen.
 */
interface Written {
  readonly deployment: string;
  /** The cache's clears when it was written (a sign-out empties it). */
  readonly clears: number;
  readonly results: readonly FindingsResult[];
  readonly view: string | undefined;
  readonly shown: readonly (readonly [string, readonly vscode.Diagnostic[]])[] | undefined;
}

function sameWrite(a: Written, b: Written): boolean {
  const sameAnswer = (x: FindingsResult, y: FindingsResult): boolean =>
    queryKey(x.query) === queryKey(y.query) && x.skipped === y.skipped && sameList(x.findings, y.findings);
  const sameFile = (x: readonly [string, readonly vscode.Diagnostic[]], y: readonly [string, readonly vscode.Diagnostic[]]): boolean =>
    x[0] === y[0] && sameList(x[1], y[1]);
  return (
    a.deployment === b.deployment &&
    a.clears === b.clears &&
    a.view === b.view &&
    a.results.length === b.results.length &&
    a.results.every((r, i) => sameAnswer(r, b.results[i])) &&
    (a.shown === undefined
      ? b.shown === undefined
      : b.shown !== undefined && a.shown.length === b.shown.length && a.shown.every((file, i) => sameFile(file, b.shown![i])))
  );
}

/** What a refresh's answers came to on disk: written, or the same as this session last wrote. */
export type KeptOnDisk = 'written' | 'unchanged';

/** Keeps the cache written as Problems changes; disposing stops the pending writes. */
export function keepFindingsOnDisk(deps: CacheKeepingDeps, kept: Emitter<KeptOnDisk>): vscode.Disposable {
  const { cache, cachedStart, log } = deps;
  let write: ReturnType<typeof setTimeout> | undefined;
  let openPartWrite: ReturnType<typeof setTimeout> | undefined;
  let written: Written | undefined;
  const keep = async (now: Written): Promise<void> => {
    const bytes = await cache.write(now.deployment, now.results);
    await cache.writeOpen(now.deployment, cachedStart.openAnswers(OPEN_PART_LIMIT));
    if (now.shown && now.view) await cache.writeShown(now.deployment, now.view, await encodeShownInSlices(now.shown, shownRecord));
    written = now;
    log.info(`Kept ${now.results.length} answers of the workspace's projects on disk (${Math.round(bytes / 1024)} KiB).`);
    kept.fire('written');
  };
  const drawn = deps.renderer.onDidChange(({ cause }) => {
    const deployment = deps.deploymentSlug();
    if (cause !== 'refresh' || !deployment) return;
    clearTimeout(write);
    write = setTimeout(() => {
      const mine = deps.projectNames();
      const results = deps.store.shownResults().filter((r) => (r.query.filters.repos ?? []).every((name) => mine.has(name)));
      const now: Written = { deployment, clears: cache.clears, results, view: cachedStart.viewKey(), shown: cachedStart.shownFiles() };
      if (!written || !sameWrite(written, now)) return void keep(now);
      log.info('The refresh changed nothing: the findings kept on disk stay as they are.');
      kept.fire('unchanged');
    }, WRITE_DELAY_MS);
  });
  // The files open in editors are opened again at the next start: their part of the cache is
  // kept up to date as editors change, so that start draws them first.
  const editors = vscode.window.onDidChangeVisibleTextEditors(() => {
    clearTimeout(openPartWrite);
    openPartWrite = setTimeout(() => {
      const deployment = deps.deploymentSlug();
      if (deployment && deps.enabled() && deps.renderer.current.length > 0) void cache.writeOpen(deployment, cachedStart.openAnswers(OPEN_PART_LIMIT));
    }, OPEN_PART_DELAY_MS);
  });
  return {
    dispose: () => {
      clearTimeout(write);
      clearTimeout(openPartWrite);
      drawn.dispose();
      editors.dispose();
    },
  };
}

/**
 * Draws what the disk cache keeps, before any answer: the open files' part, then every diagnostic
 * the last session showed, then the findings behind them. False when nothing could be shown.
 */
export async function startFromCache(deps: CacheKeepingDeps): Promise<boolean> {
  const { cache, cachedStart, log } = deps;
  const deployment = deps.deploymentSlug();
  if (!deployment || !deps.enabled()) return false;
  // The open files' part first: a few hundred findings, drawn before the whole is read.
  const openPart = await cache.readOpen(deployment);
  let previewed = openPart !== undefined && cachedStart.previewCached(openPart);
  // Then every diagnostic the last session showed, as it showed them: drawn before the findings
  // behind them are read (which takes as long again), given those findings when they are.
  const view = cachedStart.viewKey();
  const shownText = view === undefined ? undefined : await cache.readShown(deployment, view);
  // A URI that no longer parses makes the reader throw: the file is then not used, like a broken one.
  const shownFiles = shownText === undefined ? undefined : await decodeShownInSlices(shownText, shownReader).catch(() => undefined);
  if (shownText !== undefined && !shownFiles)
    log.warn('What Problems showed in the last session could not be read; the findings are drawn from the cache instead.');
  if (shownFiles && (await cachedStart.drawShown(shownFiles))) previewed = true;
  const results = await cache.read(deployment);
  if (results && results.length > 0) deps.store.adopt(results);
  const shown = results !== undefined && results.length > 0 && (await cachedStart.showCached());
  // The whole cache could not be used: its open files' part does not stay on its own.
  if (previewed && !shown) cachedStart.dropPreview();
  if (shown) log.info(`Showing ${results.length} answers from the last session until the platform answers.`);
  return shown;
}
