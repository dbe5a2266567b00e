/**
 * Acting on findings on the platform: triage (a state, a reason, a note) and tickets. Each
 * change is made once, here, as a store patch, so the tree, Problems, the status bar and the
 * details all show it at once; the patch is rolled back exactly when the platform refuses, and
 * committed (kept until the next load) when it accepts. What the user typed is never lost: a
 * refused request's error carries the note back.
 */
import { formatNumber, said, t, type Said } from '../l10n';
import { PlatformError } from '../model/errors';
import { ISSUE_TYPES, type Finding, type IssueType } from '../model/types';
import type { TicketLinkResult, TicketResult } from '../model/triage-and-tickets';
import { isHttpUrl } from '../model/links';
import type { PatchHandle } from './finding-patches';
import type { FindingsStore } from './findings-store';
import type { PlatformApi } from './platform-api';
import { countSaid, sayTriageProblem, stateToRestore, TICKET_BATCH, TRIAGE_BATCH, triageChange, type TriageInput } from './triage-rules';

/** Said in English (`message`: the log, the agent's tools) and in the display language (`text`: the toast). */
abstract class SaidError extends Error {
  readonly text: string;
  constructor(message: Said) {
    super(message.english);
    this.text = message.text;
  }
}

/** Refused before any request: the message says what to change; `note` is what the user typed. */
export class TriageInputError extends SaidError {
  override readonly name = 'TriageInputError';
  constructor(
    message: Said,
    readonly note?: string,
  ) {
    super(message);
  }
}

/** The platform refused (part of) a triage; `note` is what the user typed, to offer again. */
export class TriageRefusedError extends SaidError {
  override readonly name = 'TriageRefusedError';
  constructor(
    message: Said,
    override readonly cause: unknown,
    readonly note: string | undefined,
    readonly triagedBefore: number,
  ) {
    super(message);
  }
}

export interface UndoOutcome {
  /** How many findings the platform put back (other branches' copies included). */
  readonly restored: number;
  /** Findings that had no note before the triage wrote one: the platform keeps it. */
  readonly notesLeft: number;
}

/** What Undo says it did: the state put back, and a note it could not take away. */
export function undoneText(asked: number, notesLeft: number): string {
  const findings = (n: number): string => (n === 1 ? t('{0} finding', formatNumber(n)) : t('{0} findings', formatNumber(n)));
  // Short enough for a toast's first lines: the part about the note is what a user must not miss.
  if (notesLeft === 0) return t('Undone: {0} as before.', findings(asked));
  if (notesLeft === asked)
    return asked === 1
      ? t('Undone: {0} as before; the platform keeps the note on it.', findings(asked))
      : t('Undone: {0} as before; the platform keeps the note on them.', findings(asked));
  return t('Undone: {0} as before; the platform keeps the note on {1}.', findings(asked), findings(notesLeft));
}

export interface TriageOutcome {
  /** How many findings the platform changed (other branches' copies included). */
  readonly triaged: number;
  readonly ids: readonly number[];
  /** Each finding as it was before, for Undo (those the store held). */
  readonly before: readonly Finding[];
}

export interface TriageServiceDeps {
  readonly api: () => PlatformApi;
  readonly store: FindingsStore;
  readonly deploymentSlug: () => string | undefined;
  readonly deploymentId: () => string | undefined;
}

export class TriageService {
  constructor(private readonly deps: TriageServiceDeps) {}

