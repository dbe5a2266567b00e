/**
 * The refresh's registration: what each cause of a refresh does (`refresh-all.ts`), wired to its
 * causes: another window signing in or out, the workspace's repositories changing, the deployment
 * settings changing, and the auto-refresh timer. A start and the Refresh command call it too.
 */
import * as vscode from 'vscode';
import { showInformation } from './notify';
import type { FindingsStore } from '../core/services/findings-store';
import type { PoliciesService } from '../core/services/policies-service';
import type { ProjectsService } from '../core/services/projects-service';
import type { Session } from '../core/services/session';
import { startAutoRefresh } from './auto-refresh';
import type { GitWorkspaceRepos } from './git-workspace-repos';
import { announceKindsFailed } from './kind-notices';
import type { Logger } from './logger';
import { refreshAllActions, type RefreshAll, type RefreshAllDeps } from './refresh-all';
import type { SecretTokenStore } from './secrets';
import { affectsDeployment, settings } from './settings';
import { reportDeploymentUnread, reportError } from './user-errors';
import { said, t } from '../core/l10n';

export interface RefreshDeps {
  readonly session: Session;
  readonly tokens: Pick<SecretTokenStore, 'onDidChange'>;
  readonly findings: FindingsStore;
  readonly projects: ProjectsService;
  readonly policies: PoliciesService;
  /** The supply-chain inventory: read again after a forced refresh, forgotten on sign-out. */
  readonly dependencies: { expire(): void };
  readonly repos: GitWorkspaceRepos;
  readonly view: RefreshAllDeps['view'];
  readonly trees: { readonly projects: { readonly model: { refresh(): void } }; readonly policies: { refresh(): void } };
  readonly places: RefreshAllDeps['places'];
  readonly cache: { clear(): Promise<void> };
  logger(component: string): Logger;
}

export function registerRefresh(context: vscode.ExtensionContext, deps: RefreshDeps): RefreshAll {
  const { session, repos } = deps;
  const refresh = refreshAllActions({
    session,
    findings: deps.findings,
    projects: deps.projects,
    policies: deps.policies,
    inventory: deps.dependencies,
    repos,
    view: deps.view,
    trees: { projects: deps.trees.projects.model, policies: deps.trees.policies },
    places: deps.places,
    cache: deps.cache,
    baseUrl: () => settings.baseUrl(),
    onKindsFailed: (gaps) => void announceKindsFailed(gaps),
    onDeploymentUnread: (e) => reportDeploymentUnread(settings.baseUrl(), e, deps.logger('Session')),
  });
  // The origin the session was last signed in at: a base URL moved to another origin finds no token there.
  let signedInAt = session.state.kind === 'signedIn' ? session.tokenOrigin : undefined;
  context.subscriptions.push(
    // Another window signed in or out: follow it.
    deps.tokens.onDidChange(() => {
      void session
        .restore()
        .then((state) => (state.kind === 'signedIn' ? refresh.refreshAll(false) : refresh.clearAll()))
        .catch((e: unknown) => deps.logger('Session').error('Could not follow a token change', e));
    }),
    repos.onDidChange(() => {
      void refresh.reposChanged().catch((e: unknown) => reportError(said('Updating diagnostics failed'), e, deps.logger('Diagnostics')));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsDeployment(e)) return;
      const before = session.state.kind === 'signedIn' ? signedInAt : undefined;
      void refresh.deploymentSettingsChanged().then(() => {
        const now = session.tokenOrigin;
        if (before && now && now !== before && session.state.kind === 'signedOut') void tellSignedOutAt(now, before);
      });
    }),
    session.onDidChange((state) => {
      if (state.kind === 'signedIn') signedInAt = session.tokenOrigin;
    }),
    startAutoRefresh(
      () => settings.autoRefreshMinutes(),
      () => refresh.refreshAll(true),
      deps.logger('AutoRefresh'),
    ),
  );
  return refresh;
}

/** Says why the views emptied when the base URL moved to an origin without a token of its own. */
async function tellSignedOutAt(origin: string, previous: string): Promise<void> {
  const signIn = t('Sign In');
  const picked = await showInformation(
    t('AppSec: signed out: sign in to {0}. The token of {1} is kept for when the base URL points there again.', origin, previous),
    signIn,
  );
  if (picked === signIn) await vscode.commands.executeCommand('appsecFindings.signIn');
}
