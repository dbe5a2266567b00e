/**
 * What the Projects tree shows, decided here and not in the view: the session and project list
 * at the root, the ref of each project, and for each node (one kind of one project) its slot's
 * state and its place (`place.ts`, as for the workspace's folders: the query, the filters applied
 * locally, the primary branch it is compared with and whether its branch was never scanned).
 * Nodes load when the tree first shows them (a collapsed project costs nothing). The view renders
 * these snapshots and listens to one event.
 */
import { Emitter, type Disposable, type Event } from '../events';
import type { Project } from '../model/types';
import type { FindingsStore } from './findings-store';
import { PlaceLoads, type SlotView } from './place-loads';
import { placeAt, refAt, type LocalFilter, type Place } from './place';
import { ProjectView, type ProjectViewDeps, type ShownPlace, type Unscanned } from './project-view';
import type { ProjectsService, ProjectsState } from './projects-service';
import type { SessionState } from './session';
import { checkedOutBranch } from './shown-queries';
import { readerOf } from './slot-ids';

/** What one place shows; a new object whenever anything it holds may differ. */
export interface PlaceSnapshot extends SlotView {
  /** The model's version when this was taken. */
  readonly version: number;
  /** The place it shows (`place.ts`, as the workspace's folders are decided); undefined signed out. */
  readonly place?: Place;
  /** The filters applied locally (files, only new), when any are. */
  readonly only?: LocalFilter;
  /** The primary branch the place's branch is compared with, when it shows another branch. */
  readonly primary?: string;
  /** The branch its findings were compared with, once that branch's findings are loaded. */
  readonly comparedWith?: string;
  /** Set when the place's branch has no findings at all (never scanned). */
  readonly unscanned?: Unscanned;
  /** Whether the branch was scanned at all is being asked: an empty answer is not a clean branch yet. */
  readonly checkingScan?: boolean;
}

/** What the root shows. */
export interface RootSnapshot {
  readonly version: number;
  readonly session: SessionState;
  readonly projects: ProjectsState;
  readonly workspaceProjects: ReadonlySet<string>;
  /** The ref a project shows: a chosen one, else the workspace's checked-out branch, else its primary branch. */
  readonly refOf: (project: Project) => string | undefined;
  /** The branch the workspace has checked out for a project, when it has one. */
  readonly checkedOutOf: (project: Project) => string | undefined;
}

export interface ProjectsModelDeps extends ProjectViewDeps {
  readonly session: ProjectViewDeps['session'] & { readonly state: SessionState; readonly onDidChange?: Event<SessionState> };
  readonly projects: Pick<ProjectsService, 'state' | 'load' | 'onDidChange'>;
  readonly findings: Pick<FindingsStore, 'state' | 'load' | 'cached' | 'cancel' | 'onDidChange'>;
  readonly workspaceRepos: {
    projectNames(): ReadonlySet<string>;
    repos(): readonly { readonly projectName?: string; readonly branch?: string }[];
    readonly onDidChange: Event<void>;
  };
  refOverride(projectName: string): string | undefined;
  /** Changes of what is asked (filters, grouping, refs): drawn again, loading what they need and retrying what failed. */
  readonly refreshOn?: readonly Event<unknown>[];
  /** Changes of how loaded findings read (findings placed, baselines landed): drawn again. */
  readonly redrawOn?: readonly Event<unknown>[];
  /** Told of each load started (the project list, or a place's findings), e.g. to show progress; `done` never rejects. */
  onLoadStarted?(done: Promise<void>): void;
}

/** What changed: the places whose slots did, or everything (`undefined`). */
export type ProjectsChange = readonly string[] | undefined;

export class ProjectsModel implements Disposable {
  private readonly changed = new Emitter<ProjectsChange>();
  /** One event: the root, a project's ref, or the named places may show something else. */
  readonly onDidChange = this.changed.event;
  private readonly queries: ProjectView;
  private readonly loads: PlaceLoads;
  private readonly places = new Map<string, ShownPlace>();
  /** slot → the snapshot last drawn there, and the ref it was drawn for. */
  private readonly snapshots = new Map<string, { readonly ref: string | undefined; readonly snapshot: PlaceSnapshot }>();
  private rootSnapshot: RootSnapshot | undefined;
  private version = 0;
  private readonly subscriptions: Disposable[];

  constructor(private readonly deps: ProjectsModelDeps) {
    this.queries = new ProjectView(deps);
    this.loads = new PlaceLoads({ findings: deps.findings, onLoadStarted: (_slot, done) => deps.onLoadStarted?.(done) });
    const everything = (): void => this.changedAll();
    this.subscriptions = [
      deps.projects.onDidChange(everything),
      deps.workspaceRepos.onDidChange(everything),
      deps.findings.onDidChange((slots) => this.onSlotsChanged(slots), 'the Projects tree'),
      ...(deps.session.onDidChange ? [deps.session.onDidChange(everything)] : []),
      ...(deps.refreshOn ?? []).map((event) => event(() => this.refresh())),
      ...(deps.redrawOn ?? []).map((event) => event(everything)),
    ];
  }

