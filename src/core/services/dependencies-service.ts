/**
 * The supply-chain inventory as the views and the editor read it: a repository's lockfiles, a
 * lockfile's dependencies, every dependency of a workspace repository, what the license policy
 * says of them, and where else a package is used. Each list is asked for when first shown and
 * kept until the next refresh; a deployment without the inventory (no Supply Chain, or a role that
 * may not read it) is a state every view shows calmly, never an error that takes others with it.
 */
import { Emitter, type Disposable } from '../events';
import { unavailableOf, type Unavailable } from './kind-availability';
import type { Dependency, DependencyFilter, InventoryPage, LicensePolicyOutcome, LockfileSummary, PackageFilter } from '../model/dependency';
import { DEPENDENCY_ECOSYSTEMS } from '../model/dependency';
import type { PlatformApi } from './platform-api';
import { dependencyKey, usageRows, type PackageQuery, type PackageUsage } from './dependency-usage';

/** A list's answer, or why there is none. */
export type InventoryAnswer<T> =
  | { readonly items: readonly T[]; readonly skipped: number; readonly unavailable?: undefined }
  | { readonly items: readonly T[]; readonly skipped: 0; readonly unavailable: Unavailable };

/** The license policy's outcome for each dependency of a repository it comments on or blocks. */
export type LicenseOutcomes = ReadonlyMap<string, LicensePolicyOutcome>;

/** Dependencies are read in the largest pages the list takes: a repository is then one request. */
const DEPENDENCIES_PAGE_SIZE = 10_000;

