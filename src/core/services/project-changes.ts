/**
 * Changes to a project's settings on the platform: its tags, its primary branch and its managed
 * scans. Each follows triage's shape: the input is checked before any request, the project shows
 * the change at once (one change event of the projects), and the very same earlier objects are
 * put back when the platform refuses. The platform's answer then settles what is shown.
 */
import { DEFAULT_BRANCH_MARKER, refuse } from '../api/platform-changes';
import { branchName } from '../model/refs';
import type { ManagedScans, Project } from '../model/types';
import type { PlatformApi } from './platform-api';
import { planTagEdit, tagsAfter } from './project-tags';
import { said, type Said } from '../l10n';

/** A project shown changed before the platform answered. */
export interface ProjectReplacement {
  /** Puts back the very objects held before, where the change is still held; one change event. */
  undo(): void;
  /** Shows `settled` of the objects held before instead, unless it reads the same as what is shown. */
  settle(settled: (project: Project) => Project): void;
}

/** What the changes need of the projects held. */
export interface ProjectHolder {
  find(name: string): Project | undefined;
  loadDetails(name: string, signal?: AbortSignal): Promise<Project>;
  /** Shows `change` of the project everywhere it is held, with one change event; undefined when it is not held. */
  replace(name: string, change: (project: Project) => Project): ProjectReplacement | undefined;
}

export interface ProjectChangesDeps {
  readonly api: () => PlatformApi;
  readonly slug: () => string | undefined;
  readonly projects: ProjectHolder;
}

/** An edit of tags: what the platform now has, and what the edit did. */
export interface TagEditOutcome {
  readonly project: Project;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  /** Asked to be added, but already there; asked to be removed, but not there: nothing was sent for them. */
  readonly had: readonly string[];
  readonly lacked: readonly string[];
}

/** The platform added the tags but refused to remove some: the added ones are kept, as it has them. */
export class TagsNotRemoved extends Error {
  constructor(
    readonly project: Project,
    readonly added: readonly string[],
    readonly notRemoved: readonly string[],
    readonly reason: unknown,
  ) {
    super(
      `Added ${added.join(', ')} to ${project.name}, but ${notRemoved.join(', ')} could not be removed: ${reason instanceof Error ? reason.message : String(reason)}`,
    );
    this.name = 'TagsNotRemoved';
  }
}

/**
 * What is wrong with a branch as the platform's `primary_branch` takes it, in both languages: the
 * picker shows the text, a refused change carries the English for the log and the agent's tools.
 */
