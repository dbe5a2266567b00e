/**
 * Which lines of a workspace manifest or lockfile the inventory knows, with what to say of each:
 * the dependency, its open supply-chain findings (from the findings already held), and the
 * licence policy's outcome. Lines are found in the document's text as it is now
 * (`core/workspace/manifest-lines.ts`), so they follow edits; each document version is located
 * once and shared by the hover, the hints and the licence diagnostics.
 */
import * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { DependenciesService } from '../core/services/dependencies-service';
import { dependencyKey, otherRepositories } from '../core/services/dependency-usage';
import type { DependencyFacts } from '../core/workspace/dependency-facts';
import { locateDependencies, type LocatedDependency } from '../core/workspace/manifest-lines';
import { packageFindingsOf } from '../core/workspace/package-findings';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';

/** The files whose lines the inventory can name: manifests and lockfiles of the ecosystems it knows. */
export const INVENTORY_FILES = '**/{package.json,package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,requirements*.txt,constraints*.txt,Pipfile,Pipfile.lock,poetry.lock,pyproject.toml,uv.lock,go.mod,go.sum,Cargo.toml,Cargo.lock,Gemfile,Gemfile.lock,pom.xml,build.gradle,build.gradle.kts,gradle.lockfile,composer.json,composer.lock,packages.lock.json,pubspec.yaml,pubspec.lock,Package.swift,Package.resolved,mix.exs,mix.lock,Podfile,Podfile.lock}';
export const INVENTORY_SELECTOR: vscode.DocumentSelector = { scheme: 'file', pattern: INVENTORY_FILES };

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
      deps.dependencies.onDidChange(forget), deps.onFindingsChanged(forget), deps.repos.onDidChange(forget),
      vscode.workspace.onDidCloseTextDocument((d) => this.located.delete(d.uri.toString())),
      this.changed,
    ];
  }

  /** The located lines of a document ([] when the inventory knows none of it, or cannot be read). */
  linesOf(document: vscode.TextDocument): Promise<readonly LocatedFacts[]> {
    const key = document.uri.toString();
    const held = this.located.get(key);
    if (held && held.version === document.version) return held.lines;
    const lines = this.locate(document).catch(() => []);
    this.located.set(key, { version: document.version, lines });
    return lines;
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

  private async locate(document: vscode.TextDocument): Promise<readonly LocatedFacts[]> {
    if (!this.deps.signedIn()) return [];
    const place = this.placeOf(document.uri);
    const id = place && this.deps.projectId(place.repo.projectName);
    if (!place || id === undefined) return [];
    const repositoryId = String(id);
    const [answer, outcomes] = await Promise.all([
      this.deps.dependencies.repositoryDependencies(repositoryId),
      this.deps.dependencies.licenseOutcomes(repositoryId),
    ]);
    if (answer.items.length === 0) return [];
    const index = packageFindingsOf(this.deps.scaFindings(place.repo.projectName));
    const facts = answer.items.map((dependency): DependencyFacts => {
      const licensePolicy = outcomes.get(dependencyKey(dependency));
      return { dependency, findings: index.of(dependency), ...(licensePolicy ? { licensePolicy } : {}) };
    });
    return locateDependencies(place.path, document.getText(), facts);
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