  /** The root's state; signed in with no list yet, the list starts loading. */
  root(): RootSnapshot {
    const { session, projects, workspaceRepos } = this.deps;
    if (session.state.kind === 'signedIn' && projects.state.kind === 'idle') this.loadProjects(false);
    if (this.rootSnapshot) return this.rootSnapshot;
    const repos = workspaceRepos.repos();
    const refOf = (project: Project): string | undefined => refAt(placeAt(project, this.deps.refOverride(project.name), repos));
    const checkedOutOf = (project: Project): string | undefined => checkedOutBranch(repos, project.name);
    return (this.rootSnapshot = {
      version: this.version,
      session: session.state,
      projects: projects.state,
      workspaceProjects: workspaceRepos.projectNames(),
      refOf,
      checkedOutOf,
    });
  }

  /** What a place shows, as its children are drawn; shown for the first time, or with a stale answer, it loads. */
  place(place: ShownPlace): PlaceSnapshot {
    this.places.set(place.slot, place);
    const query = this.queries.query(place);
    if (query) this.loads.ensure(place.slot, query);
    const known = this.snapshots.get(place.slot);
    if (known && known.ref === place.parent.ref) return known.snapshot;
    const shown = this.queries.place(place, 'now');
    const primary = shown && this.queries.compareWithPrimary(shown);
    const snapshot: PlaceSnapshot = {
      ...this.slotView(place),
      version: this.version,
      place: shown,
      only: shown?.keep,
      primary,
      comparedWith: primary && shown?.comparedWith,
      unscanned: ProjectView.unscannedOf(shown),
      checkingScan: shown?.scan === 'checking',
    };
    this.snapshots.set(place.slot, { ref: place.parent.ref, snapshot });
    return snapshot;
  }

  /**
   * What a place's slot holds for it, for its label: nothing is loaded and the place is not
   * recorded as shown (VS Code may still ask about a node of a ref the tree no longer shows).
   */
  read(place: ShownPlace): SlotView & { readonly only?: LocalFilter } {
    return { ...this.slotView(place), only: this.queries.place(place)?.keep };
  }

  /** The places shown so far, as last shown, with what their slots hold (nothing is loaded for them). */
  *shown(): Iterable<readonly [ShownPlace, SlotView]> {
    for (const place of this.places.values()) yield [place, this.slotView(place)];
  }

  /**
   * The inputs changed (a filter, a ref, a refresh that expired slots): everything is drawn
   * again, shown places without a fresh answer load, and failed ones are tried again.
   */
  refresh(): void {
    this.loads.nextEpoch({ force: false });
    this.changedAll();
  }

  /** Loads a place again (Retry, Load Again); without a slot, the project list. */
  retry(slot?: string): void {
    const place = slot === undefined ? undefined : this.places.get(slot);
    const query = place && this.queries.query(place);
    if (slot === undefined) this.loadProjects(true);
    else if (!query) this.refresh();
    else {
      this.loads.start(slot, query, true);
      this.changedPlaces([slot]);
    }
  }

  /** Stops waiting for a place's load; it then offers to load again. */
  cancel(slot: string): void {
    if (this.loads.cancel(slot)) this.changedPlaces([slot]);
  }

  /** Stops waiting for every load the tree started. */
  cancelAll(): void {
    const cancelled = this.loads.cancelAll();
    if (cancelled.length > 0) this.changedPlaces(cancelled);
  }

  /** Waits for the project list (no slot) or a place's pending load; true when it waited. */
  async settle(slot?: string): Promise<boolean> {
    if (slot !== undefined) return this.loads.settle(slot);
    if (this.deps.projects.state.kind !== 'loading') return false;
    await this.deps.projects.load().catch(() => undefined);
    return true;
  }

  private slotView(place: ShownPlace): SlotView {
    const query = this.queries.query(place);
    return query ? this.loads.view(place.slot, query) : { loading: false, cancelled: false };
  }

  private loadProjects(force: boolean): void {
    // A failure is kept in the service's state, which the root shows.
    const done = this.deps.projects.load({ force }).then(
      () => undefined,
      () => undefined,
    );
    this.deps.onLoadStarted?.(done);
  }

  private onSlotsChanged(slots: readonly string[]): void {
    // Other consumers' slots (Problems) are not shown here; a scan question's answer may change
    // what any place of a branch says.
    const places = new Set(slots.filter((slot) => readerOf(slot) === 'tree'));
    if (slots.some((slot) => readerOf(slot) === 'scan')) for (const [slot, place] of this.places) if (place.parent.ref !== undefined) places.add(slot);
    if (places.size > 0) this.changedPlaces([...places]);
  }

  private changedPlaces(slots: readonly string[]): void {
    this.version++;
    for (const slot of slots) this.snapshots.delete(slot);
    this.changed.fire(slots);
  }

  private changedAll(): void {
    this.version++;
    this.snapshots.clear();
    this.rootSnapshot = undefined;
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.loads.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