  /**
   * Triages findings of one issue type: shown at once, sent in batches of 3 000, rolled back
   * when refused (batches the platform accepted stay), reconciled with the ids it answers.
   */
  async triage(issueType: IssueType, ids: readonly number[], input: TriageInput): Promise<TriageOutcome> {
    const problem = sayTriageProblem(ids, input);
    if (problem) throw new TriageInputError(problem, input.note);
    const slug = this.signedIn(said('Sign in to triage.'));
    const unique = [...new Set(ids)];
    const before = unique.map((id) => this.deps.store.finding(slug, issueType, id)).filter((f): f is Finding => f !== undefined);
    const change = triageChange(input);
    const triaged: number[] = [];
    let count = 0;
    for (let start = 0; start < unique.length; start += TRIAGE_BATCH) {
      const batch = unique.slice(start, start + TRIAGE_BATCH);
      const patch = this.deps.store.patch(slug, issueType, batch, change);
      try {
        const answer = await this.deps.api().triage(slug, { issueType, ids: batch, state: input.state, reason: input.reason, note: input.note });
        patch.commit();
        count += answer.triaged;
        triaged.push(...answer.triagedIds);
      } catch (error) {
        patch.rollback();
        const why = saidOf(error);
        throw new TriageRefusedError(
          start > 0 ? said('{0}. {1} of {2} were triaged before that.', why, countSaid(start), countSaid(unique.length)) : said('{0}.', why),
          error,
          input.note,
          start,
        );
      }
    }
    // The platform triages the same finding on other branches: show that too where it is loaded.
    const sent = new Set(unique);
    const others = [...new Set(triaged)].filter((id) => !sent.has(id) && this.deps.store.finding(slug, issueType, id));
    if (others.length > 0) this.deps.store.patch(slug, issueType, others, change).commit();
    return { triaged: count, ids: triaged.length > 0 ? triaged : unique, before };
  }

