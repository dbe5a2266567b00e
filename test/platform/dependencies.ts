/**
 * The supply-chain inventory the local platform serves (docs/platform-api.md, "Dependencies").
 * It agrees with the supply-chain findings: every finding's `found_dependency` is in its
 * repository's inventory at the lockfile and line its `lockfile_line_url` names. Beside those,
 * each repository has packages without a known vulnerability (several projects share them, in
 * different versions), some in lockfiles of subprojects, and the fixed versions of vulnerable
 * packages its findings do not name. Built from the names alone, without randomness.
 */
import { blobUrl } from './build-findings';
import { CLEAN_PACKAGES, LICENSE_POLICY, LOCKFILES, hashOf, licensesOf, resolvedUrlOf, type LockfileLayout } from './dependency-vocab';
import type { PlatformData, StoredProject } from './types';
import { PACKAGES_BY_LANGUAGE } from './vocab';
import type { WireScaFinding } from './wire';

export type StoredTransitivity = 'direct' | 'transitive' | 'unknown';

/** One dependency as the platform stores it; answers spell it either way (dependency-answers.ts). */
export interface StoredDependency {
  /** The keyset of the list's cursor: ascending in the list's order, beyond 2^32 like an int64. */
  id: number;
  repositoryId: number;
  ecosystem: string;
  name: string;
  version: string;
  transitivity: StoredTransitivity;
  licenses: string[];
  resolvedUrl: string;
  /** The lockfile and the 1-based lines of its entry. */
  lockfile: string;
  line: number;
  endLine: number;
  /** The manifest of its subproject, and the line that declares it there (direct ones only). */
  manifest: string;
  manifestLine?: number;
  /** The code host's page of the repository, and the scanned commit the links point at. */
  repoUrl: string;
  commit: string;
  committedAt: string;
}

export type DependencySeed = Omit<StoredDependency, 'id'>;

export interface DependencyInventory {
  /** In the list's order: repository id, lockfile, line, name. */
  dependencies: StoredDependency[];
  /** Repositories with dependency-graph data (`hasDependencyPathScan`). */
  withPaths: Set<number>;
  /** Archived repositories: left out unless a filter says `includeArchived`. */
  archived: Set<number>;
  licensePolicy: { block: string[]; comment: string[] };
}

declare module './types' {
  interface PlatformData {
    /**
     * The supply-chain inventory. Built from the projects and findings on first use
     * (`inventoryOf`) and kept: a test that changes the findings afterwards deletes it.
     */
    dependencies?: DependencyInventory;
  }
}

const FIRST_DEPENDENCY_ID = 8_000_000_000_001;
/** Generated findings sit on lockfile lines 1–400: the other entries of the root lockfile come after. */
const CLEAN_ROOT_FIRST_LINE = 404;
const SUBPROJECT_FIRST_LINE = 3;

/** The deployment's inventory, built on first use. */
export function inventoryOf(data: PlatformData): DependencyInventory {
  data.dependencies ??= buildInventory(data);
  return data.dependencies;
}

/**
 * The inventory of every project; `given` replaces what would be generated for a repository
 * (the demo's, which must agree with real files).
 */
