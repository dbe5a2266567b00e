/**
 * The Finding Details registration: the one panel (reused), following the store and each story
 * read; `showDetails` opens it for a finding.
 */
import type * as vscode from 'vscode';
import type { Finding } from '../core/model/types';
import { errorText } from '../host/user-errors';
import { FindingDetailsPanel, type DetailsPanelDeps } from './finding-details-panel';

export type DetailsPanelRegistrationDeps = Omit<DetailsPanelDeps, 'extensionUri' | 'store' | 'errorMessage' | 'novelty'> & {
  readonly findings: DetailsPanelDeps['store'];
  /** Which findings are new on their branch. */
  readonly baselines: DetailsPanelDeps['novelty'];
};

export interface DetailsPanelRegistration {
  readonly detailsPanel: FindingDetailsPanel;
  /** Opens (or reuses) the Finding Details panel; resolves when the platform's detail is shown. */
  showDetails(finding: Finding): Promise<void>;
}

export function registerDetailsPanel(context: vscode.ExtensionContext, deps: DetailsPanelRegistrationDeps): DetailsPanelRegistration {
  const { findings, details, stories, places, deploymentSlug, findingUrl } = deps;
  const detailsPanel = new FindingDetailsPanel({
    extensionUri: context.extensionUri,
    store: findings,
    details,
    stories,
    places,
    novelty: deps.baselines,
    deploymentSlug,
    findingUrl,
    errorMessage: errorText,
  });
  context.subscriptions.push(detailsPanel);
  return { detailsPanel, showDetails: (finding) => detailsPanel.show(finding) };
}
