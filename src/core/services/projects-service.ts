/**
 * The deployment's projects: all pages of the list, details loaded lazily per project (the list
 * lacks `managed_scan_config`), and changes of their settings (`changes`) shown at once.
 *
 * The workspace's projects are known before the list (remembered from the last session, or read
 * one by one beside it), so the tree and Problems need not wait for thousands of projects.
 */
import { Emitter, type Disposable } from '../events';
import type { Project } from '../model/types';
import { raceAbort } from './abort';
import { AnswerShapes } from './answer-shapes';
import type { PlatformApi } from './platform-api';
import { ProjectChanges, sameScans, type ProjectReplacement } from './project-changes';

export { parseTags } from './project-tags';

export type ProjectsState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading'; readonly previous?: readonly Project[]; readonly known?: readonly Project[] }
  | { readonly kind: 'loaded'; readonly projects: readonly Project[]; readonly staleBecause?: unknown }
  | { readonly kind: 'failed'; readonly error: unknown };

/** One project's details: the fetch, and what it gave once it did. */
interface Details {
  readonly promise: Promise<Project>;
  value?: Project;
}

/** Where the service holds one project: in the list, among the known ones, and its details. */
interface Held {
  readonly list?: Project;
  readonly known?: Project;
  readonly details?: Details;
}

export class ProjectsService implements Disposable {
  private current: ProjectsState = { kind: 'idle' };
  private flight: { controller: AbortController; promise: Promise<readonly Project[]> } | undefined;
  private readonly details = new Map<string, Details>();
  /** The workspace's projects as known before the list: remembered, or read one by one. */
  private knownProjects: readonly Project[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  /** Tags, primary branch and managed scans changed on the platform, shown here at once. */
  readonly changes: ProjectChanges;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly slug: () => string | undefined,
    /** Shared with the findings: how many pages the list took last time. */
    private readonly shapes: AnswerShapes = new AnswerShapes(),
  ) {
    this.changes = new ProjectChanges({ api, slug, projects: this });
  }

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
    const promise = this.api()
      .listProjects(slug, { signal: controller.signal, ...hints })
      .then(
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
    if (!pending) this.details.set(name, (pending = this.detailsOf(name, this.api().getProject(slug, name))));
    return signal ? raceAbort(pending.promise, signal) : pending.promise;
  }

  async addTags(name: string, tags: readonly string[], signal?: AbortSignal): Promise<Project> {
    const slug = this.slug();
    if (!slug) throw new Error('Not signed in.');
    const updated = await this.api().addProjectTags(slug, name, tags, { signal });
    this.details.set(name, { promise: Promise.resolve(updated), value: updated });
    if (this.current.kind === 'loaded') {
      this.set({ ...this.current, projects: this.current.projects.map((p) => (p.name === name ? { ...p, ...updated } : p)) });
    }
    return updated;
  }

  /**
   * Shows `change` of the project wherever it is held (the list, the known projects, its
   * details), with one change event; undefined when no object of it is held. Undone, the very
   * objects held before come back.
   */
  replace(name: string, change: (project: Project) => Project): ProjectReplacement | undefined {
    const before = this.held(name);
    if (!before.list && !before.known && !before.details) return undefined;
    let shown = this.mapped(name, before, change);
    this.swap(name, shown, before);
    return {
      undo: () => this.swap(name, before, shown),
      settle: (settled) => {
        const next = this.mapped(name, before, settled);
        const same = (a?: Project, b?: Project): boolean => a === b || (!!a && !!b && readsTheSame(a, b));
        if (same(next.list, shown.list) && same(next.known, shown.known) && same(next.details?.value, shown.details?.value)) return;
        this.swap(name, next, shown);
        shown = next;
      },
    };
  }

  clear(): void {
    this.flight?.controller.abort();
    this.flight = undefined;
    this.details.clear();
    this.knownProjects = [];
    this.set({ kind: 'idle' });
  }

  /** A fetch of details, whose value is kept once it lands and which is forgotten when it fails. */
  private detailsOf(name: string, promise: Promise<Project>): Details {
    const details: Details = { promise };
    void promise.then(
      (value) => {
        details.value = value;
      },
      () => {
        if (this.details.get(name) === details) this.details.delete(name);
      },
    );
    return details;
  }

  private held(name: string): Held {
    const byName = (p: Project): boolean => p.name === name;
    return { list: this.projects.find(byName), known: this.knownProjects.find(byName), details: this.details.get(name) };
  }

  /** `held` with `change` applied; one object held in two places stays one object. */
  private mapped(name: string, held: Held, change: (project: Project) => Project): Held {
    const made = new Map<Project, Project>();
    const map = (p: Project): Project => {
      const done = made.get(p) ?? change(p);
      made.set(p, done);
      return done;
    };
    const { details } = held;
    const value = details?.value && map(details.value);
    return {
      list: held.list && map(held.list),
      known: held.known && map(held.known),
      details: details && (value ? { promise: Promise.resolve(value), value } : this.detailsOf(name, details.promise.then(change))),
    };
  }

  /** Puts each of `next` where the object of `expected` still is; one change event. */
  private swap(name: string, next: Held, expected: Held): void {
    const put = (list: readonly Project[], from?: Project, to?: Project): readonly Project[] =>
      from && to && list.includes(from) ? list.map((p) => (p === from ? to : p)) : list;
    this.knownProjects = put(this.knownProjects, expected.known, next.known);
    if (expected.details && next.details && this.details.get(name) === expected.details) this.details.set(name, next.details);
    const s = this.current;
    if (s.kind === 'loaded') this.set({ ...s, projects: put(s.projects, expected.list, next.list) });
    else if (s.kind === 'loading') this.set({ ...s, previous: s.previous && put(s.previous, expected.list, next.list), known: this.knownProjects });
    else this.changed.fire();
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

/** Whether two objects of one project read the same wherever a project is shown. */
function readsTheSame(a: Project, b: Project): boolean {
  return (
    a.name === b.name &&
    a.primaryBranch === b.primaryBranch &&
    a.defaultBranch === b.defaultBranch &&
    a.url === b.url &&
    a.tags.length === b.tags.length &&
    a.tags.every((t, i) => t === b.tags[i]) &&
    (a.managedScanConfig === b.managedScanConfig || sameScans(a.managedScanConfig, b.managedScanConfig))
  );
}
