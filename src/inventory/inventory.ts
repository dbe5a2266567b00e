/**
 * The supply-chain inventory's registration: the service, the tree's filter, the editor's lines
 * (hover, hints, code action), the license diagnostics and the agent's tool, as one feature.
 */
import type * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import { DependenciesService } from '../core/services/dependencies-service';
import { DependencyFilterState } from '../core/services/dependency-view-filter';
import { shownInProblems, type FolderFindings } from '../core/services/folder-view';
import type { PlatformApi } from '../core/services/platform-api';
import { settings } from '../host/settings';
import { LicenseDiagnostics } from './license-diagnostics';
import { registerDependencyEditor } from './dependency-editor';
import { DependencyLines } from './dependency-lines';
import type { WorkspaceRepos } from '../host/workspace-repos';
import type { TreeInventory } from '../views/projects-tree-deps';
import { kindOf } from '../core/model/finding-kinds';

export interface InventoryDeps {
  readonly api: () => PlatformApi;
  readonly deploymentId: () => string | undefined;
  readonly signedIn: () => boolean;
  readonly repos: WorkspaceRepos;
  /** What the workspace shows (Problems' folders): the supply-chain findings each lockfile line tells of. */
  readonly view: { readonly snapshot: { readonly folders: readonly FolderFindings[] }; onDidChange(listener: () => void): vscode.Disposable };
  readonly projects: { find(name: string): { readonly id: number } | undefined };
}

export interface Inventory extends vscode.Disposable {
  readonly service: DependenciesService;
  readonly filter: DependencyFilterState;
  readonly tree: TreeInventory;
  readonly lines: DependencyLines;
  readonly licenses: LicenseDiagnostics;
}

export interface InventoryRegistration {
  readonly inventory: Inventory;
  /** The supply-chain inventory (the commands' name for the service). */
  readonly dependencies: DependenciesService;
  /** What the tree's dependency lists are narrowed to. */
  readonly dependencyFilter: DependencyFilterState;
}

/**
 * The supply-chain findings Problems shows for a project: its folder's, on the ref the folder
 * shows (`ref-scans.ts` decides it), under the user's filters. One list per drawn folder, so its
 * index is built once.
 */
function scaFindingsOf(shown: InventoryDeps['view'], projectName: string): readonly Finding[] {
  const folder = shown.snapshot.folders.find((f) => f.repo.projectName === projectName);
  if (!folder) return [];
  let list = scaByFolder.get(folder);
  if (!list) scaByFolder.set(folder, (list = shownInProblems(folder).filter((f) => kindOf(f).packages)));
  return list;
}
const scaByFolder = new WeakMap<FolderFindings, readonly Finding[]>();

export function registerInventory(context: vscode.ExtensionContext, deps: InventoryDeps): InventoryRegistration {
  const service = new DependenciesService(deps.api, deps.deploymentId);
  const filter = new DependencyFilterState();
  const lines = new DependencyLines({
    repos: deps.repos,
    dependencies: service,
    projectId: (name) => deps.projects.find(name)?.id,
    scaFindings: (name) => scaFindingsOf(deps.view, name),
    onFindingsChanged: (listener) =>
      deps.view.onDidChange(() => {
        listener(undefined);
      }),
    signedIn: () => deps.signedIn(),
  });
  const licenses = new LicenseDiagnostics(lines);
  const registrations = [...registerDependencyEditor({ lines, hintsEnabled: () => settings.dependencyInlayHints() })];
  const inventory: Inventory = {
    service,
    filter,
    lines,
    licenses,
    tree: { service, filter },
    dispose: () => {
      for (const d of registrations) d.dispose();
      licenses.dispose();
      lines.dispose();
      filter.dispose();
      service.dispose();
    },
  };
  context.subscriptions.push(inventory);
  return { inventory, dependencies: service, dependencyFilter: filter };
}
