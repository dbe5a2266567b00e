/**
 * Composition of the supply-chain inventory's pieces, for the composition root: the service, the
 * tree's filter, the editor's lines (hover, hints, code action), the licence diagnostics and the
 * agent's tool. Kept apart so the root stays a list of parts.
 */
import type * as vscode from 'vscode';
import { registerDependenciesTool } from './agent/dependencies-tool';
import type { Finding } from './core/model/types';
import { DependenciesService } from './core/services/dependencies-service';
import { DependencyFilterState } from './core/services/dependency-view-filter';
import { shownInProblems, type FolderFindings } from './core/services/folder-view';
import type { PlatformApi } from './core/services/platform-api';
import { LicenceDiagnostics } from './diagnostics/licence-diagnostics';
import { registerDependencyEditor } from './editor/dependency-editor';
import { DependencyLines } from './editor/dependency-lines';
import type { WorkspaceRepos } from './host/workspace-repos';
import type { TreeInventory } from './views/projects-tree-deps';

export interface InventoryDeps {
  readonly api: () => PlatformApi;
  readonly deploymentId: () => string | undefined;
  readonly signedIn: () => boolean;
  readonly repos: WorkspaceRepos;
  /** What the workspace shows (Problems' folders): the supply-chain findings each lockfile line tells of. */
  readonly shown: { readonly snapshot: { readonly folders: readonly FolderFindings[] }; onDidChange(listener: () => void): vscode.Disposable };
  projectId(projectName: string): number | undefined;
  hintsEnabled(): boolean;
  errorMessage(error: unknown): string;
}

export interface Inventory extends vscode.Disposable {
  readonly service: DependenciesService;
  readonly filter: DependencyFilterState;
  readonly tree: TreeInventory;
  readonly lines: DependencyLines;
  readonly licences: LicenceDiagnostics;
}

/**
 * The supply-chain findings Problems shows for a project: its folder's, on the ref the folder
 * shows (`ref-scans.ts` decides it), under the user's filters. One list per drawn folder, so its
 * index is built once.
 */
function scaFindingsOf(shown: InventoryDeps['shown'], projectName: string): readonly Finding[] {
  const folder = shown.snapshot.folders.find((f) => f.repo.projectName === projectName);
  if (!folder) return [];
  let list = scaByFolder.get(folder);
  if (!list) scaByFolder.set(folder, (list = shownInProblems(folder).filter((f) => f.issueType === 'sca')));
  return list;
}
const scaByFolder = new WeakMap<FolderFindings, readonly Finding[]>();

export function createInventory(deps: InventoryDeps): Inventory {
  const service = new DependenciesService(deps.api, deps.deploymentId);
  const filter = new DependencyFilterState();
  const lines = new DependencyLines({
    repos: deps.repos, dependencies: service, projectId: (name) => deps.projectId(name),
    scaFindings: (name) => scaFindingsOf(deps.shown, name), onFindingsChanged: (listener) => deps.shown.onDidChange(() => { listener(undefined); }), signedIn: () => deps.signedIn(),
  });
  const licences = new LicenceDiagnostics(lines);
  const registrations = [
    ...registerDependencyEditor({ lines, hintsEnabled: () => deps.hintsEnabled() }),
    ...registerDependenciesTool({ dependencies: service, signedIn: () => deps.signedIn(), errorMessage: (e) => deps.errorMessage(e) }),
  ];
  return {
    service, filter, lines, licences,
    tree: { service, filter },
    dispose: () => {
      for (const d of registrations) d.dispose();
      licences.dispose();
      lines.dispose();
      filter.dispose();
      service.dispose();
    },
  };
}
