/**
 * The disk cache's registration: the findings of the workspace's projects and what Problems drew
 * of them, written after each refresh Problems drew (`cache-keeping.ts`), and `startFromCache`,
 * which draws them at the next start before the platform answers.
 */
import type * as vscode from 'vscode';
import { Emitter, type Event } from '../core/events';
import { FindingsCache } from '../core/services/findings-cache';
import type { FindingsStore } from '../core/services/findings-store';
import type { Logger } from '../host/logger';
import { settings } from '../host/settings';
import { keepFindingsOnDisk, startFromCache, type KeptOnDisk } from './cache-keeping';
import type { CachedStart } from './cached-start';
import type { ProblemsRenderer } from './problems-renderer';

export interface CacheDeps {
  readonly findings: Pick<FindingsStore, 'shownResults' | 'adopt'>;
  readonly diagnostics: ProblemsRenderer;
  readonly cachedStart: CachedStart;
  readonly deploymentSlug: () => string | undefined;
  readonly repos: { projectNames(): ReadonlySet<string> };
  logger(component: string): Logger;
}

export interface CacheRegistration {
  /** The findings kept on disk (forgotten on sign-out). */
  readonly cache: FindingsCache;
  /** Shows the findings kept on disk from the last session (start-up); false when there are none. */
  startFromCache(): Promise<boolean>;
  /** Fires once per refresh Problems drew, when its answers are on disk or found the same as written. */
  readonly onDidKeepFindings: Event<KeptOnDisk>;
}

export function registerCache(context: vscode.ExtensionContext, deps: CacheDeps): CacheRegistration {
  const log = deps.logger('Findings');
  const cache = new FindingsCache({
    dir: context.globalStorageUri.fsPath,
    maxBytes: () => settings.cacheMaxBytes(),
    onProblem: (m) => log.warn(m),
    origin: () => settings.baseUrl(),
  });
  const keeping = {
    cache,
    store: deps.findings,
    renderer: deps.diagnostics,
    cachedStart: deps.cachedStart,
    deploymentSlug: deps.deploymentSlug,
    projectNames: () => deps.repos.projectNames(),
    enabled: () => settings.cacheMaxBytes() > 0,
    log,
  };
  const kept = new Emitter<KeptOnDisk>();
  context.subscriptions.push(kept, keepFindingsOnDisk(keeping, kept));
  return { cache, startFromCache: () => startFromCache(keeping), onDidKeepFindings: kept.event };
}