  /**
   * Puts findings back to the state each had before a triage, with the note each had when the
   * triage wrote another one. The platform cannot take a note away: a finding that had none keeps
   * the triage's (`notesLeft`).
   */
  async undo(issueType: IssueType, before: readonly Finding[], triageNote?: string): Promise<UndoOutcome> {
    const groups = new Map<string, { input: TriageInput; ids: number[] }>();
    let notesLeft = 0;
    for (const finding of before) {
      const state = stateToRestore(finding);
      if (!state) continue;
      const earlier = finding.triageComment;
      const rewrite = triageNote !== undefined && earlier !== undefined && earlier !== '' && earlier !== triageNote;
      if (triageNote !== undefined && (earlier === undefined || earlier === '')) notesLeft++;
      const input: TriageInput = rewrite ? { ...state, note: earlier } : state;
      const key = JSON.stringify([input.state, input.reason ?? '', input.note ?? null]);
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { input, ids: [] }));
      group.ids.push(finding.id);
    }
    let restored = 0;
    for (const { input, ids } of groups.values()) restored += (await this.triage(issueType, ids, input)).ids.length;
    return { restored, notesLeft };
  }

  /** Jira tickets, 20 findings per request; each finding's result is in the answer. */
  async createTickets(issueType: IssueType, ids: readonly number[]): Promise<TicketResult> {
    if (ids.length === 0) throw new TriageInputError(said('Choose at least one finding to create a ticket for.'));
    const slug = this.signedIn(said('Sign in to create tickets.'));
    const unique = [...new Set(ids)];
    const result: { succeeded: TicketResult['succeeded'][number][]; failed: TicketResult['failed'][number][]; skipped: TicketResult['skipped'][number][] } = {
      succeeded: [],
      failed: [],
      skipped: [],
    };
    for (let start = 0; start < unique.length; start += TICKET_BATCH) {
      const batch = unique.slice(start, start + TICKET_BATCH);
      try {
        const answer = await this.deps.api().createTickets(slug, { issueType, ids: batch });
        result.succeeded.push(...answer.succeeded);
        result.failed.push(...answer.failed);
        result.skipped.push(...answer.skipped);
      } catch (error) {
        // The first refusal (typically: no ticketing integration) says it all; later batches would repeat it.
        if (start === 0) throw error;
        result.failed.push({ error: saidOf(error).text, ids: unique.slice(start) });
        break;
      }
    }
    for (const ticket of result.succeeded) {
      const present = ticket.ids.filter((id) => this.deps.store.finding(slug, issueType, id));
      if (present.length > 0)
        this.deps.store.patch(slug, issueType, present, { ticket: { ...ticketIdOf(ticket.ticketId), slug: ticket.slug, url: ticket.url } }).commit();
    }
    return result;
  }

  /** Records an existing ticket on findings: shown at once, rolled back if refused. */
  async linkTicket(issueType: IssueType, ids: readonly number[], ticketUrl: string): Promise<TicketLinkResult> {
    if (ids.length === 0) throw new TriageInputError(said('Choose at least one finding to link the ticket to.'));
    if (!isHttpUrl(ticketUrl)) throw new TriageInputError(said('A ticket link starts with {0} (or {1}).', 'https://', 'http://'));
    const slug = this.signedIn(said('Sign in to link tickets.'));
    const id = this.signedInId(said('Sign in to link tickets.'));
    const patch = this.deps.store.patch(slug, issueType, ids, { ticket: { url: ticketUrl } });
    return this.settle([patch], async () => {
      const answer = await this.deps.api().linkTicket(id, ticketUrl, ids);
      // The platform names the ticket (its key): show that instead of the bare link.
      if (answer.slug !== undefined || answer.url !== undefined) {
        this.deps.store.patch(slug, issueType, ids, { ticket: { ...ticketIdOf(answer.ticketId), slug: answer.slug, url: answer.url ?? ticketUrl } }).commit();
      }
      return answer;
    });
  }

  async unlinkTicket(issueType: IssueType, ids: readonly number[]): Promise<readonly number[]> {
    if (ids.length === 0) throw new TriageInputError(said('Choose at least one finding to unlink.'));
    const slug = this.signedIn(said('Sign in to unlink tickets.'));
    const id = this.signedInId(said('Sign in to unlink tickets.'));
    const patch = this.deps.store.patch(slug, issueType, ids, { ticket: null });
    return this.settle([patch], () => this.deps.api().unlinkTicket(id, ids));
  }

  /**
   * Unlinks a ticket (by its id) from every finding it is linked to: the loaded findings that
   * hold it lose it at once (and get it back if refused), and those the platform names too.
   */
  async unlinkTicketEverywhere(ticketId: string): Promise<readonly number[]> {
    if (!/^\d+$/.test(ticketId)) throw new TriageInputError(said('"{0}" is not a ticket\'s id (digits).', ticketId));
    const slug = this.signedIn(said('Sign in to unlink tickets.'));
    const id = this.signedInId(said('Sign in to unlink tickets.'));
    const holding = new Map<IssueType, Set<number>>();
    for (const result of this.deps.store.shownResults()) {
      if (result.query.deploymentSlug !== slug) continue;
      for (const finding of result.findings) {
        if (finding.ticket?.id !== Number(ticketId)) continue;
        const ids = holding.get(finding.issueType) ?? new Set<number>();
        holding.set(finding.issueType, ids.add(finding.id));
      }
    }
    const patches = [...holding].map(([issueType, ids]) => this.deps.store.patch(slug, issueType, [...ids], { ticket: null }));
    const unlinked = await this.settle(patches, () => this.deps.api().unlinkTicketEverywhere(id, ticketId));
    // Findings the platform unlinked that were not seen holding the ticket (another branch's copy, say).
    for (const issueType of ISSUE_TYPES) {
      const more = unlinked.filter((n) => !holding.get(issueType)?.has(n) && this.deps.store.finding(slug, issueType, n)?.ticket);
      if (more.length > 0) this.deps.store.patch(slug, issueType, more, { ticket: null }).commit();
    }
    return unlinked;
  }

  /** Sends the change the patches show: kept when the platform takes it, undone (last first) when not. */
  private async settle<T>(patches: readonly PatchHandle[], send: () => Promise<T>): Promise<T> {
    let answer: T;
    try {
      answer = await send();
    } catch (error) {
      for (const patch of [...patches].reverse()) patch.rollback();
      throw error;
    }
    for (const patch of patches) patch.commit();
    return answer;
  }

  private signedIn(why: Said): string {
    const slug = this.deps.deploymentSlug();
    if (!slug) throw new PlatformError('unauthorized', why);
    return slug;
  }

  private signedInId(why: Said): string {
    const id = this.deps.deploymentId();
    if (!id) throw new PlatformError('unauthorized', why);
    return id;
  }
}

/** The ticket's id as a finding keeps it (a number), when the answer gave digits. */
function ticketIdOf(id: string | undefined): { readonly id?: number } {
  return id !== undefined && /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? { id: Number(id) } : {};
}

/** An error's sentence without its full stop, in both languages (a platform error says both). */
function saidOf(error: unknown): Said {
  const english = error instanceof Error ? error.message : String(error);
  const text = error instanceof PlatformError ? error.text : english;
  return { english: english.replace(/\.$/, ''), text: text.replace(/\.$/, '') };
}
