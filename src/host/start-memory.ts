/**
 * What a start knows before any answer, kept from the last session: the workspace's projects
 * (so its folders are matched and the tree shows them without the project list) and how the
 * deployment answers (its branch spelling, how many pages each list took). Kept per deployment
 * in VS Code's state, never with the token.
 */
import type * as vscode from 'vscode';
import type { AnswerShapes } from '../core/services/answer-shapes';
import type { ProjectsService } from '../core/services/projects-service';
import type { Session } from '../core/services/session';
import type { ShownCause } from '../core/services/workspace-view';
import type { Project } from '../core/model/types';
import type { Logger } from './logger';

const PROJECTS_KEY = 'appsecFindings.workspaceProjects';
const SHAPES_KEY = 'appsecFindings.answerShapes';

interface Kept<T> {
  readonly deployment: string;
  readonly value: T;
}

/** A project as JSON keeps it (dates as text): read back with its dates. */
type StoredProject = Omit<Project, 'createdAt' | 'latestScanAt'> & { readonly createdAt?: string; readonly latestScanAt?: string };

export interface StartMemoryDeps {
  /** Per workspace: the workspace's projects. */
  readonly workspaceState: vscode.Memento;
  /** Per deployment, for every window: how it answers. */
  readonly globalState: vscode.Memento;
  readonly shapes: AnswerShapes;
}

/** What `StartMemory.follow` watches. */
export interface StartMemoryFollows {
  readonly session: Pick<Session, 'onDidChange'>;
  readonly projects: Pick<ProjectsService, 'listed' | 'known' | 'adoptKnown' | 'find' | 'onDidChange' | 'state'>;
  readonly repos: { projectNames(): ReadonlySet<string> };
  /** Problems drew a snapshot (`refresh`: with a refresh's answers). */
  readonly drawn: vscode.Event<{ readonly cause: ShownCause }>;
  readonly log: Pick<Logger, 'warn'>;
}

export class StartMemory {
  constructor(private readonly deps: StartMemoryDeps) {}

  /**
   * A sign-in (or a start) takes what was kept for its deployment; each refresh Problems drew,
   * and each project list read, keeps it for the next start; a sign-out forgets it.
   */
  follow(f: StartMemoryFollows): vscode.Disposable[] {
    let deployment: string | undefined;
    const keepNow = (): void => {
      if (!deployment || !f.projects.listed) return;
      const mine = [...f.repos.projectNames()].flatMap((name) => f.projects.find(name) ?? []);
      this.keep(deployment, mine).catch((e: unknown) =>
        f.log.warn(`What the next start knows could not be kept: ${e instanceof Error ? e.message : String(e)}`),
      );
    };
    return [
      f.session.onDidChange((state) => {
        deployment = state.kind === 'signedIn' ? state.deployment.slug : undefined;
        if (state.kind === 'signedIn' && !f.projects.listed && f.projects.known.length === 0) f.projects.adoptKnown(this.restore(state.deployment.slug));
        if (state.kind === 'signedOut') void this.forget();
      }),
      f.drawn(({ cause }) => {
        if (cause === 'refresh') keepNow();
      }),
      f.projects.onDidChange(() => {
        if (f.projects.state.kind === 'loaded') keepNow();
      }),
    ];
  }

  /** The workspace's projects kept for `deployment`, and what was learnt of its answers, taken. */
  restore(deployment: string): readonly Project[] {
    const shapes = this.deps.globalState.get<Kept<unknown>>(SHAPES_KEY);
    if (shapes?.deployment === deployment) this.deps.shapes.adopt(shapes.value);
    const kept = this.deps.workspaceState.get<Kept<StoredProject[]>>(PROJECTS_KEY);
    if (kept?.deployment !== deployment || !Array.isArray(kept.value)) return [];
    return kept.value.filter((p) => typeof p?.name === 'string' && typeof p.id === 'number').map(revive);
  }

  /** Keeps the workspace's projects (when they differ) and what was learnt since the last call. */
  async keep(deployment: string, projects: readonly Project[]): Promise<void> {
    const kept = this.deps.workspaceState.get<Kept<StoredProject[]>>(PROJECTS_KEY);
    const value = JSON.parse(JSON.stringify(projects)) as StoredProject[];
    if (kept?.deployment !== deployment || JSON.stringify(kept.value) !== JSON.stringify(value)) {
      await this.deps.workspaceState.update(PROJECTS_KEY, { deployment, value });
    }
    if (this.deps.shapes.unsaved) await this.deps.globalState.update(SHAPES_KEY, { deployment, value: this.deps.shapes.record() });
  }

  /** Signed out: nothing of the deployment is kept. */
  async forget(): Promise<void> {
    this.deps.shapes.forget();
    await this.deps.workspaceState.update(PROJECTS_KEY, undefined);
    await this.deps.globalState.update(SHAPES_KEY, undefined);
  }
}

function revive(p: StoredProject): Project {
  const { createdAt, latestScanAt, ...rest } = p;
  const date = (text: string | undefined): Date | undefined => {
    const parsed = text === undefined ? Number.NaN : Date.parse(text);
    return Number.isNaN(parsed) ? undefined : new Date(parsed);
  };
  const created = date(createdAt);
  const scanned = date(latestScanAt);
  return { ...rest, ...(created ? { createdAt: created } : {}), ...(scanned ? { latestScanAt: scanned } : {}) };
}
