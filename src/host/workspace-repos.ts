/**
 * Which platform projects the open workspace's folders are, and on which branch. Implemented by
 * `GitWorkspaceRepos` (git remotes through the built-in git extension, plus the
 * `appsecFindings.folderProjects` setting); views and diagnostics only read this interface.
 */
import type * as vscode from 'vscode';

export interface WorkspaceRepo {
  readonly folder: vscode.WorkspaceFolder;
  /** The platform project's name (`group/sub/repo`). */
  readonly projectName: string;
  /** The checked-out branch, when git knows it (detached HEAD: undefined). */
  readonly branch?: string;
  /** The checked-out commit, when git knows it. */
  readonly commit?: string;
}

export interface WorkspaceRepos {
  readonly onDidChange: vscode.Event<void>;
  /** Folders matched to a project of the deployment. */
  repos(): readonly WorkspaceRepo[];
  /** Names of the projects the workspace holds, for marking and sorting in the tree. */
  projectNames(): ReadonlySet<string>;
  /** The local git branches of the folders that hold a project (empty when git cannot tell). */
  localBranches(projectName: string): Promise<string[]>;
}
