/**
 * The supply-chain inventory (docs/platform-api.md, "Dependencies"): the repositories the platform
 * holds dependencies for, their lockfiles, and each dependency with its version, transitivity,
 * licenses and the line that declares it. Decoded by `decodeDependency.ts`.
 */
import type { Open, Transitivity } from './types';

/** The package managers the inventory's filter names; others are kept as they come. */
export const DEPENDENCY_ECOSYSTEMS = [
  'npm',
  'pypi',
  'gomod',
  'cargo',
  'maven',
  'gem',
  'composer',
  'nuget',
  'pub',
  'swiftpm',
  'hex',
  'cocoapods',
  'mix',
  'opam',
  'no_package_manager',
] as const;
export type DependencyEcosystem = Open<(typeof DEPENDENCY_ECOSYSTEMS)[number]>;

/** Each ecosystem as its developers name it; the platform's id for one not listed. */
const ECOSYSTEM_NAMES: Readonly<Record<string, string>> = {
  npm: 'npm',
  pypi: 'PyPI',
  gomod: 'Go modules',
  cargo: 'Cargo',
  maven: 'Maven',
  gem: 'RubyGems',
  composer: 'Composer',
  nuget: 'NuGet',
  pub: 'pub',
  swiftpm: 'SwiftPM',
  hex: 'Hex',
  cocoapods: 'CocoaPods',
  mix: 'Mix',
  opam: 'opam',
  no_package_manager: 'No package manager',
};

export function ecosystemName(ecosystem: string): string {
  return ECOSYSTEM_NAMES[ecosystem] ?? ecosystem;
}

/** What the organization's license policy does with a dependency's license. */
export type LicensePolicySetting = 'allow' | 'comment' | 'block';
/** What the license policy does to a dependency it does not allow: comments on it, or blocks it. */
export type LicensePolicyOutcome = Exclude<LicensePolicySetting, 'allow'>;

/** A repository the platform has an inventory for (its id is the project's id). */
export interface DependencyRepository {
  readonly id: string;
  readonly name: string;
  readonly dependencies: number;
  /** Dependency-graph data exists for it. */
  readonly hasDependencyPaths: boolean;
}

export interface LockfileSummary {
  /** Relative to the repository's root. */
  readonly path: string;
  readonly dependencies: number;
}

/** A place in a repository's file; 1-based lines. */
export interface DependencyPlace {
  readonly path: string;
  readonly line?: number;
  readonly endLine?: number;
  readonly url?: string;
}

export interface Dependency {
  readonly repositoryId: string;
  readonly ecosystem: DependencyEcosystem;
  readonly name: string;
  /** As the lockfile resolved it (`versionSpecifier`). */
  readonly version: string;
  readonly transitivity: Transitivity;
  readonly licenses: readonly string[];
  readonly resolvedUrl?: string;
  /** Where it is declared: the lockfile's line. */
  readonly definedAt?: DependencyPlace;
  /** The manifest of its subproject (`package.json`, `requirements.txt`, …). */
  readonly manifest?: DependencyPlace;
}

/** One package asked for by name, with optional version bounds such as `>=2.0.0` and `<2.17.1`. */
export interface PackageFilter {
  readonly name: string;
  /** True: the name must match exactly; otherwise it is contained. */
  readonly exact?: boolean;
  readonly version?: string;
  readonly lower?: string;
  readonly upper?: string;
}

/** Narrows each of the three lists (`dependencyFilter`); every field is optional. */
export interface DependencyFilter {
  readonly ecosystems?: readonly string[];
  readonly licenses?: readonly string[];
  readonly licensePolicy?: readonly LicensePolicySetting[];
  readonly lockfilePath?: string;
  readonly repositoryIds?: readonly string[];
  readonly transitivity?: readonly Transitivity[];
  readonly packages?: readonly PackageFilter[];
  readonly includeArchived?: boolean;
}

/** One page of a body-cursor list: its items and the entries that could not be read. */
export interface InventoryPage<T> {
  readonly items: readonly T[];
  readonly skipped: number;
}
