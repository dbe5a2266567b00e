/**
 * `WorkspaceRepos` from the built-in git extension: each folder's remotes matched to the
 * deployment's projects, and its current branch. Git's repository state fires on every file
 * change, so changes are reduced to a signature (remotes + branch per folder) and only a
 * different signature is announced: no work per keystroke.
 */
import * as vscode from 'vscode';
import { matchProject, repositoryNameOf } from '../core/workspace/remote-matching';
import type { GitApi, GitExtension, GitRepository } from './git-api';
import type { Logger } from './logger';
import { settings } from './settings';
import type { WorkspaceRepo, WorkspaceRepos } from './workspace-repos';

export class GitWorkspaceRepos implements WorkspaceRepos, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private readonly repoListeners = new Map<string, vscode.Disposable>();
  private git: GitApi | undefined;
  private current: readonly WorkspaceRepo[] = [];
  private signature = '';

  /**
   * `projectNames_`: the deployment's project names, and whether they are its whole list. Until
   * they are (a start, a sign-in), a folder may also match the project its remote names
   * (`Org/Repo`), so its findings need not wait for the list; the list, once read, matches it again.
   */
  constructor(
    private readonly projectNames_: () => { readonly names: readonly string[]; readonly listed: boolean },
    private readonly log: Logger,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.recompute()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.connectGit()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('appsecFindings.folderProjects')) this.recompute();
      }),
    );
  }

  /** Connects to the git extension (activating it if needed). Safe to call more than once. */
  async connectGit(): Promise<void> {
    if (this.git || !vscode.workspace.isTrusted) return void this.recompute();
    const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
    try {
      const exports = extension ? (extension.isActive ? extension.exports : await extension.activate()) : undefined;
      if (!exports?.enabled) {
        this.log.warn('The built-in git extension is disabled: only appsecFindings.folderProjects maps folders to projects.');
        return void this.recompute();
      }
      this.git = exports.getAPI(1);
      this.disposables.push(
        this.git.onDidOpenRepository((repo) => this.watch(repo)),
        this.git.onDidCloseRepository((repo) => {
          this.repoListeners.get(repo.rootUri.toString())?.dispose();
          this.repoListeners.delete(repo.rootUri.toString());
          this.recompute();
        }),
      );
      if (this.git.onDidChangeState) this.disposables.push(this.git.onDidChangeState(() => this.recompute()));
      for (const repo of this.git.repositories) this.watch(repo);
    } catch (error) {
      this.log.error('Could not use the git extension', error);
    }
    this.recompute();
  }

  private watch(repo: GitRepository): void {
    const key = repo.rootUri.toString();
    if (!this.repoListeners.has(key))
      this.repoListeners.set(
        key,
        repo.state.onDidChange(() => this.recompute()),
      );
    this.recompute();
  }

  /** The git binary the git extension uses (so a `git.path` setting is honoured). */
  gitPath(): string {
    return this.git?.git?.path || 'git';
  }

  repos(): readonly WorkspaceRepo[] {
    return this.current;
  }

  projectNames(): ReadonlySet<string> {
    return new Set(this.current.map((r) => r.projectName));
  }

  async localBranches(projectName: string): Promise<string[]> {
    const names = new Set<string>();
    for (const repo of this.current.filter((r) => r.projectName === projectName)) {
      const branches =
        (await this.repositoryFor(repo.folder)
          ?.getBranches?.({ remote: false })
          .catch(() => [])) ?? [];
      for (const branch of branches) if (branch.name) names.add(branch.name);
    }
    return [...names].sort();
  }

  /** Re-reads folders, remotes and branches; announces only a real difference (and returns true). */
  recompute(): boolean {
    const { names, listed } = this.projectNames_();
    const repos: WorkspaceRepo[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const repo = this.repositoryFor(folder);
      const remotes = repo?.state.remotes.flatMap((r) => [r.fetchUrl, r.pushUrl]).filter((u): u is string => !!u) ?? [];
      const candidates = listed ? names : [...names, ...remotes.map(repositoryNameOf).filter((n): n is string => n !== undefined)];
      const projectName = matchProject(remotes, candidates, settings.folderProjects(folder));
      const head = repo?.state.HEAD;
      if (projectName) repos.push({ folder, projectName, ...(head?.name ? { branch: head.name } : {}), ...(head?.commit ? { commit: head.commit } : {}) });
    }
    const signature = JSON.stringify(repos.map((r) => [r.folder.uri.toString(), r.projectName, r.branch, r.commit]));
    this.current = repos;
    if (signature !== this.signature) {
      this.signature = signature;
      this.log.debug(`Workspace repositories: ${signature}`);
      this.changed.fire();
      return true;
    }
    return false;
  }

  /** The repository whose root is the folder, or the innermost one that contains it. */
  private repositoryFor(folder: vscode.WorkspaceFolder): GitRepository | undefined {
    const folderPath = folder.uri.fsPath;
    return this.git?.repositories
      .filter((r) => folderPath === r.rootUri.fsPath || folderPath.startsWith(r.rootUri.fsPath + '/') || folderPath.startsWith(r.rootUri.fsPath + '\\'))
      .sort((a, b) => b.rootUri.fsPath.length - a.rootUri.fsPath.length)[0];
  }

  dispose(): void {
    for (const d of this.repoListeners.values()) d.dispose();
    this.repoListeners.clear();
    for (const d of this.disposables) d.dispose();
  }
}
