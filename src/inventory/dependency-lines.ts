/**
 * Which lines of a workspace manifest or lockfile the inventory knows, with what to say of each:
 * the dependency, its open supply-chain findings (from the findings already held), and the
 * license policy's outcome. Lines are found in the document's text as it is now
 * (`core/workspace/manifest-lines.ts`), so they follow edits; each document version is located
 * once and shared by the hover, the hints and the license diagnostics.
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { DependenciesService } from '../core/services/dependencies-service';
import { dependencyKey, otherRepositories } from '../core/services/dependency-usage';
import type { DependencyFacts } from '../core/workspace/dependency-facts';
import { confinePath } from '../core/workspace/diagnostic-plan';
import { locateDependencies, type LocatedDependency } from '../core/workspace/manifest-lines';
import { packageFindingsOf } from '../core/workspace/package-findings';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';

/** The files whose lines the inventory can name: manifests and lockfiles of the ecosystems it knows (`*` within a name). */
const INVENTORY_NAMES = [
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'requirements*.txt',
  'constraints*.txt',
  'Pipfile',
  'Pipfile.lock',
  'poetry.lock',
  'pyproject.toml',
  'uv.lock',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
  'Gemfile',
  'Gemfile.lock',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
  'gradle.lockfile',
  'composer.json',
  'composer.lock',
  'packages.lock.json',
  'pubspec.yaml',
  'pubspec.lock',
  'Package.swift',
  'Package.resolved',
  'mix.exs',
  'mix.lock',
  'Podfile',
  'Podfile.lock',
] as const;
export const INVENTORY_FILES = `**/{${INVENTORY_NAMES.join(',')}}`;
export const INVENTORY_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: INVENTORY_FILES };
/** The same names as {@link INVENTORY_FILES}, for files not open in an editor (a selector matches documents only). */
const INVENTORY_NAME = new RegExp(`^(?:${INVENTORY_NAMES.map((n) => n.replace(/[.+]/g, '\\$&').replace('*', '[^/]*')).join('|')})$`);

export type LocatedFacts = LocatedDependency<DependencyFacts>;

export interface DependencyLinesDeps {
  readonly repos: Pick<WorkspaceRepos, 'repos' | 'onDidChange'>;
  readonly dependencies: Pick<DependenciesService, 'repositoryDependencies' | 'licenseOutcomes' | 'whereUsed' | 'onDidChange'>;
  /** The platform's id of a project (its inventory's repository id), when the project is known. */
  projectId(projectName: string): number | undefined;
  /** The supply-chain findings held for a workspace project (what Problems shows). */
  scaFindings(projectName: string): readonly Finding[];
  /** Fires when the findings held change. */
  readonly onFindingsChanged: vscode.Event<unknown>;
  readonly signedIn: () => boolean;
}

