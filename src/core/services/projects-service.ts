/**
 * The deployment's projects: all pages of the list, details loaded lazily per project (the list
 * lacks `managed_scan_config`), and tag updates applied from the server's answer.
 *
 * The workspace's projects are known before the list (remembered from the last session, or read
 * one by one beside it), so the tree and Problems need not wait for thousands of projects.
 */
import { Emitter, type Disposable } from '../events';
import type { Project } from '../model/types';
import { raceAbort } from './abort';
import { AnswerShapes } from './answer-shapes';
import type { PlatformApi } from './platform-api';

export type ProjectsState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly previous?: readonly Project[]; readonly known?: readonly Project[] }
  | { readonly kind: 'loaded'; readonly projects: readonly Project[]; readonly staleBecause?: unknown }
  | { readonly kind: 'failed'; readonly error: unknown };

/** Validates tags typed as "a, b ,a": trimmed, de-duplicated, each checked. Returns tags or a message. */
export function parseTags(input: string): string[] | string {
  const tags = [...new Set(input.split(',').map((t) => t.trim()).filter((t) => t.length > 0))];
  if (tags.length === 0) return 'Type at least one tag, e.g. "team-payments, pci".';
  if (tags.length > 50) return 'At most 50 tags at once.';
  for (const tag of tags) {
    if (tag.length > 100) return `"${tag.slice(0, 20)}…" is longer than 100 characters.`;
    if (!/^[\p{L}\p{N}][\p{L}\p{N}_.:/@+-]*$/u.test(tag)) {
      return `"${tag}" has characters a tag cannot have. Use letters, digits and - _ . : / @ +, starting with a letter or digit.`;
    }
  }
  return tags;
}

export class ProjectsService implements Disposable {
  private current: ProjectsState = { kind: 'idle' };
  private flight: { controller: AbortController; promise: Promise<readonly Project[]> } | undefined;
  private readonly details = new Map<string, Promise<Project>>();
  /** The workspace's projects as known before the list: remembered, or read one by one. */
  private knownProjects: readonly Project[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly slug: () => string | undefined,
    /** Shared with the findings: how many pages the list took last time. */
    private readonly shapes: AnswerShapes = new AnswerShapes(),
  ) {}

  get state(): ProjectsState {
    return this.current;
  }

  get projects(): readonly Project[] {
    const s = this.current;
    return s.kind === 'loaded' ? s.projects : s.kind === 'loading' ? (s.previous ?? []) : [];
  }

  /** True once a whole list was read (it may be refreshing, or stale). */
  get listed(): boolean {
    const s = this.current;
    return s.kind === 'loaded' || (s.kind === 'loading' && (s.previous?.length ?? 0) > 0);
  }

  /** The workspace's projects known before the list (remembered, or read one by one). */
  get known(): readonly Project[] {
    return this.knownProjects;
  }

  find(name: string): Project | undefined {
    return this.projects.find((p) => p.name === name) ?? (this.listed ? undefined : this.knownProjects.find((p) => p.name === name));
  }

  /** Takes the workspace's projects remembered from the last session, until the list is read. */
  adoptKnown(projects: readonly Project[]): void {
    this.knownProjects = projects;
    if (this.current.kind === 'loading') this.set({ ...this.current, known: projects });
  }

  /**
   * Reads the workspace's projects one by one, beside the list (one round trip, however long the
   * list): the tree shows them at once. A name the deployment does not have is left out.
   */
  async readKnown(names: readonly string[]): Promise<void> {
    const slug = this.slug();
    if (!slug || names.length === 0 || this.listed) return;
    const read = await Promise.allSettled(names.map((name) => this.loadDetails(name)));
    if (this.slug() !== slug || this.listed) return;
    const found = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const others = this.knownProjects.filter((p) => !found.some((f) => f.name === p.name));
    this.adoptKnown([...found, ...others]);
  }

  /** Loads every page; concurrent calls share one load. Keeps the old list (stale) on failure. */
  load(options: { force?: boolean } = {}): Promise<readonly Project[]> {
    if (this.flight) return this.flight.promise;
    if (this.current.kind === 'loaded' && !this.current.staleBecause && !options.force) return Promise.resolve(this.current.projects);
    const slug = this.slug();
    if (!slug) return Promise.resolve([]);
    const controller = new AbortController();
    const previous = this.projects;
    this.set({ kind: 'loading', previous, known: this.knownProjects });
    // Never read: two pages, as most deployments have fewer projects than one page holds.
    const hints = this.shapes.hints(JSON.stringify(['projects', slug]), 2);
    const promise = this.api().listProjects(slug, { signal: controller.signal, ...hints }).then(
      (projects) => {
        if (controller.signal.aborted) return projects; // cleared meanwhile (sign-out): show nothing of it
        this.flight = undefined;
        this.details.clear();
        this.set({ kind: 'loaded', projects });
        return projects;
      },
      (error: unknown) => {
        if (controller.signal.aborted) throw error;
        this.flight = undefined;
        this.set(previous.length > 0 ? { kind: 'loaded', projects: previous, staleBecause: error } : { kind: 'failed', error });
        throw error;
      },
    );
    this.flight = { controller, promise };
    return promise;
  }

  /**
   * Full details of one project (managed scan settings), fetched once per list load. The fetch
   * is shared, so a caller's signal only stops its own wait (a tooltip closed early must not
   * cancel the fetch for the next hover).
   */
  loadDetails(name: string, signal?: AbortSignal): Promise<Project> {
    const slug = this.slug();
    if (!slug) return Promise.reject(new Error('Not signed in.'));
    let pending = this.details.get(name);
    if (!pending) {
      const fetched = this.api().getProject(slug, name);
      fetched.catch(() => {
        if (this.details.get(name) === fetched) this.details.delete(name);
      });
      this.details.set(name, (pending = fetched));
    }
    return signal ? raceAbort(pending, signal) : pending;
  }

  async addTags(name: string, tags: readonly string[], signal?: AbortSignal): Promise<Project> {
    const slug = this.slug();
    if (!slug) throw new Error('Not signed in.');
    const updated = await this.api().addProjectTags(slug, name, tags, { signal });
    this.details.set(name, Promise.resolve(updated));
    if (this.current.kind === 'loaded') {
      this.set({ ...this.current, projects: this.current.projects.map((p) => (p.name === name ? { ...p, ...updated } : p)) });
    }
    return updated;
  }

  clear(): void {
    this.flight?.controller.abort();
    this.flight = undefined;
    this.details.clear();
    this.knownProjects = [];
    this.set({ kind: 'idle' });
  }

  private set(state: ProjectsState): void {
    this.current = state;
    this.changed.fire();
  }

  dispose(): void {
    this.clear();
    this.changed.dispose();
  }
}
