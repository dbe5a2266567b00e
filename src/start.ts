/**
 * The last registration: what the next start will know is kept as the session, the project list
 * and Problems change (`host/start-memory.ts`), and the start itself runs once activation has
 * returned: the session restored without network (the remembered deployment), git connected,
 * what the disk cache keeps drawn, SBOM jobs still running followed again, then a refresh.
 */
import * as vscode from 'vscode';
import type { CommandDeps } from './commands/command-deps';
import { resumeSbomExports } from './commands/sbom-commands';
import type { ShownCause } from './core/services/workspace-view';
import { adoptDemoToken } from './host/demo-token';
import type { GitWorkspaceRepos } from './host/git-workspace-repos';
import { warnOnceIfNoKeyring, type SecretTokenStore } from './host/secrets';
import { settings } from './host/settings';
import type { StartMemory } from './host/start-memory';
import { errorMessage, reportError } from './host/user-errors';
import { said } from './core/l10n';
import type { Logger } from './host/logger';

export interface StartDeps extends CommandDeps {
  readonly tokens: SecretTokenStore;
  readonly repos: GitWorkspaceRepos;
  readonly startMemory: StartMemory;
  rememberToken(): Promise<void>;
  readonly diagnostics: { readonly onDidChange: vscode.Event<{ readonly cause: ShownCause }> };
  readonly walkthrough: { signedIn(yes: boolean): void };
  startFromCache(): Promise<boolean>;
}

export function registerStart(context: vscode.ExtensionContext, deps: StartDeps): object {
  const { session, tokens, repos, walkthrough } = deps;
  const storeLog = deps.logger('Findings');
  const sessionLog = deps.logger('Session');
  context.subscriptions.push(...deps.startMemory.follow({ session, projects: deps.projects, repos, drawn: deps.diagnostics.onDidChange, log: storeLog }));
  void (async () => {
    await adoptLegacyToken(tokens, session.tokenOrigin, sessionLog);
    await adoptDemoToken(tokens, settings.baseUrl(), process.env, sessionLog);
    await deps.rememberToken();
    const state = await session.restore();
    await vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
    walkthrough.signedIn(state.kind === 'signedIn');
    if (state.kind === 'signedIn') await warnOnceIfNoKeyring(context.globalState);
    await repos.connectGit();
    if (state.kind === 'signedIn') {
      await deps.startFromCache().catch((e: unknown) => storeLog.warn(`The findings cache could not be read: ${errorMessage(e)}`));
      // SBOM jobs that were running when the window closed are followed again.
      resumeSbomExports(deps);
      await deps.refreshAll(false);
    }
  })().catch((e: unknown) => reportError(said('Starting failed'), e, sessionLog));
  return {};
}

/** The one token of an earlier release goes to the session's origin (kept for later when the base URL is unusable now). */
async function adoptLegacyToken(tokens: SecretTokenStore, origin: string | undefined, log: Logger): Promise<void> {
  if (origin !== undefined && (await tokens.adoptLegacyToken(origin)))
    log.info(`The stored token is now kept for ${origin}, the origin of appsecFindings.baseUrl.`);
}
