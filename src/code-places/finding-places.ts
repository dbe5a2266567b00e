/**
 * One answer to "where is this finding in today's code?", for Problems, the tree, opening a
 * finding and the hover: the scanned place (usage, lockfile line or location), moved through
 * the drift tracker's maps for the commit the finding was scanned at. That commit comes from
 * the finding's code-host link, else from the platform's latest completed scan of its branch
 * (looked up once per project and branch, in the background).
 */
import * as vscode from 'vscode';
import { branchName } from '../core/model/refs';
import type { Finding } from '../core/model/types';
import type { PlatformApi } from '../core/services/platform-api';
import { confinePath, reportedLocationsOf, toPlannedRange } from '../core/workspace/diagnostic-plan';
import type { FoundPlace, GonePlace } from '../core/workspace/today-place';
import { scannedCommitOf } from '../core/workspace/drift-hint';
import type { Placer } from '../core/workspace/placement';
import type { DriftTracker } from '../host/drift-tracker';
import type { Logger } from '../host/logger';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';

/** Where a finding is today (the one shape, `today-place.ts`), with the file's URI when it is in a file. */
export type WorkspacePlace = (FoundPlace & { readonly uri: vscode.Uri }) | GonePlace;

export type LatestScanCommit = (projectName: string, ref: string) => Promise<string | undefined>;

/** The scans endpoint asked through the signed-in session (nothing when signed out or the project is unknown). */
export function latestScanCommitVia(
  session: { readonly api: PlatformApi; readonly deployment?: { readonly id: string } },
  projects: { find(name: string): { readonly id: number } | undefined },
): LatestScanCommit {
  return async (projectName, ref) => {
    const deployment = session.deployment;
    const project = projects.find(projectName);
    if (!deployment || !project) return undefined;
    return (await session.api.latestScan(deployment.id, project.id, ref))?.commit;
  };
}

export class FindingPlaces implements vscode.Disposable {
  /** Per project and branch: the scanned commit, or null when the platform has none. */
  private readonly scanCommits = new Map<string, string | null>();
  private readonly lookingUp = new Set<string>();
  private readonly resolved = new vscode.EventEmitter<void>();
  /** A scanned commit became known from the scans endpoint: placements may change. */
  readonly onDidResolveCommit = this.resolved.event;

  constructor(
    private readonly repos: WorkspaceRepos,
    readonly drift: DriftTracker,
    private readonly latestScanCommit: LatestScanCommit,
    private readonly log: Logger,
  ) {}

  /** The commit the finding was scanned at, when known. */
  commitOf(finding: Finding, repo: WorkspaceRepo): string | undefined {
    const fromLink = scannedCommitOf(finding.lineOfCodeUrl);
    if (fromLink || !finding.ref) return fromLink;
    const key = `${repo.projectName}|${branchName(finding.ref)}`;
    const known = this.scanCommits.get(key);
    if (known === undefined && !this.lookingUp.has(key)) this.lookUp(key, repo.projectName, branchName(finding.ref));
    return known ?? undefined;
  }

  /** How drift places a scanned path of this folder at this commit. */
  placer(repo: WorkspaceRepo, commit: string | undefined): Placer {
    return (path, range) => (commit ? this.drift.place(repo.folder, commit, path, range) : undefined);
  }

  /** Today's place of the finding in the workspace (undefined: not in this workspace). */
  place(finding: Finding): WorkspacePlace | undefined {
    const scanned = reportedLocationsOf(finding)[0];
    const relative = scanned && confinePath(scanned.path);
    const range = scanned && toPlannedRange(scanned);
    if (!relative || !range) return undefined;
    const repo = this.repoOf(finding);
    if (!repo) return undefined;
    const commit = this.commitOf(finding, repo);
    const today = this.placer(repo, commit)(relative, range);
    if (today?.kind === 'deleted') return today;
    const { relativePath, range: todayRange, kind } = today ?? { relativePath: relative, range, kind: 'scanned' as const };
    return { uri: vscode.Uri.joinPath(repo.folder.uri, relativePath), relativePath, range: todayRange, kind, ...(commit ? { commit } : {}) };
  }

  /** The workspace folder that holds the finding's project. */
  repoOf(finding: Finding): WorkspaceRepo | undefined {
    return this.repos.repos().find((r) => !finding.repositoryName || r.projectName === finding.repositoryName);
  }

  /** Forgets looked-up commits (a refresh may bring newer scans). */
  forgetScans(): void {
    this.scanCommits.clear();
  }

  private lookUp(key: string, projectName: string, ref: string): void {
    this.lookingUp.add(key);
    this.latestScanCommit(projectName, ref)
      .then((commit) => {
        this.scanCommits.set(key, commit ?? null);
        if (commit) this.resolved.fire();
      })
      .catch((error: unknown) => {
        // Not asked again until a forced refresh: an endpoint that fails keeps failing.
        this.scanCommits.set(key, null);
        this.log.warn(`Could not learn which commit of ${projectName} ${ref} was scanned: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => this.lookingUp.delete(key));
  }

  dispose(): void {
    this.resolved.dispose();
  }
}
