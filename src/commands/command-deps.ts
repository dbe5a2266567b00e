/**
 * What the commands use of the running extension. The feature registrations before the
 * commands' (extension.ts) together return all of it; each command file asks only for the part it
 * needs (`Pick<…>`), so commands never depend on the composition root.
 */
import type * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { BranchBaselines } from '../core/services/branch-baselines';
import type { FindingsStore } from '../core/services/findings-store';
import type { FindingDetails } from '../core/services/finding-details';
import type { FindingStories } from '../core/services/finding-stories';
import type { PoliciesService } from '../core/services/policies-service';
import type { ProjectsService } from '../core/services/projects-service';
import type { SbomService } from '../core/services/sbom-service';
import type { Session } from '../core/services/session';
import type { TriageService } from '../core/services/triage-service';
import type { DependenciesService } from '../core/services/dependencies-service';
import type { DependencyFilterState } from '../core/services/dependency-view-filter';
import type { FindingPlaces } from '../code-places/finding-places';
import type { ExtensionLog, Logger } from '../host/logger';
import type { ViewState } from '../host/view-state';
import type { RefScans } from '../core/services/ref-scans';
import type { WorkspaceRepos } from '../host/workspace-repos';
import type { LaunchSpec } from '../core/agent/agent-configs';

export interface CommandDeps {
  /** The extension's version, for the User-Agent. */
  readonly version: string;
  /** The stored API token (for the connection check); never log or show it. */
  currentToken(): Promise<string | undefined>;
  readonly log: ExtensionLog;
  logger(component: string): Logger;
  readonly session: Session;
  readonly projects: ProjectsService;
  /** The policies and their rules (the Policy Rules view's). */
  readonly policies: PoliciesService;
  readonly findings: FindingsStore;
  readonly sbom: SbomService;
  readonly repos: WorkspaceRepos;
  /** Where each finding is in today's code. */
  readonly places: FindingPlaces;
  /** The primary branches' findings: which findings are new on their branch (what "only new on this branch" keeps). */
  readonly baselines: Pick<BranchBaselines, 'isNew' | 'comparedWith' | 'ensure' | 'version'>;
  /** Whether a project's branch was scanned, as every place reads it (`core/services/place.ts`). */
  readonly scans: Pick<RefScans, 'now' | 'known' | 'ask' | 'branches'>;
  readonly viewState: ViewState;
  /** Reloads projects, diagnostics and views; resolves when the new diagnostics are shown. */
  refreshAll(force: boolean): Promise<void>;
  /** Forgets everything shown (sign-out, deployment change). */
  clearAll(): void;
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
  /** A finding's whole detail (CWE, the assistant's guidance), asked once and kept. */
  readonly details: FindingDetails;
  /** A finding's story (trace, elsewhere, activity, owners), read when wanted and kept while the finding stays the same. */
  readonly stories: FindingStories;
  /** Opens (or reuses) the Finding Details panel; resolves when the platform's detail is shown. */
  showDetails(finding: Finding): Promise<void>;
  /** Selects a rule in the Policy Rules view; false when no policy shown there has it. */
  revealRule(ruleName: string): Promise<boolean>;
  readonly clipboard: vscode.Clipboard;
  /** The supply-chain inventory. */
  readonly dependencies: DependenciesService;
  /** What the tree's dependency lists are narrowed to. */
  readonly dependencyFilter: DependencyFilterState;
  /** Selects a project in the Projects view; false when the view does not list it. */
  revealProject(projectName: string): Promise<boolean>;
  /** How an MCP client starts the server connected to this window; undefined when agents cannot reach it. */
  agentServer(): Promise<LaunchSpec | undefined>;
  /** The spec an agent's own list takes (Connect an Agent…). */
  agentEntry(): LaunchSpec;
  /** VS Code's storage of this extension (Cline's list is beside it). */
  readonly agentStorage: vscode.Uri;
}
