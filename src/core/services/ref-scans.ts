/**
 * The one rule for whether the platform has scanned a project's ref. It is a fact about the
 * platform, never about the user's filters, and every place that shows findings (Problems, the
 * status bar, the badge, the tree, the agent, the cached start) reads it here, so no two of them
 * can disagree.
 *
 * A ref has a scan when the platform holds any code or supply-chain finding of it, whatever the
 * finding's status, or when the platform's list of completed scans names the branch (a branch
 * scanned clean has no finding to prove it). An answer under the user's filters that has a
 * finding proves it, with no request. An empty one proves nothing: the question is then asked
 * without filters, one request per kind, once, through the store, so the tree and Problems share
 * its answer and the disk cache keeps it; only when those find nothing is the scan list asked,
 * once per project. A kind that failed, or that the deployment lacks, proves nothing either: with
 * no kind answering, the ref is `unknown`, never `unscanned`. The branch pickers read the same
 * list here, so what they mark scanned is what the views show as scanned.
 */
import { isCancelled } from '../model/errors';
import type { IssueType } from '../model/types';
import type { FindingsQuery, FindingsResult } from './findings-query';
import type { FindingsStore } from './findings-store';
import { scanSlot as slotOf } from './slot-ids';
import { branchName } from '../model/refs';
import { kindsWhere } from '../model/finding-kinds';
import { Emitter, type Disposable } from '../events';

/**
 * The branches of a project with a completed scan, most recently scanned first (the platform's
 * scan search); undefined when the deployment cannot say (it lacks the call, or the project is
 * not known yet).
 */
export type ScanList = (deploymentSlug: string, projectName: string, signal?: AbortSignal) => Promise<readonly string[] | undefined>;

/** What the platform says of a ref: scanned, never scanned, or not known (no kind answered). */
export type RefScan = 'scanned' | 'unscanned' | 'unknown';

/** What a view that draws at once knows: `checking` while the question is on its way. */
export type RefScanNow = RefScan | 'checking';

/** The kinds the platform lists by ref; secrets are not asked (a branch without secrets is usual). */
const PROBED: readonly IssueType[] = kindsWhere((kind) => kind.list !== 'secrets');

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

/** What the scan list said of a project: the branches it names, or nothing (it cannot say, or failed). */
type Listed = { readonly branches: readonly string[]; readonly names: ReadonlySet<string> } | 'cannot say';

export class RefScans implements Disposable {
  /** What the scan list said, by deployment and project. */
  private readonly listed = new Map<string, Listed>();
  /** The scan-list questions on their way, by deployment and project. */
  private readonly listing = new Map<string, Promise<readonly string[] | undefined>>();
  private readonly listedNow = new Emitter<void>();
  /** Fires when a project's scan list answered (or failed): a view that drew `checking` reads it again. */
  readonly onDidList = this.listedNow.event;

  constructor(
    private readonly store: Pick<FindingsStore, 'load' | 'state' | 'peek'>,
    private readonly list?: ScanList,
  ) {}