function branchProblem(branch: string): Said | undefined {
  const name = branchName(branch.trim());
  if (name === '' || name.startsWith('refs/') || name === DEFAULT_BRANCH_MARKER) return said('"{0}" is not a branch name.', branch);
  if (/[\s~^:?*[\\]|\.\.|^-|\/$|\.lock$/.test(name)) return said('"{0}" is not a branch name: it has spaces or characters git does not allow.', branch);
  return undefined;
}

/** What the platform's `primary_branch` takes as a branch, or what is wrong with it (display language). */
export function checkBranchName(branch: string): string | undefined {
  return branchProblem(branch)?.text;
}

export class ProjectChanges {
  /** Changes of one project wait for the one before: each is shown on top of what the last left. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ProjectChangesDeps) {}

  /** Adds (PUT) then removes (DELETE) tags; nothing is sent when nothing would change. */
  async editTags(
    name: string,
    change: { readonly add?: readonly string[]; readonly remove?: readonly string[] },
    signal?: AbortSignal,
  ): Promise<TagEditOutcome> {
    const slug = this.slug();
    return this.queued(name, async () => {
      const base = await this.current(name, signal);
      const plan = planTagEdit(base.tags, change.add ?? [], change.remove ?? []);
      if (!('add' in plan)) return refuse(plan);
      const outcome = { had: plan.had, lacked: plan.lacked };
      if (plan.add.length === 0 && plan.remove.length === 0) return { project: base, added: [], removed: [], ...outcome };
      const shown = this.deps.projects.replace(name, (p) => ({ ...p, tags: tagsAfter(p.tags, plan) }));
      let answer = base;
      try {
        if (plan.add.length > 0) answer = await this.deps.api().addProjectTags(slug, name, plan.add, { signal });
      } catch (error) {
        shown?.undo();
        throw error;
      }
      try {
        if (plan.remove.length > 0) answer = await this.deps.api().removeProjectTags(slug, name, plan.remove, { signal });
      } catch (error) {
        if (plan.add.length === 0) {
          shown?.undo();
          throw error;
        }
        const added = answer;
        shown?.settle((p) => ({ ...p, tags: added.tags }));
        throw new TagsNotRemoved(this.deps.projects.find(name) ?? added, plan.add, plan.remove, error);
      }
      const settled = answer;
      shown?.settle((p) => ({ ...p, tags: settled.tags }));
      return { project: this.deps.projects.find(name) ?? settled, added: plan.add, removed: plan.remove, ...outcome };
    });
  }

  /**
   * Makes `branch` the primary branch (`undefined`: the default branch); `changed` is false when
   * it already was, and nothing was sent.
   */
  async setPrimaryBranch(name: string, branch: string | undefined, signal?: AbortSignal): Promise<{ readonly project: Project; readonly changed: boolean }> {
    const problem = branch === undefined ? undefined : branchProblem(branch);
    if (problem) refuse(problem);
    const short = branch === undefined ? undefined : branchName(branch.trim());
    const slug = this.slug();
    return this.queued(name, async () => {
      const base = await this.current(name, signal);
      if (base.primaryBranch === short) return { project: base, changed: false };
      const shown = this.deps.projects.replace(name, (p) => ({ ...p, primaryBranch: short }));
      let answer: Project;
      try {
        answer = await this.deps.api().setPrimaryBranch(slug, name, short, { signal });
      } catch (error) {
        shown?.undo();
        throw error;
      }
      shown?.settle((p) => ({ ...p, primaryBranch: answer.primaryBranch, defaultBranch: answer.defaultBranch ?? p.defaultBranch }));
      return { project: this.deps.projects.find(name) ?? answer, changed: true };
    });
  }

  /**
   * Turns managed scans on or off; an omitted setting keeps its value (the project's details are
   * read first). Both settings are sent. `changed` is false when nothing would change.
   */
  async setManagedScans(
    name: string,
    change: { readonly diffScan?: boolean; readonly fullScan?: boolean },
    signal?: AbortSignal,
  ): Promise<{ readonly scans: ManagedScans; readonly before: ManagedScans; readonly changed: boolean }> {
    const slug = this.slug();
    return this.queued(name, async () => {
      const before = managedScansOf(await this.deps.projects.loadDetails(name, signal));
      const wanted: ManagedScans = { diffScanEnabled: change.diffScan ?? before.diffScanEnabled, fullScanEnabled: change.fullScan ?? before.fullScanEnabled };
      if (sameScans(wanted, before)) return { scans: before, before, changed: false };
      const shown = this.deps.projects.replace(name, (p) => ({ ...p, managedScanConfig: wanted }));
      let answer: ManagedScans | undefined;
      try {
        answer = await this.deps.api().setManagedScans(slug, name, wanted, { signal });
      } catch (error) {
        shown?.undo();
        throw error;
      }
      // The answer is undocumented: without settings in it, those asked for stand.
      const scans = answer ?? wanted;
      shown?.settle((p) => ({ ...p, managedScanConfig: scans }));
      return { scans, before, changed: true };
    });
  }

  private slug(): string {
    const slug = this.deps.slug();
    return slug ?? refuse(said('Sign in first: changing a project needs a deployment.'));
  }

  /** The project as shown, else as the platform has it. */
  private async current(name: string, signal: AbortSignal | undefined): Promise<Project> {
    return this.deps.projects.find(name) ?? this.deps.projects.loadDetails(name, signal);
  }

  private queued<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(name) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(name, settled);
    void settled.then(() => {
      if (this.queues.get(name) === settled) this.queues.delete(name);
    });
    return next;
  }
}

/** A project's managed scans; none configured reads as both off. */
export function managedScansOf(project: Project): ManagedScans {
  return project.managedScanConfig ?? { diffScanEnabled: false, fullScanEnabled: false };
}

export const sameScans = (a: ManagedScans | undefined, b: ManagedScans | undefined): boolean =>
  a?.diffScanEnabled === b?.diffScanEnabled && a?.fullScanEnabled === b?.fullScanEnabled;