export class DependencyLines implements vscode.Disposable {
  private readonly located = new Map<string, { readonly version: number; readonly lines: Promise<readonly LocatedFacts[]> }>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** What the lines say may have changed (the inventory was read again, findings changed). */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: DependencyLinesDeps) {
    const forget = (): void => {
      this.located.clear();
      this.changed.fire();
    };
    this.subscriptions = [
      deps.dependencies.onDidChange(forget),
      deps.onFindingsChanged(forget),
      deps.repos.onDidChange(forget),
      vscode.workspace.onDidCloseTextDocument((d) => this.located.delete(d.uri.toString())),
      this.changed,
    ];
  }

  /** The located lines of a document ([] when the inventory knows none of it, or cannot be read). */
  linesOf(document: vscode.TextDocument): Promise<readonly LocatedFacts[]> {
    const key = document.uri.toString();
    const held = this.located.get(key);
    if (held && held.version === document.version) return held.lines;
    const lines = this.linesOfText(document.uri, document.getText());
    this.located.set(key, { version: document.version, lines });
    return lines;
  }

  /**
   * The located lines of a file's text, by the same rule as an open document's: for a manifest or
   * lockfile read from disk (not open in an editor). Not kept: the caller reads the file again.
   */
  linesOfText(uri: vscode.Uri, text: string): Promise<readonly LocatedFacts[]> {
    return this.locate(uri, text).catch(() => []);
  }

  /**
   * The workspace's manifests and lockfiles where the inventory puts at least one dependency of
   * which `wanted` is true (a license the policy blocks or comments on), whether open or not. A
   * repository whose inventory cannot be read names none; a path leaving its folder is refused.
   */
  async filesWith(wanted: (facts: DependencyFacts) => boolean): Promise<vscode.Uri[]> {
    if (!this.deps.signedIn()) return [];
    const found = new Map<string, vscode.Uri>();
    await Promise.all(
      this.deps.repos.repos().map(async (repo) => {
        const facts = await this.factsOf(repo.projectName).catch(() => []);
        for (const fact of facts) {
          if (!wanted(fact)) continue;
          const { definedAt, manifest, transitivity } = fact.dependency;
          for (const place of [definedAt, transitivity === 'direct' ? manifest : undefined]) {
            const path = place && confinePath(place.path);
            if (!path || !INVENTORY_NAME.test(path.slice(path.lastIndexOf('/') + 1))) continue;
            const uri = vscode.Uri.joinPath(repo.folder.uri, path);
            found.set(uri.toString(), uri);
          }
        }
      }),
    );
    return [...found.values()];
  }

  /** The line's dependency, if any. */
  async at(document: vscode.TextDocument, line: number): Promise<LocatedFacts | undefined> {
    return (await this.linesOf(document)).find((l) => l.line === line);
  }

  /** How many other repositories of the deployment use the package (any version). */
  async otherRepositories(facts: DependencyFacts, signal?: AbortSignal): Promise<number | undefined> {
    const { dependency } = facts;
    const usage = await this.deps.dependencies.whereUsed({ package: dependency.name, ecosystem: dependency.ecosystem }, signal);
    return usage.unavailable ? undefined : otherRepositories(usage, dependency.repositoryId);
  }

  private async locate(uri: vscode.Uri, text: string): Promise<readonly LocatedFacts[]> {
    if (!this.deps.signedIn()) return [];
    const place = this.placeOf(uri);
    if (!place) return [];
    return locateDependencies(place.path, text, await this.factsOf(place.repo.projectName));
  }

  /** What the inventory, the license policy and the findings held say of each dependency of a workspace project. */
  private async factsOf(projectName: string): Promise<readonly DependencyFacts[]> {
    const id = this.deps.projectId(projectName);
    if (id === undefined) return [];
    const repositoryId = String(id);
    const [answer, outcomes] = await Promise.all([
      this.deps.dependencies.repositoryDependencies(repositoryId),
      this.deps.dependencies.licenseOutcomes(repositoryId),
    ]);
    if (answer.items.length === 0) return [];
    const index = packageFindingsOf(this.deps.scaFindings(projectName));
    return answer.items.map((dependency): DependencyFacts => {
      const licensePolicy = outcomes.get(dependencyKey(dependency));
      return { dependency, findings: index.of(dependency), ...(licensePolicy ? { licensePolicy } : {}) };
    });
  }

  /** The workspace repository holding the file, and the file's path relative to its root. */
  private placeOf(uri: vscode.Uri): { readonly repo: WorkspaceRepo; readonly path: string } | undefined {
    let best: { repo: WorkspaceRepo; path: string } | undefined;
    for (const repo of this.deps.repos.repos()) {
      const root = repo.folder.uri.path.replace(/\/+$/, '');
      if (uri.scheme !== repo.folder.uri.scheme || !uri.path.startsWith(`${root}/`)) continue;
      const path = uri.path.slice(root.length + 1);
      if (!best || path.length < best.path.length) best = { repo, path };
    }
    return best;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.located.clear();
  }
}