  /** Whether the ref was scanned, asking the platform when nothing known answers it. */
  async ask(deploymentSlug: string, projectName: string, ref: string, options: RefScanOptions = {}): Promise<RefScan> {
    if ((options.seen ?? 0) > 0 || this.listedBranch(deploymentSlug, projectName, ref) === true) return 'scanned';
    const questions = PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind));
    const outcomes = await Promise.allSettled(questions.map((q) => this.store.load(slotOf(q), q, { force: options.force, signal: options.signal })));
    const cancelled = outcomes.find((o) => o.status === 'rejected' && isCancelled(o.reason));
    if (cancelled?.status === 'rejected') throw cancelled.reason;
    const verdict = verdictOf(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : undefined)));
    if (verdict !== 'unscanned') return verdict;
    const branches = await this.branches(deploymentSlug, projectName, options).catch((error: unknown) => {
      if (isCancelled(error)) throw error;
      return undefined;
    });
    return branches?.includes(branchName(ref)) ? 'scanned' : 'unscanned';
  }

  /**
   * The branches the platform has completed scans of, most recent first, by their short names:
   * asked once per project (again with `force`), and what `ask` reads after its findings.
   * Undefined when the deployment cannot say; a failure is the caller's to handle.
   */
  branches(deploymentSlug: string, projectName: string, options: Pick<RefScanOptions, 'force' | 'signal'> = {}): Promise<readonly string[] | undefined> {
    const key = listKey(deploymentSlug, projectName);
    const held = this.listed.get(key);
    if (held !== undefined && !options.force) return Promise.resolve(held === 'cannot say' ? undefined : held.branches);
    const asking = this.listing.get(key);
    if (asking && !options.force) return asking;
    const answer = (this.list?.(deploymentSlug, projectName, options.signal) ?? Promise.resolve(undefined))
      .then(
        (branches) => {
          this.listed.set(key, branches === undefined ? 'cannot say' : { branches, names: new Set(branches.map(branchName)) });
          this.listedNow.fire();
          return branches;
        },
        (error: unknown) => {
          // A failure is not asked again by every redraw; a refresh (`force`) asks again.
          if (!isCancelled(error)) {
            this.listed.set(key, 'cannot say');
            this.listedNow.fire();
          }
          throw error;
        },
      )
      .finally(() => {
        if (this.listing.get(key) === answer) this.listing.delete(key);
      });
    this.listing.set(key, answer);
    return answer;
  }

  /** Whether the scan list names the branch; undefined while it was not asked (or is on its way). */
  private listedBranch(deploymentSlug: string, projectName: string, ref: string): boolean | undefined {
    if (!this.list) return false;
    const held = this.listed.get(listKey(deploymentSlug, projectName));
    return held === undefined ? undefined : held !== 'cannot say' && held.names.has(branchName(ref));
  }

  /**
   * What is known now, for a view that draws at once: the answers held (a fresh or an earlier
   * one, the disk cache's included), else `checking` with the question asked in the background.
   * A failed question is not asked again here (that would be on every redraw its failure causes).
   */
  now(deploymentSlug: string, projectName: string, ref: string, seen = 0): RefScanNow {
    if (seen > 0 || this.listedBranch(deploymentSlug, projectName, ref) === true) return 'scanned';
    const questions = PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind));
    const held = this.held(deploymentSlug, projectName, ref, questions);
    if (held !== undefined) return held;
    if (questions.some((q) => this.store.state(slotOf(q)).kind === 'failed')) return 'unknown';
    if (questions.every((q) => this.store.peek(q) !== undefined)) {
      // Only the scan list is still to say: the view hears of its answer (`onDidList`).
      void this.branches(deploymentSlug, projectName).catch(() => undefined);
    } else if (questions.some((q) => this.store.state(slotOf(q)).kind !== 'loading')) void this.ask(deploymentSlug, projectName, ref).catch(() => undefined);
    return 'checking';
  }

  /** What the held answers say, without a request; undefined when some kind, or the scan list, has none yet. */
  known(deploymentSlug: string, projectName: string, ref: string, seen = 0): RefScan | undefined {
    if (seen > 0 || this.listedBranch(deploymentSlug, projectName, ref) === true) return 'scanned';
    return this.held(
      deploymentSlug,
      projectName,
      ref,
      PROBED.map((kind) => scanQuestion(deploymentSlug, projectName, ref, kind)),
    );
  }

  private held(deploymentSlug: string, projectName: string, ref: string, questions: readonly FindingsQuery[]): RefScan | undefined {
    const answers = questions.map((q) => this.store.peek(q));
    if (answers.some((a) => a !== undefined && a.findings.length > 0)) return 'scanned';
    if (!answers.every((a) => a !== undefined)) return undefined;
    const verdict = verdictOf(answers);
    // No finding of the ref: "never scanned" waits for the scan list (a branch scanned clean).
    return verdict === 'unscanned' && this.listedBranch(deploymentSlug, projectName, ref) === undefined ? undefined : verdict;
  }

  dispose(): void {
    this.listedNow.dispose();
  }
}

function listKey(deploymentSlug: string, projectName: string): string {
  return `${deploymentSlug}\u0000${projectName}`;
}
