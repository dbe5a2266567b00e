/**
 * The slice of the built-in git extension's API (`vscode.git`, API version 1) this extension
 * reads. Declared here because the git extension ships no types package.
 */
import type * as vscode from 'vscode';

export interface GitRemote {
  readonly name: string;
  readonly fetchUrl?: string;
  readonly pushUrl?: string;
}

export interface GitRepositoryState {
  readonly HEAD?: { readonly name?: string; readonly commit?: string };
  readonly remotes: readonly GitRemote[];
  readonly onDidChange: vscode.Event<void>;
}

export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly state: GitRepositoryState;
  /** Local branches with `{ remote: false }` (absent from very old git extensions). */
  getBranches?(query: { readonly remote?: boolean }): Promise<readonly { readonly name?: string }[]>;
}

export interface GitApi {
  /** The git binary the extension found (`git.path` setting or PATH). */
  readonly git?: { readonly path: string };
  readonly state: 'uninitialized' | 'initialized';
  readonly repositories: readonly GitRepository[];
  readonly onDidOpenRepository: vscode.Event<GitRepository>;
  readonly onDidCloseRepository: vscode.Event<GitRepository>;
  readonly onDidChangeState?: vscode.Event<'uninitialized' | 'initialized'>;
}

export interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}
