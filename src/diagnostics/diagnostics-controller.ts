/**
 * Owns the one DiagnosticCollection. For each workspace folder matched to a project, shows the
 * findings of the current branch (or of the primary branch when the current one has none), with
 * the same filters as the tree. One `set` call per refresh: files that dropped to zero findings
 * are included with no diagnostics, so nothing stale stays in Problems.
 */
import * as vscode from 'vscode';
import { Emitter } from '../core/events';
import { sameBranch } from '../core/model/refs';
import type { Finding, IssueType, Project } from '../core/model/types';
import type { FindingsService } from '../core/services/findings-service';
import { toQueryFilters, type FilterSelection } from '../core/services/filters';
import { planDiagnostics, type SeverityMapping } from '../core/workspace/diagnostic-plan';
import type { Logger } from '../host/logger';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';
import { DIAGNOSTIC_SOURCE, toDiagnostic } from './finding-diagnostic';

export interface FolderFindings {
  readonly repo: WorkspaceRepo;
  /** The ref whose findings are shown (current branch, or primary as fallback). */
  readonly ref: string | undefined;
  readonly usedFallback: boolean;
  readonly findings: readonly Finding[];
}

export interface DiagnosticsDeps {
  readonly repos: WorkspaceRepos;
  readonly findings: FindingsService;
  readonly deploymentSlug: () => string | undefined;
  readonly project: (name: string) => Project | undefined;
  readonly selection: () => FilterSelection;
  readonly mapping: () => SeverityMapping;
  readonly findingUrl: (finding: Finding) => string | undefined;
  readonly log: Logger;
}

const ISSUE_TYPES: readonly IssueType[] = ['sast', 'sca'];

export class DiagnosticsController implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private shownUris = new Set<string>();
  private folders: readonly FolderFindings[] = [];
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private readonly changed = new Emitter<readonly FolderFindings[]>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly deps: DiagnosticsDeps) {}

  get current(): readonly FolderFindings[] {
    return this.folders;
  }

  /**
   * Refreshes all folders; resolves when the new diagnostics are shown. A call while one runs
   * is coalesced into one more run after it (never more than one waiting).
   */
  refresh(force = false): Promise<void> {
    if (!this.running) {
      this.running = this.run(force).finally(() => (this.running = undefined));
      return this.running;
    }
    this.queued ??= this.running.catch(() => undefined).then(() => {
      this.queued = undefined;
      return this.refresh(force);
    });
    return this.queued;
  }

  private async run(force: boolean): Promise<void> {
    const slug = this.deps.deploymentSlug();
    if (!slug || !vscode.workspace.isTrusted) return this.clear();
    const loaded = await Promise.all(this.deps.repos.repos().map((repo) => this.loadFolder(slug, repo, force)));
    this.show(loaded);
  }

  private async loadFolder(slug: string, repo: WorkspaceRepo, force: boolean): Promise<FolderFindings> {
    const project = this.deps.project(repo.projectName);
    const primary = project?.primaryBranch ?? project?.defaultBranch;
    const branch = repo.branch ?? primary;
    let findings = await this.loadRef(slug, repo, branch, force);
    // A branch without a scan has no findings on the platform: show the primary branch's.
    if (findings.length === 0 && primary && !sameBranch(branch, primary)) {
      findings = await this.loadRef(slug, repo, primary, force);
      return { repo, ref: primary, usedFallback: true, findings };
    }
    return { repo, ref: branch, usedFallback: false, findings };
  }

  private async loadRef(slug: string, repo: WorkspaceRepo, ref: string | undefined, force: boolean): Promise<Finding[]> {
    const results = await Promise.all(
      ISSUE_TYPES.map((issueType) =>
        this.deps.findings.load(`diagnostics:${repo.folder.uri.toString()}:${ref ?? ''}:${issueType}`, {
          deploymentSlug: slug,
          issueType,
          // dedup as in the tree: with the ref, it gives the counts of the web UI (docs/platform-api.md, "Paging").
          filters: toQueryFilters(this.deps.selection(), issueType, { repo: repo.projectName, dedup: true, ...(ref ? { ref } : {}) }),
        }, { force }),
      ),
    );
    return results.flatMap((r) => r.findings);
  }

  private show(folders: readonly FolderFindings[]): void {
    const byUri = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
    const mapping = this.deps.mapping();
    for (const folder of folders) {
      const plan = planDiagnostics(folder.findings, mapping);
      for (const path of plan.refused) this.deps.log.warn(`Refused a finding path outside the folder ${folder.repo.folder.name}: ${JSON.stringify(path)}`);
      for (const planned of plan.diagnostics) {
        const uri = vscode.Uri.joinPath(folder.repo.folder.uri, planned.relativePath);
        const key = uri.toString();
        let entry = byUri.get(key);
        if (!entry) byUri.set(key, (entry = [uri, []]));
        entry[1].push(toDiagnostic(planned, folder.repo.folder.uri, this.deps.findingUrl));
      }
    }
    const entries: [vscode.Uri, vscode.Diagnostic[] | undefined][] = [...byUri.values()];
    for (const old of this.shownUris) if (!byUri.has(old)) entries.push([vscode.Uri.parse(old), undefined]);
    this.collection.set(entries);
    this.shownUris = new Set(byUri.keys());
    this.folders = folders;
    this.deps.log.info(`Diagnostics: ${[...byUri.values()].reduce((n, [, d]) => n + d.length, 0)} in ${byUri.size} files of ${folders.length} folders`);
    this.changed.fire(folders);
  }

  clear(): void {
    this.collection.clear();
    this.shownUris.clear();
    this.folders = [];
    this.changed.fire(this.folders);
  }

  dispose(): void {
    this.collection.dispose();
    this.changed.dispose();
  }
}
