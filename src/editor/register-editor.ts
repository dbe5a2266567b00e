/**
 * The editor registration: the hover and the quick fixes on our diagnostics, reading the same
 * findings, details and stories as Problems.
 */
import type * as vscode from 'vscode';
import type { FindingPlaces } from '../code-places/finding-places';
import type { BranchNovelty } from '../core/services/branch-baselines';
import type { FindingDetails } from '../core/services/finding-details';
import type { FindingStories } from '../core/services/finding-stories';
import type { DriftTracker } from '../host/drift-tracker';
import type { WorkspaceRepos } from '../host/workspace-repos';
import { registerFindingActions } from './finding-actions';
import { registerFindingHover } from './finding-hover';

export interface EditorDeps {
  /** Problems: the diagnostics the hover and the quick fixes are on. */
  readonly diagnostics: { readonly collection: vscode.DiagnosticCollection };
  readonly repos: WorkspaceRepos;
  readonly drift: DriftTracker;
  readonly places: Pick<FindingPlaces, 'commitOf'>;
  /** Which findings are new on their branch. */
  readonly baselines: BranchNovelty;
  readonly details: FindingDetails;
  readonly stories: FindingStories;
  readonly signedIn: () => boolean;
}

export function registerEditor(context: vscode.ExtensionContext, deps: EditorDeps): object {
  const {
    diagnostics: { collection },
    repos,
    details,
    stories,
    signedIn,
  } = deps;
  context.subscriptions.push(
    registerFindingHover({
      collection,
      repos,
      drift: deps.drift,
      commitOf: (f, repo) => deps.places.commitOf(f, repo),
      novelty: deps.baselines,
      details,
      stories,
      signedIn,
    }),
    registerFindingActions({ collection, details, stories, repos, signedIn }),
  );
  return {};
}
