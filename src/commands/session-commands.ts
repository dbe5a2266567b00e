/** Sign in, sign out, refresh and logs. */
import * as vscode from 'vscode';
import { showInformation, showInput, withProgress } from '../host/notify';
import { t } from '../core/l10n';
import { withAbortSignal } from '../host/cancellation';
import { demoTokenFor } from '../host/demo-token';
import { settings } from '../host/settings';
import type { CommandDeps } from './command-deps';
import { normaliseToken, SessionError } from '../core/services/session';
import type { Deployment } from '../core/model/types';

/** Signing in and out, and refreshing everything. */
export type SessionCommandsDeps = Pick<CommandDeps, 'session' | 'logger' | 'refreshAll' | 'clearAll'>;

function validateToken(value: string): string | undefined {
  if (!value) return undefined;
  try {
    normaliseToken(value);
    return undefined;
  } catch (error) {
    return error instanceof SessionError ? error.message : String(error);
  }
}

/**
 * Asks for the token in a password box (or takes it as the first argument, for automation),
 * checks it against the platform, and only then stores it.
 */
export async function signIn(app: SessionCommandsDeps, given?: string): Promise<Deployment | undefined> {
  const demo = demoTokenFor(settings.baseUrl(), process.env);
  // Undefined when the base URL is unusable: the sign-in then says why.
  const origin = app.session.tokenOrigin;
  const token =
    given ??
    (await showInput({
      title: t('AppSec: Sign In'),
      prompt: demo
        ? t("The demo platform's token is filled in: press Enter to sign in to the demo again.")
        : origin
          ? t(
              "API token of the Semgrep AppSec Platform at {0} (Settings → Tokens, with Web API access). It is kept in VS Code's secret storage, for {0} only.",
              origin,
            )
          : t("API token of the Semgrep AppSec Platform (Settings → Tokens, with Web API access). It is kept in VS Code's secret storage only."),
      ...(demo ? { value: demo } : {}),
      password: true,
      ignoreFocusOut: true,
      placeHolder: t('Paste the API token'),
      validateInput: validateToken,
    }));
  if (!token) return undefined;
  const deployment = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: checking the token…'), cancellable: true },
    (_progress, cancel) => withAbortSignal(cancel, (signal) => app.session.signIn(token, signal)),
  );
  app.logger('Session').info(`Signed in to deployment ${deployment.slug} (${deployment.id})`);
  await app.refreshAll(true);
  void showInformation(t('AppSec: signed in to {0}.', deployment.name));
  return deployment;
}

export async function signOut(app: SessionCommandsDeps): Promise<void> {
  await app.session.signOut();
  app.clearAll();
  app.logger('Session').info('Signed out');
}

export async function refresh(app: SessionCommandsDeps): Promise<void> {
  if (app.session.state.kind !== 'signedIn') {
    const picked = await showInformation(t('AppSec: sign in to load findings.'), t('Sign In'));
    if (picked) await vscode.commands.executeCommand('appsecFindings.signIn');
    return;
  }
  await withProgress({ location: { viewId: 'appsecFindings.projects' } }, () => app.refreshAll(true));
}
