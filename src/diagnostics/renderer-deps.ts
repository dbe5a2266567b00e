/**
 * What the Problems renderer is given and the snapshots it shows: the workspace view it draws,
 * the settings each diagnostic is built with (the severity mapping, unreachable findings as
 * information), where findings are in today's code, the log, and a finding's trace once its
 * story was read. Kept apart from the renderer, as the trees' deps are, so its file holds only
 * how a drawing is done.
 */
import type * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import type { SeverityMapping } from '../core/workspace/diagnostic-plan';
import type { WorkspaceSnapshot, WorkspaceView } from '../core/services/workspace-view';
import type { FolderFindings } from '../core/services/folder-view';
import type { Logger } from '../host/logger';
import type { WorkspaceRepo } from '../host/workspace-repos';
import type { FindingPlaces } from '../code-places/finding-places';

export type WorkspaceFolderFindings = FolderFindings<WorkspaceRepo>;
export type ShownSnapshot = WorkspaceSnapshot<WorkspaceRepo>;

export interface RendererDeps {
  readonly view: WorkspaceView<WorkspaceRepo>;
  readonly mapping: () => SeverityMapping;
  /** Unreachable supply-chain findings are information, whatever their severity (a setting). */
  readonly unreachableAsInformation: () => boolean;
  readonly findingUrl: (finding: Finding) => string | undefined;
  /** Where findings are in today's code (drift through commits and edits). */
  readonly places: FindingPlaces;
  readonly log: Logger;
  /** A finding's trace steps as related information, once its story was read (undefined: none known). */
  readonly traceRelated?: (finding: Finding) => readonly vscode.DiagnosticRelatedInformation[] | undefined;
}

/** The settings a drawing is planned and each diagnostic built with, as they are now. */
export function planSettings(deps: RendererDeps): { mapping: SeverityMapping; options: { unreachableLevel?: 'information' } } {
  return { mapping: deps.mapping(), options: { unreachableLevel: deps.unreachableAsInformation() ? 'information' : undefined } };
}
