/**
 * The code-places registration: where findings are in today's code (drift through commits and
 * edits, `finding-places.ts`), shared by Problems, the tree, the hover, the details panel, the
 * agent and Open Finding; the offer to fetch a scanned commit the clone does not have; and the
 * read-only file at a scanned commit, for code that is not in this checkout yet.
 */
import type * as vscode from 'vscode';
import type { PlatformApi } from '../core/services/platform-api';
import { DriftTracker } from '../host/drift-tracker';
import { GitCli } from '../host/git-cli';
import type { GitWorkspaceRepos } from '../host/git-workspace-repos';
import type { Logger } from '../host/logger';
import { offerToFetchScannedCommits } from '../host/scanned-commit-notice';
import { FindingPlaces, latestScanCommitVia } from './finding-places';
import { registerScannedFiles } from './scanned-files';

export interface CodePlacesDeps {
  readonly repos: GitWorkspaceRepos;
  readonly session: { readonly api: PlatformApi; readonly deployment?: { readonly id: string } };
  readonly projects: { find(name: string): { readonly id: number } | undefined };
  logger(component: string): Logger;
}

export interface CodePlaces {
  readonly drift: DriftTracker;
  /** Where each finding is in today's code. */
  readonly places: FindingPlaces;
}

export function registerCodePlaces(context: vscode.ExtensionContext, deps: CodePlacesDeps): CodePlaces {
  const { repos, session, projects } = deps;
  const driftLog = deps.logger('Drift');
  const drift = new DriftTracker(new GitCli(() => repos.gitPath()), driftLog);
  const places = new FindingPlaces(repos, drift, latestScanCommitVia(session, projects), driftLog);
  context.subscriptions.push(drift, places, offerToFetchScannedCommits(drift), registerScannedFiles(drift));
  return { drift, places };
}
