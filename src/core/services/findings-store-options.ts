/**
 * What a findings store is made with: the page size it loads in, how many findings the answers no
 * view shows may hold (and the default for that, which the host's settings fall back on), the
 * deployment id the secrets list asks with, what was learnt of how the deployment answers, and
 * whom to tell of a failed load or a listener that threw. The settings read the default here,
 * without loading the store.
 */
import type { AnswerShapes } from './answer-shapes';
import type { FindingsQuery } from './findings-query';

export interface FindingsStoreOptions {
  /** Findings page size (100..3000). */
  readonly pageSize?: number;
  /** Findings that answers no view shows may hold before the least recently used are dropped. */
  readonly unshownLimit?: () => number;
  /** Told of a load that failed (the answer shown before stays, marked stale). */
  readonly onLoadFailed?: (query: FindingsQuery, error: unknown) => void;
  /** The signed-in deployment's id (the secrets list takes it instead of the slug). */
  readonly deploymentId?: (slug: string) => string | undefined;
  /** What was learnt of how the deployment answers (shared with the project list). */
  readonly shapes?: AnswerShapes;
  /** Told of a listener that threw, with the listener's name. */
  readonly onListenerError?: (name: string, error: unknown) => void;
}

export const DEFAULT_UNSHOWN_LIMIT = 200_000;
