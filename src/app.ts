/**
 * The pieces of the running extension, as commands and adapters see them. Built once by the
 * composition root (extension.ts); nothing else constructs services.
 */
import type * as vscode from 'vscode';
import type { Finding, Project } from './core/model/types';
import type { BranchBaselines } from './core/services/branch-baselines';
import type { FindingsStore } from './core/services/findings-store';
import type { PoliciesService } from './core/services/policies-service';
import type { ProjectsService } from './core/services/projects-service';
import type { SbomService } from './core/services/sbom-service';
import type { Session } from './core/services/session';
import type { CachedStart } from './diagnostics/cached-start';
import type { ProblemsRenderer } from './diagnostics/problems-renderer';
import type { WorkspaceView } from './core/services/workspace-view';
import type { FindingPlaces } from './diagnostics/finding-places';
import type { TriageService } from './core/services/triage-service';
import type { ExtensionLog, Logger } from './host/logger';
import type { ViewState } from './host/view-state';
import type { WorkspaceRepo, WorkspaceRepos } from './host/workspace-repos';

export interface App {
  /** The extension's version, for the User-Agent. */
  readonly version: string;
  /** The stored API token (for the connection check); never log or show it. */
  currentToken(): Promise<string | undefined>;
  readonly log: ExtensionLog;
  logger(component: string): Logger;
  readonly session: Session;
  readonly projects: ProjectsService;
  readonly findings: FindingsStore;
  readonly policies: PoliciesService;
  readonly sbom: SbomService;
  readonly repos: WorkspaceRepos;
  /** What the workspace shows: the one place that decides it. */
  readonly view: WorkspaceView<WorkspaceRepo>;
  /** Problems, drawn from the view's snapshots. */
  readonly diagnostics: ProblemsRenderer;
  /** What a start draws before the platform answers, and what the cache keeps of Problems. */
  readonly cachedStart: CachedStart;
  /** Where each finding is in today's code. */
  readonly places: FindingPlaces;
  /** Which findings are new on their branch (what "only new on this branch" keeps). */
  readonly novelty: Pick<BranchBaselines, 'isNew' | 'comparedWith' | 'ensure' | 'version'>;
  readonly viewState: ViewState;
  /** Reloads projects, diagnostics and views; resolves when the new diagnostics are shown. */
  refreshAll(force: boolean): Promise<void>;
  /** Forgets everything shown (sign-out, deployment change). */
  clearAll(): void;
  /** The workspace's repositories changed: what they show is loaded again. */
  reposChanged(): Promise<unknown>;
  /** The platform's page of a finding (undefined signed out). */
  findingUrl(finding: Finding): string | undefined;
  /** The platform's page of a project (undefined signed out). */
  projectUrl(project: { readonly id: number }): string | undefined;
  /** The item selected in the Projects or Policy Rules view, for commands run from the palette. */
  selectedItem(): unknown;
  /** Every item selected in the Projects view (it allows several), for commands run from the palette. */
  selectedItems(): readonly unknown[];
  /** Triage and tickets: one change, shown everywhere, rolled back when refused. */
  readonly triage: TriageService;
  /** Shows the findings kept on disk from the last session (start-up); false when there are none. */
  startFromCache(): Promise<boolean>;
  /** Opens (or reuses) the Finding Details panel; resolves when the platform's detail is shown. */
  showDetails(finding: Finding): Promise<void>;
  /** Selects a rule in the Policy Rules view; false when no policy shown there has it. */
  revealRule(ruleName: string): Promise<boolean>;
  /** Cancels the tree's loads in progress. */
  cancelLoads(): void;
  readonly clipboard: vscode.Clipboard;
}

/** What commands accept as "a project": a tree node (with `project`), a Project, or a name. */
export function projectFrom(app: Pick<App, 'projects'>, arg: unknown): Project | undefined {
  if (typeof arg === 'string') return app.projects.find(arg);
  if (typeof arg === 'object' && arg !== null) {
    const candidate = 'project' in arg ? (arg).project : arg;
    if (typeof candidate === 'object' && candidate !== null && 'name' in candidate && 'id' in candidate) return candidate as Project;
  }
  return undefined;
}

/**
 * A finding named by reference (`{ findingRef: { issueType, id } }`, what a hover's command link
 * can carry), as the store holds it now; undefined for anything else.
 */
export function findingOfRef(app: Pick<App, 'findings' | 'session'>, arg: unknown): { finding: Finding } | undefined {
  if (typeof arg !== 'object' || arg === null || !('findingRef' in arg)) return undefined;
  const ref = (arg as { findingRef?: { issueType?: unknown; id?: unknown } }).findingRef;
  const slug = app.session.deployment?.slug;
  if (!slug || (ref?.issueType !== 'sast' && ref?.issueType !== 'sca' && ref?.issueType !== 'secrets') || typeof ref.id !== 'number') return undefined;
  const finding = app.findings.finding(slug, ref.issueType, ref.id);
  return finding ? { finding } : undefined;
}

/** What commands accept as "a finding": a tree node (with `finding`), a diagnostic's finding, or a Finding. */
export function findingFrom(arg: unknown): Finding | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const candidate = 'finding' in arg ? (arg).finding : arg;
  if (typeof candidate === 'object' && candidate !== null && 'ruleName' in candidate && 'issueType' in candidate) return candidate as Finding;
  return undefined;
}
