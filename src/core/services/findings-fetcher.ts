/**
 * Fetches every page of one findings query. A branch is asked for in the spelling the
 * deployment's findings use (`main` or `refs/heads/main`; docs/platform-api.md, "Branches"):
 * while that is not known, an empty answer is asked again in the other spelling, and the one
 * that brought findings is learnt for the deployment and kept for the next start, so only the
 * very first load of a deployment that spells branches in full waits for a second answer. Each
 * list asks at once as many pages as it took last time, and its end (`answer-shapes.ts`).
 *
 * A kind the deployment does not have answers with no findings and `unavailable` set, rather than
 * failing: the other kinds never wait on it or fail with it (`kind-availability.ts`).
 */
import { cancelledError, PlatformError } from '../model/errors';
import { StringInterner } from '../model/interner';
import { sameBranch, spellRef, spellingOf } from '../model/refs';
import { AnswerShapes } from './answer-shapes';
import type { Finding, FindingFilters, ListIssueType } from '../model/types';
import type { FindingsCallOptions, KeptPage, ReadFindingsPage } from '../api/findings-requests';
import type { AiPart, FindingsQuery, FindingsResult } from './findings-query';
import { unavailableOf, type FindingKind, type KindAvailability } from './kind-availability';
import { kindOf } from '../model/finding-kinds';
import type { PlatformApi } from './platform-api';

/**
 * What a list's pages made last time, page by page, kept with its answer (`FindingsStore`): the
 * next load of the same list gives back a page whose bytes come again as it was, unparsed, so a
 * refresh that changes nothing does not decode what it already holds (docs/performance.md, "The
 * refresh that changes nothing"). Each page's findings are those kept after `reuse`: the objects
 * the store holds, so keeping them costs a reference each.
 */
export interface KeptPages {
  /** The list: its deployment, kind, filters as sent (the ref spelled as sent) and page size. */
  readonly list: string;
  readonly pages: ReadonlyMap<number, KeptPage>;
}

/** Where a list's kept pages live between loads (the store's entry for the query): read, then replaced once a load ends. */
export interface PageMemory {
  pages?: KeptPages;
}

/** The statuses the secrets list filters by (`FINDING_STATUS_…`); others are applied here. */
const SECRET_STATUSES = new Set(['open', 'ignored', 'fixed', 'removed', 'unknown', 'provisionally_ignored']);

export class FindingsFetcher {
  constructor(
    private readonly api: () => PlatformApi,
    private readonly pageSize: number,
    /** The deployment's id, which the secrets list takes instead of its slug. */
    private readonly deploymentId: (slug: string) => string | undefined = () => undefined,
    /** Told, per kind, whether the deployment answered for it. */
    private readonly availability?: Pick<KindAvailability, 'note'>,
    /** What was learnt of the deployment's answers: its branch spelling, its lists' lengths. */
    readonly shapes: AnswerShapes = new AnswerShapes(),
  ) {}

  /** Forgets what was learnt (another deployment, or none). */
  forget(): void {
    this.shapes.forget();
  }