export function buildInventory(data: PlatformData, given: ReadonlyMap<number, readonly DependencySeed[]> = new Map()): DependencyInventory {
  const findingsByRepo = new Map<string, WireScaFinding[]>();
  for (const f of data.sca) {
    const name = f.repository?.name ?? '';
    const list = findingsByRepo.get(name);
    if (list) list.push(f);
    else findingsByRepo.set(name, [f]);
  }
  const seeds: DependencySeed[] = [];
  const withPaths = new Set<number>();
  for (const project of data.projects) {
    const rid = project.repository_id;
    seeds.push(...(given.get(rid) ?? repositoryInventory(data, project, findingsByRepo.get(project.name) ?? [])));
    if (given.has(rid) || hashOf(String(rid)) % 3 !== 0) withPaths.add(rid);
  }
  seeds.sort(
    (a, b) =>
      a.repositoryId - b.repositoryId ||
      compareText(a.lockfile, b.lockfile) ||
      a.line - b.line ||
      compareText(a.name, b.name) ||
      compareText(a.version, b.version),
  );
  return {
    dependencies: seeds.map((seed, i) => ({ id: FIRST_DEPENDENCY_ID + i, ...seed })),
    withPaths,
    archived: new Set(),
    licensePolicy: { block: [...LICENSE_POLICY.block], comment: [...LICENSE_POLICY.comment] },
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `…/blob/<sha>/<path>#L<line>` (GitHub and GitLab forms) → the path and line. */
export function lockfilePlace(url: string | undefined): { path: string; line: number } | undefined {
  const m = /\/blob\/[0-9a-f]+\/(.+)#L(\d+)$/.exec(url ?? '');
  return m ? { path: m[1] ?? '', line: Number(m[2]) } : undefined;
}

/** The commit and time of the primary branch's latest completed scan (else a finding's). */
function scannedCommit(data: PlatformData, project: StoredProject, findings: readonly WireScaFinding[]): { commit: string; committedAt: string } {
  const scans = data.scans.filter(
    (s) => s.repository_id === project.repository_id && s.branch === project.primary_branch && s.status === 'SCAN_STATUS_COMPLETED',
  );
  const last = scans.sort((a, b) => (a.completed_at ?? '').localeCompare(b.completed_at ?? '')).pop();
  const fromFinding = /\/blob\/([0-9a-f]+)\//.exec(findings.find((f) => f.ref === project.primary_branch)?.found_dependency?.lockfile_line_url ?? '')?.[1];
  return { commit: last?.commit ?? fromFinding ?? '0'.repeat(40), committedAt: last?.completed_at ?? project.latest_scan_at };
}

const EXTENSIONS: readonly [RegExp, string][] = [
  [/\.py$/, 'pypi'],
  [/\.(js|ts|tsx)$/, 'npm'],
  [/\.java$/, 'maven'],
  [/\.go$/, 'gomod'],
];

/** The package manager of a project: its findings', else its code's language, else npm. */
function ecosystemOf(data: PlatformData, project: StoredProject, findings: readonly WireScaFinding[]): string {
  const named = findings.map((f) => f.found_dependency?.ecosystem).find((e) => e !== undefined && LOCKFILES[e] !== undefined);
  if (named) return named;
  for (const f of data.sast) {
    if (f.repository?.name !== project.name) continue;
    const path = f.location?.file_path ?? f.location?.filePath ?? '';
    const found = EXTENSIONS.find(([re]) => re.test(path));
    if (found) return found[1];
  }
  return 'npm';
}

const LANGUAGE_OF: Readonly<Record<string, keyof typeof PACKAGES_BY_LANGUAGE>> = { npm: 'javascript', pypi: 'python', maven: 'java', gomod: 'go' };

function repositoryInventory(data: PlatformData, project: StoredProject, findings: readonly WireScaFinding[]): DependencySeed[] {
  const rid = project.repository_id;
  const ecosystem = ecosystemOf(data, project, findings);
  const layouts = LOCKFILES[ecosystem] ?? [];
  const { commit, committedAt } = scannedCommit(data, project, findings);
  const base = { repositoryId: rid, repoUrl: project.url, commit, committedAt };
  const out: DependencySeed[] = [];
  const seen = new Set<string>();
  const named = new Set<string>();
  const manifestLines = new Map<string, number>();
  const nextManifestLine = (manifest: string): number => {
    const line = (manifestLines.get(manifest) ?? 5) + 1;
    manifestLines.set(manifest, line);
    return line;
  };
  // What the findings name, where they say it is.
  for (const f of findings) {
    const dep = f.found_dependency;
    const place = lockfilePlace(dep?.lockfile_line_url);
    if (!dep?.package || dep.version === undefined || !place) continue;
    named.add(dep.package);
    const key = `${place.path}#${place.line}#${dep.package}@${dep.version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const lockfile = layouts.find((l) => l.path === place.path) ?? layout(place.path);
    const transitivity = dep.transitivity === 'direct' || dep.transitivity === 'transitive' ? dep.transitivity : 'unknown';
    out.push({
      ...base,
      ecosystem: dep.ecosystem ?? ecosystem,
      name: dep.package,
      version: dep.version,
      transitivity,
      licenses: [...licensesOf(dep.package)],
      resolvedUrl: resolvedUrlOf(dep.ecosystem ?? ecosystem, dep.package, dep.version),
      lockfile: place.path,
      line: place.line,
      endLine: place.line + lockfile.entryLines - 1,
      manifest: lockfile.manifest,
      ...(transitivity === 'direct' ? { manifestLine: nextManifestLine(lockfile.manifest) } : {}),
    });
  }
  const nextLine = new Map<string, number>();
  const add = (lockfile: LockfileLayout, name: string, version: string, direct: boolean): void => {
    const line = nextLine.get(lockfile.path) ?? (lockfile === layouts[0] ? CLEAN_ROOT_FIRST_LINE : SUBPROJECT_FIRST_LINE);
    nextLine.set(lockfile.path, line + lockfile.entryLines);
    out.push({
      ...base,
      ecosystem,
      name,
      version,
      transitivity: direct ? 'direct' : 'transitive',
      licenses: [...licensesOf(name)],
      resolvedUrl: resolvedUrlOf(ecosystem, name, version),
      lockfile: lockfile.path,
      line,
      endLine: line + lockfile.entryLines - 1,
      manifest: lockfile.manifest,
      ...(direct ? { manifestLine: lockfile.manifest === lockfile.path ? line : nextManifestLine(lockfile.manifest) } : {}),
    });
  };
  // Packages without a known vulnerability: most in the root lockfile (not every repository has
  // each), every fourth pair in a subproject's.
  (CLEAN_PACKAGES[ecosystem] ?? []).forEach((p, i) => {
    if (named.has(p.name)) return;
    const h = hashOf(`${rid}:${p.name}`);
    const sub = i % 4 === 2 ? layouts[1] : i % 4 === 3 ? layouts[2] : undefined;
    const lockfile = sub ?? layouts[0];
    if (!lockfile || (!sub && h % 5 === 0)) return;
    // A requirements file lists what it installs: everything in it is direct.
    add(lockfile, p.name, p.versions[h % p.versions.length] ?? '', p.direct || lockfile.manifest === lockfile.path);
  });
  // Vulnerable packages no finding names here, at the version that fixed them (in half the repositories).
  const language = LANGUAGE_OF[ecosystem];
  for (const p of language ? PACKAGES_BY_LANGUAGE[language] : []) {
    const h = hashOf(`${rid}:fixed:${p.package}`);
    if (named.has(p.package) || h % 2 !== 0 || !layouts[0]) continue;
    add(layouts[0], p.package, p.fixVersion, h % 3 === 0);
  }
  return out;
}

function layout(path: string): LockfileLayout {
  return { path, manifest: path, entryLines: 1 };
}

/** The link of a line of the repository at its scanned commit (`url` of a CodeLocation). */
export function lineUrl(d: Pick<StoredDependency, 'repoUrl' | 'commit'>, path: string, line: number): string {
  return blobUrl(d.repoUrl, d.commit, path, line);
}