export class DependenciesService implements Disposable {
  private readonly cache = new Map<string, Promise<InventoryAnswer<unknown>>>();
  private readonly changed = new Emitter<void>();
  /** Fires when what was read is forgotten (a refresh, sign-out): views read again. */
  readonly onDidChange = this.changed.event;
  private missing: Unavailable | undefined;
  /** Every license the dependencies read so far carry, for the filter's choices. */
  private readonly licenses = new Set<string>();
  private readonly ecosystems = new Set<string>();

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentId: () => string | undefined,
  ) {}

  /** Why the deployment has no inventory, once a list answered so. */
  get unavailable(): Unavailable | undefined {
    return this.missing;
  }

  lockfiles(repositoryId: string, signal?: AbortSignal): Promise<InventoryAnswer<LockfileSummary>> {
    return this.read(['lockfiles', repositoryId], (id) => this.api().lockfiles(id, repositoryId, {}, { signal }));
  }

  /** One lockfile's dependencies. */
  lockfileDependencies(repositoryId: string, lockfilePath: string, signal?: AbortSignal): Promise<InventoryAnswer<Dependency>> {
    return this.dependencies(['lockfile', repositoryId, lockfilePath], { repositoryIds: [repositoryId], lockfilePath }, signal);
  }

  /** Every dependency of a repository (a workspace repository's manifests and lockfiles). */
  repositoryDependencies(repositoryId: string, signal?: AbortSignal): Promise<InventoryAnswer<Dependency>> {
    return this.dependencies(['repository', repositoryId], { repositoryIds: [repositoryId] }, signal);
  }

  /**
   * The dependencies of a repository the license policy blocks or comments on, by
   * {@link dependencyKey}. Asked of the platform, which knows the policy: the extension never
   * guesses a license's fate.
   */
  async licenseOutcomes(repositoryId: string, signal?: AbortSignal): Promise<LicenseOutcomes> {
    const ask = (setting: 'block' | 'comment'): Promise<InventoryAnswer<Dependency>> =>
      this.dependencies(['license', repositoryId, setting], { repositoryIds: [repositoryId], licensePolicy: [setting] }, signal);
    const [blocked, commented] = await Promise.all([ask('block'), ask('comment')]);
    const outcomes = new Map<string, 'block' | 'comment'>();
    for (const d of commented.items) outcomes.set(dependencyKey(d), 'comment');
    for (const d of blocked.items) outcomes.set(dependencyKey(d), 'block');
    return outcomes;
  }

  /**
   * Every repository and lockfile of the deployment that uses a package, each marked whether its
   * version is inside the bounds. The platform compares versions (it knows each ecosystem's
   * rules), so the package is asked for twice in the same wave: all its versions, and those in range.
   */
  async whereUsed(query: PackageQuery, signal?: AbortSignal): Promise<PackageUsage> {
    const name: PackageFilter = { name: query.package, exact: true };
    const ecosystems = query.ecosystem ? [query.ecosystem] : undefined;
    const bounded = query.version !== undefined || query.lower !== undefined || query.upper !== undefined;
    const inRangeFilter: PackageFilter = {
      ...name,
      ...(query.version !== undefined ? { version: query.version } : {}),
      ...(query.lower !== undefined ? { lower: query.lower } : {}),
      ...(query.upper !== undefined ? { upper: query.upper } : {}),
    };
    const filter = (p: PackageFilter): DependencyFilter => ({ packages: [p], ...(ecosystems ? { ecosystems } : {}) });
    const key = JSON.stringify(query);
    const [all, inRange, names] = await Promise.all([
      this.dependencies(['used', key], filter(name), signal),
      bounded ? this.dependencies(['used-in-range', key], filter(inRangeFilter), signal) : undefined,
      this.repositoryNames(signal),
    ]);
    const unavailable = all.unavailable ?? inRange?.unavailable;
    if (unavailable) return { rows: [], skipped: 0, unavailable };
    return usageRows(all.items, inRange?.items, names, all.skipped + (inRange?.skipped ?? 0));
  }

  /** Repository ids to names, from the inventory's own list of repositories. */
  async repositoryNames(signal?: AbortSignal): Promise<ReadonlyMap<string, string>> {
    const answer = await this.read(['repositories'], (id) => this.api().dependencyRepositories(id, {}, { signal }));
    return new Map(answer.items.map((r) => [r.id, r.name]));
  }

  /** The licenses of the dependencies read so far, sorted. */
  seenLicenses(): string[] {
    return [...this.licenses].sort((a, b) => a.localeCompare(b));
  }

  /** The ecosystems of the dependencies read so far, in the inventory's order (others last). */
  seenEcosystems(): string[] {
    const rank = (e: string): number => {
      const at = (DEPENDENCY_ECOSYSTEMS as readonly string[]).indexOf(e);
      return at === -1 ? DEPENDENCY_ECOSYSTEMS.length : at;
    };
    return [...this.ecosystems].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  }

  /** Forgets what was read: the next look asks again (a refresh; a deployment can gain a product). */
  expire(): void {
    this.cache.clear();
    this.missing = undefined;
    this.changed.fire();
  }

  dispose(): void {
    this.cache.clear();
    this.changed.dispose();
  }

  private async dependencies(key: readonly string[], filter: DependencyFilter, signal?: AbortSignal): Promise<InventoryAnswer<Dependency>> {
    const answer = await this.read(key, (id) => this.api().dependencies(id, filter, { signal, pageSize: DEPENDENCIES_PAGE_SIZE }));
    for (const d of answer.items) {
      for (const l of d.licenses) this.licenses.add(l);
      this.ecosystems.add(d.ecosystem);
    }
    return answer;
  }

  /**
   * One list, read whole once and shared by every caller; a failure is forgotten so the next look
   * asks again, and an unavailable inventory is an answer with no items.
   */
  private read<T>(key: readonly string[], pages: (deploymentId: string) => AsyncIterable<InventoryPage<T>>): Promise<InventoryAnswer<T>> {
    const deploymentId = this.deploymentId();
    if (!deploymentId) return Promise.reject(new Error('Not signed in.'));
    const cacheKey = JSON.stringify([deploymentId, ...key]);
    const held = this.cache.get(cacheKey) as Promise<InventoryAnswer<T>> | undefined;
    if (held) return held;
    const pending = this.collect(pages(deploymentId));
    this.cache.set(cacheKey, pending);
    pending.catch(() => this.cache.get(cacheKey) === pending && this.cache.delete(cacheKey));
    return pending;
  }

  private async collect<T>(pages: AsyncIterable<InventoryPage<T>>): Promise<InventoryAnswer<T>> {
    const items: T[] = [];
    let skipped = 0;
    try {
      for await (const page of pages) {
        for (const item of page.items) items.push(item);
        skipped += page.skipped;
      }
    } catch (error) {
      const unavailable = unavailableOf(error);
      if (!unavailable) throw error;
      this.missing = unavailable;
      return { items: [], skipped: 0, unavailable };
    }
    this.missing = undefined;
    return { items, skipped };
  }
}