  /**
   * `onProgress` hears the findings arrived so far, after each page (one list that grows: a
   * listener that keeps it copies it). `reuse` gives, for
   * each finding as its page is decoded, the object to keep instead (one already held that is the
   * same): the fresh copy is then dropped at once rather than held until the last page, which in
   * the extension host made the garbage collector copy 50 000 findings it was about to drop.
   */
  async fetch(
    query: FindingsQuery,
    signal: AbortSignal,
    onProgress?: (soFar: readonly Finding[]) => void,
    reuse?: (finding: Finding) => Finding,
    memory?: PageMemory,
  ): Promise<FindingsResult> {
    const ref = query.filters.ref;
    // The secrets list has no ref filter: its branch is kept by name, whatever the spelling.
    if (kindOf(query).list === 'secrets') return this.fetchFiltered(query, query.filters, signal, onProgress, reuse);
    if (ref === undefined || spellingOf(ref) === undefined) return this.fetchFiltered(query, query.filters, signal, onProgress, reuse, memory);
    const known = this.shapes.spelling;
    const first = known ?? 'short';
    const result = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, first) }, signal, onProgress, reuse, memory);
    if (result.findings.length > 0 || result.skipped > 0) {
      this.shapes.learnSpelling(first);
      return result;
    }
    // A kind the deployment does not have answers the same in either spelling.
    if (known || result.unavailable) return result;
    const other = first === 'short' ? 'full' : 'short';
    const retried = await this.fetchFiltered(query, { ...query.filters, ref: spellRef(ref, other) }, signal, onProgress, reuse, memory);
    if (retried.findings.length > 0 || retried.skipped > 0) this.shapes.learnSpelling(other);
    return retried;
  }

  /**
   * Every page of one query, sent with `filters` (the query's own, or its ref spelled otherwise).
   * Code findings come with the AI code findings (`ai_sast`), asked for beside them; secrets come
   * from their own list, narrowed here to the query's branch.
   */
  private async fetchFiltered(
    query: FindingsQuery,
    filters: FindingFilters,
    signal: AbortSignal,
    onProgress?: (soFar: readonly Finding[]) => void,
    reuse: (finding: Finding) => Finding = (f) => f,
    memory?: PageMemory,
  ): Promise<FindingsResult> {
    const interner = new StringInterner();
    const findings: Finding[] = [];
    let skipped = 0;
    const list = JSON.stringify([query.deploymentSlug, query.issueType, filters, this.pageSize]);
    const before = memory?.pages?.list === list ? memory.pages.pages : undefined;
    const kept = new Map<number, KeptPage>();
    const collect = async (pages: AsyncIterable<ReadFindingsPage>, keep?: (finding: Finding) => boolean): Promise<void> => {
      for await (const page of pages) {
        const start = findings.length;
        for (const finding of page.findings) if (!keep || keep(finding)) findings.push(reuse(finding));
        skipped += page.skipped;
        if (page.from && memory)
          kept.set(page.from.page, { digest: page.from.digest, findings: findings.slice(start), skipped: page.skipped, rawCount: page.from.rawCount });
        if (findings.length > 0) onProgress?.(findings);
      }
    };
    const options = { signal, pageSize: this.pageSize, interner };
    // Each list asks at once the pages it took last time, and its end.
    const paged = (issueType: ListIssueType): FindingsCallOptions & { signal: AbortSignal } => {
      // The AI list, an addition to the code findings, is short: two pages when never read.
      const hints = this.shapes.hints(
        JSON.stringify(['findings', query.deploymentSlug, issueType, filters, this.pageSize]),
        issueType === 'ai_sast' ? 2 : undefined,
      );
      return { ...options, ...hints };
    };
    // The code or supply-chain list itself (not the AI list beside it) gives back its kept pages.
    const ownList = (issueType: ListIssueType): FindingsCallOptions & { signal: AbortSignal } => ({
      ...paged(issueType),
      ...(before ? { previousPage: (page: number) => before.get(page) } : {}),
    });
    const kind: FindingKind = query.issueType;
    const { list: listed, aiAnalysed } = kindOf(query);
    let ai: { findings: Finding[]; skipped: number; part?: AiPart } | undefined;
    try {
      if (listed === 'secrets') {
        const id = this.deploymentId(query.deploymentSlug);
        if (!id) throw new PlatformError('unauthorized', "Sign in again: the deployment's id, which the secrets list needs, is not known.");
        // The list has no branch filter and fewer statuses than code findings: both are kept here too.
        const { ref, status, ...rest } = filters;
        const sent = status && SECRET_STATUSES.has(status) ? { ...rest, status } : rest;
        await collect(this.api().secrets(id, sent, { signal, interner }), (f) => (!ref || sameBranch(f.ref, ref)) && (!status || f.status === status));
      } else if (aiAnalysed) {
        // Side by side: the AI list adds no round trip to the code findings' own, and never fails them.
        const aiLoad = this.collectAi(query, filters, paged('ai_sast'), reuse);
        // If the code findings fail first, the AI list's own outcome is not a second, unheard error.
        aiLoad.catch(() => undefined);
        try {
          await collect(this.api().findings(query.deploymentSlug, listed.issueType, filters, ownList(listed.issueType)));
        } finally {
          ai = await aiLoad.catch(() => undefined);
        }
        // The AI list stops only when the load is cancelled: then the whole load is.
        if (signal.aborted) throw cancelledError();
      } else {
        await collect(this.api().findings(query.deploymentSlug, listed.issueType, filters, ownList(listed.issueType)));
      }
    } catch (e) {
      const unavailable = unavailableOf(e, listed !== 'secrets');
      if (!unavailable) throw e;
      this.availability?.note(kind, unavailable);
      return { query, findings: ai?.findings ?? [], skipped: ai?.skipped ?? 0, loadedAt: new Date(), unavailable, ...(ai?.part ? { ai: ai.part } : {}) };
    }
    this.availability?.note(kind, undefined);
    if (memory) memory.pages = { list, pages: kept };
    if (ai) {
      for (const finding of ai.findings) findings.push(finding);
      skipped += ai.skipped;
    }
    return { query, findings, skipped, loadedAt: new Date(), ...(ai?.part ? { ai: ai.part } : {}) };
  }

  /**
   * AI code findings are a newer kind: a deployment (or plan) without the AI analysis refuses
   * `issue_type=ai_sast` as a bad or unknown request, and one whose list fails for a while still
   * shows its code findings. Only cancellation goes up.
   */
  private async collectAi(
    query: FindingsQuery,
    filters: FindingFilters,
    options: FindingsCallOptions & { signal: AbortSignal },
    reuse: (finding: Finding) => Finding,
  ): Promise<{ findings: Finding[]; skipped: number; part?: AiPart }> {
    const found: Finding[] = [];
    let skipped = 0;
    try {
      for await (const page of this.api().findings(query.deploymentSlug, 'ai_sast', filters, options)) {
        for (const finding of page.findings) found.push(reuse(finding));
        skipped += page.skipped;
      }
    } catch (e) {
      if (PlatformError.is(e, 'cancelled') || options.signal.aborted) throw e;
      const unavailable = unavailableOf(e, true);
      this.availability?.note('ai', unavailable);
      return { findings: [], skipped: 0, part: unavailable ? { unavailable } : { failedBecause: e } };
    }
    this.availability?.note('ai', undefined);
    return { findings: found, skipped };
  }
}
