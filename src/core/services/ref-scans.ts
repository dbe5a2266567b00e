/**
 * The one rule for whether the platform has scanned a project's ref. It is a fact about the
 * platform, never about the user's filters, and every place that shows findings (Problems, the
 * status bar, the badge, the tree, the agent, the cached start) reads it here, so no two of them
 * can disagree.
 *
 * A ref has a scan when the platform holds any code or supply-chain finding of it, whatever the
 * finding's status. An answer under the user's filters that has a finding proves it, with no
 * request. An empty one proves nothing: the question is then asked without filters, one request
 * per kind, once, through the store, so the tree and Problems share its answer and the disk
 * cache keeps it. A kind that failed, or that the deployment lacks, proves nothing either: with no
 * kind answering, the ref is `unknown`, never `unscanned`.
 */
import { isCancelled } from '../model/errors';
import type { IssueType } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-query';
import type { FindingsStore } from './findings-store';
import { scanSlot as slotOf } from './slot-ids';

/** What the platform says of a ref: scanned, never scanned, or not known (no kind answered). */
export type RefScan = 'scanned' | 'unscanned' | 'unknown';

/** What a view that draws at once knows: `checking` while the question is on its way. */
export type RefScanNow = RefScan | 'checking';

/** The kinds whose findings carry a ref; secrets are not asked (a branch without secrets is usual). */
const PROBED: readonly IssueType[] = ['sast', 'sca'];

/** The question for one kind: every finding of the ref, no filter of the user's. */
export function scanQuestion(deploymentSlug: string, projectName: string, ref: string, issueType: IssueType): FindingsQuery {
  return { deploymentSlug, issueType, filters: { repos: [projectName], ref, dedup: true } };
}


/** The verdict of the kinds' answers (undefined: the kind did not answer). */
function verdictOf(answers: readonly (FindingsResult | undefined)[]): RefScan {
  if (answers.some((a) => a !== undefined && a.findings.length > 0)) return 'scanned';
  const answered = answers.filter((a) => a !== undefined && a.unavailable === undefined && a.staleBecause === undefined);
  return answered.length > 0 && answered.length === answers.filter((a) => a?.unavailable === undefined).length ? 'unscanned' : 'unknown';
}

export interface RefScanOptions {
  /** Findings an answer for the ref brought under the user's filters: one proves the scan. */
  readonly seen?: number;
  /** Asks the platform again (a forced refresh). */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
}

export class RefScans {
  constructor(private readonly store: Pick<FindingsStore, 'load' | 'state' | 'peek'>) {}

  /** Whether the ref was scanned, asking the platform when nothing known answers it. */
  async ask(deploymentSlug: string, projectName: string, ref: string, options: RefScanOptions = {}): Promise<RefScan> {
    if ((options.seen ?? 0) > 0) return 'scanned';
    const questions = PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind));
    const outcomes = await Promise.allSettled(questions.map((q) => this.store.load(slotOf(q), q, { force: options.force, signal: options.signal })));
    const cancelled = outcomes.find((o) => o.status === 'rejected' && isCancelled(o.reason));
    if (cancelled?.status === 'rejected') throw cancelled.reason;
    return verdictOf(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined)));
  }

  /**
   * What is known now, for a view that draws at once: the answers held (a fresh or an earlier
   * one, the disk cache's included), else `checking` with the question asked in the background.
   * A failed question is not asked again here (that would be on every redraw its failure causes).
   */
  now(deploymentSlug: string, projectName: string, ref: string, seen = 0): RefScanNow {
    if (seen > 0) return 'scanned';
    const questions = PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind));
    const held = this.held(questions);
    if (held !== undefined) return held;
    if (questions.some((q) => this.store.state(slotOf(q)).kind === 'failed')) return 'unknown';
    if (questions.some((q) => this.store.state(slotOf(q)).kind !== 'loading')) void this.ask(deploymentSlug, projectName, ref).catch(() => undefined);
    return 'checking';
  }

  /** What the held answers say, without a request; undefined when some kind has none yet. */
  known(deploymentSlug: string, projectName: string, ref: string, seen = 0): RefScan | undefined {
    if (seen > 0) return 'scanned';
    return this.held(PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind)));
  }

  private held(questions: readonly FindingsQuery[]): RefScan | undefined {
    const answers = questions.map((q) => this.store.peek(q));
    if (answers.some((a) => a !== undefined && a.findings.length > 0)) return 'scanned';
    return answers.every((a) => a !== undefined) ? verdictOf(answers) : undefined;
  }
}
