/**
 * One finding's story (the experimental v2 call: its dataflow trace, where else it is, its
 * history, owners, what the user may do), read when something needs it (the details panel, the
 * hover, a command, the agent) and never for every finding of a refresh. Kept with the finding,
 * by deployment and id, for as long as the finding stays the same:
 * - its scanned place changes (another scan, another commit): the story is dropped, trace and all;
 * - its state changes (a triage, a ticket): the story is kept for its trace, which is a fact of
 *   the scanned code, but asked again the next time it is wanted, for its history.
 * A deployment without the call answers `notAvailable`, kept like a story: nothing is an error.
 */
import { Emitter } from '../events';
import type { FindingStoryAnswer, TraceStep } from '../model/finding-story';
import type { Finding } from '../model/types';
import type { PlatformApi } from './platform-api';
import { kindOf } from '../model/finding-kinds';

/** Stories kept: a user looks at a handful of findings at a time. */
const KEPT = 100;

interface Entry {
  readonly deploymentId: string;
  readonly finding: Finding;
  readonly placeKey: string;
  stateKey: string;
  answer: FindingStoryAnswer;
  /** The finding's state changed since it was read: asked again when next wanted. */
  stale: boolean;
}

/** What the trace was read for: the finding's scanned place. */
function placeKeyOf(f: Finding): string {
  const l = f.location;
  return [f.ref, f.lineOfCodeUrl, l?.filePath, l?.line, l?.column, l?.endLine, l?.endColumn].join('\n');
}

/** What triage and tickets change. */
function stateKeyOf(f: Finding): string {
  return [f.status, f.triageReason, f.triageComment, f.ticket?.url, f.ticket?.slug].join('\n');
}

export class FindingStories {
  private readonly entries = new Map<string, Entry>();
  private readonly asking = new Map<string, Promise<FindingStoryAnswer | undefined>>();
  /** Code findings whose story has a trace, by id: what Problems asks about for every diagnostic. */
  private readonly traced = new Map<number, Entry>();
  private readonly read = new Emitter<Finding>();
  /** A story was read for this finding (its trace may be new to Problems, the details, the hover). */
  readonly onDidRead = this.read.event;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentId: () => string | undefined,
  ) {}

  /**
   * The story, read once while the finding stays the same (`fresh`: read again now, to follow a
   * fix pull request). Undefined when signed out. A failure (network, 5xx) is thrown and not kept.
   */
  get(finding: Finding, options: { fresh?: boolean; signal?: AbortSignal } = {}): Promise<FindingStoryAnswer | undefined> {
    const deploymentId = this.deploymentId();
    if (!deploymentId) return Promise.resolve(undefined);
    const key = keyOf(deploymentId, finding);
    const known = this.current(key, finding);
    if (known && !known.stale && !options.fresh) return Promise.resolve(known.answer);
    const pending = this.asking.get(key);
    if (pending && !options.fresh) return pending;
    const asked = this.api()
      .findingStory(deploymentId, finding.id, { signal: options.signal })
      .then(
        (answer) => {
          const newest = this.asking.get(key);
          // A fresher read is on its way: it keeps its own answer, not this older one.
          if (newest !== undefined && newest !== asked) return answer;
          this.asking.delete(key);
          this.keep(key, deploymentId, finding, answer);
          this.read.fire(finding);
          return answer;
        },
        (error: unknown) => {
          if (this.asking.get(key) === asked) this.asking.delete(key);
          throw error;
        },
      );
    this.asking.set(key, asked);
    return asked;
  }

  /**
   * The story if it comes within `ms` (asked once, as `get`); undefined after that or on a
   * failure: for the hover and the quick-fix menu, which must not wait on the network.
   */
  within(finding: Finding, ms: number): Promise<FindingStoryAnswer | undefined> {
    const known = this.peek(finding);
    if (known && !this.isStale(finding)) return Promise.resolve(known);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<FindingStoryAnswer | undefined>((resolve) => {
      timer = setTimeout(() => resolve(known), ms);
    });
    return Promise.race([this.get(finding).catch(() => known), late]).finally(() => clearTimeout(timer));
  }

  /** The story already read for the finding as it is, without asking. */
  peek(finding: Finding): FindingStoryAnswer | undefined {
    const deploymentId = this.deploymentId();
    return deploymentId ? this.current(keyOf(deploymentId, finding), finding)?.answer : undefined;
  }

  /** Whether the story kept was read before the finding's state last changed. */
  isStale(finding: Finding): boolean {
    const deploymentId = this.deploymentId();
    return deploymentId ? (this.current(keyOf(deploymentId, finding), finding)?.stale ?? false) : false;
  }

  /**
   * The finding's trace once read, while its scanned place is the same; undefined otherwise. Asked
   * for every diagnostic drawn, so without any trace read it answers at once.
   */
  traceOf(finding: Finding): readonly TraceStep[] | undefined {
    if (this.traced.size === 0 || !kindOf(finding).traced) return undefined;
    const entry = this.traced.get(finding.id);
    if (!entry || entry.deploymentId !== this.deploymentId() || entry.placeKey !== placeKeyOf(finding)) return undefined;
    return entry.answer.kind === 'story' ? entry.answer.story.trace : undefined;
  }

  /** The findings whose trace is known (as read), to follow edits of their steps' files. */
  tracedFindings(): Finding[] {
    const deploymentId = this.deploymentId();
    return [...this.traced.values()].filter((e) => e.deploymentId === deploymentId).map((e) => e.finding);
  }

  /** Reads the finding's story again next time. */
  forget(finding: Finding): void {
    const deploymentId = this.deploymentId();
    if (deploymentId) this.drop(keyOf(deploymentId, finding));
  }

  /** Forgets every story (sign-out, another deployment). */
  clear(): void {
    this.entries.clear();
    this.traced.clear();
    this.asking.clear();
  }

  dispose(): void {
    this.clear();
    this.read.dispose();
  }

  /** The entry for the finding as it is now: dropped when its place changed, marked stale when its state did. */
  private current(key: string, finding: Finding): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.placeKey !== placeKeyOf(finding)) {
      this.drop(key);
      return undefined;
    }
    const state = stateKeyOf(finding);
    if (entry.stateKey !== state) {
      entry.stateKey = state;
      entry.stale = true;
    }
    return entry;
  }

  private keep(key: string, deploymentId: string, finding: Finding, answer: FindingStoryAnswer): void {
    this.drop(key);
    const entry: Entry = { deploymentId, finding, placeKey: placeKeyOf(finding), stateKey: stateKeyOf(finding), answer, stale: false };
    this.entries.set(key, entry);
    if (kindOf(finding).traced && answer.kind === 'story' && (answer.story.trace?.length ?? 0) > 0) this.traced.set(finding.id, entry);
    // Maps keep insertion order: the oldest go first.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= KEPT) break;
      this.drop(oldest);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    if (this.traced.get(entry.finding.id) === entry) this.traced.delete(entry.finding.id);
  }
}

function keyOf(deploymentId: string, finding: Finding): string {
  return `${deploymentId}\n${finding.issueType}\n${finding.id}`;
}
