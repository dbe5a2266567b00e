/**
 * The findings of the workspace's projects on disk, and what Problems drew of them: written after
 * each refresh Problems drew (never after a patch or a redraw: only a refresh's answers are
 * worth keeping), the open files' part kept up to date as editors change, and read back at a
 * start so Problems is drawn before the platform answers.
 */
import * as vscode from 'vscode';
import type { FindingsCache } from '../core/services/findings-cache';
import type { FindingsStore } from '../core/services/findings-store';
import { decodeShownInSlices, encodeShownInSlices } from '../core/services/shown-snapshot';
import type { Logger } from '../host/logger';
import type { CachedStart } from './cached-start';
import type { ProblemsRenderer } from './problems-renderer';
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

/** Keeps the cache written as Problems changes; disposing stops the pending writes. */
export function keepFindingsOnDisk(deps: CacheKeepingDeps): vscode.Disposable {
  const { cache, cachedStart, log } = deps;
  let write: ReturnType<typeof setTimeout> | undefined;
  let openPartWrite: ReturnType<typeof setTimeout> | undefined;
  const keepShown = async (deployment: string): Promise<void> => {
    const files = cachedStart.shownFiles();
    const view = cachedStart.viewKey();
    if (files && view) await cache.writeShown(deployment, view, await encodeShownInSlices(files, shownRecord));
  };
  const drawn = deps.renderer.onDidChange(({ cause }) => {
    const deployment = deps.deploymentSlug();
    if (cause !== 'refresh' || !deployment) return;
    clearTimeout(write);
    write = setTimeout(() => {
      const mine = deps.projectNames();
      const results = deps.store.shownResults().filter((r) => (r.query.filters.repos ?? []).every((name) => mine.has(name)));
      void cache.write(deployment, results).then(async (bytes) => {
        log.info(`Kept ${results.length} answers of the workspace's projects on disk (${Math.round(bytes / 1024)} KiB).`);
        await cache.writeOpen(deployment, cachedStart.openAnswers(OPEN_PART_LIMIT));
        await keepShown(deployment);
      });
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
  if (shownText !== undefined && !shownFiles) log.warn('What Problems showed in the last session could not be read; the findings are drawn from the cache instead.');
  if (shownFiles && await cachedStart.drawShown(shownFiles)) previewed = true;
  const results = await cache.read(deployment);
  if (results && results.length > 0) deps.store.adopt(results);
  const shown = results !== undefined && results.length > 0 && await cachedStart.showCached();
  // The whole cache could not be used: its open files' part does not stay on its own.
  if (previewed && !shown) cachedStart.dropPreview();
  if (shown) log.info(`Showing ${results.length} answers from the last session until the platform answers.`);
  return shown;
}
