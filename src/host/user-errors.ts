/**
 * One place that turns any error into what the user sees: a short message and the action that
 * fixes it. Cancellation is silent. Full detail goes to the log, never the token.
 */
import type { CommandId } from '../core/model/command-ids';
import * as vscode from 'vscode';
import { showError, showWarning } from './notify';
import { parseBaseUrl } from '../core/api/baseUrl';
import { errorMessage, isCancelled, PlatformError } from '../core/model/errors';
import { SessionError } from '../core/services/session';
import type { Logger } from './logger';
import { said, t, type Said } from '../core/l10n';

/** Runs one of the extension's own commands, its id checked against the list it registers. */
const runCommand = (id: CommandId): Thenable<unknown> => vscode.commands.executeCommand(id);

export function isCancellation(error: unknown): boolean {
  return isCancelled(error) || error instanceof vscode.CancellationError;
}

export { errorMessage };

/**
 * The error as the user reads it: an error that carries its words in the display language
 * (`text`: a platform error, a refused triage or ticket input) in them, any other as thrown.
 */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? (error as Error & { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : errorMessage(error);
}

type Action = { title: string; run: () => Thenable<unknown> | void };

function actionsFor(error: unknown): Action[] {
  const showLogs: Action = { title: t('Show Logs'), run: () => runCommand('appsecFindings.showLogs') };
  const signIn: Action = { title: t('Sign In'), run: () => runCommand('appsecFindings.signIn') };
  const openSetting = (key: string): Action => ({ title: t('Open Setting'), run: () => vscode.commands.executeCommand('workbench.action.openSettings', key) });
  if (error instanceof SessionError) return error.code === 'invalidToken' ? [signIn] : [openSetting('appsecFindings.deploymentSlug'), showLogs];
  if (!(error instanceof PlatformError)) return [showLogs];
  // A step-by-step check names the failing layer (DNS, proxy, TLS, …) better than one message.
  const checkConnection: Action = { title: t('Check Connection'), run: () => runCommand('appsecFindings.checkConnection') };
  switch (error.reason) {
    case 'unauthorized':
    case 'notFound':
      return [signIn, showLogs];
    case 'certificate':
      return [openSetting(error.setting ?? 'appsecFindings.caBundlePath'), checkConnection];
    case 'network':
    case 'timeout':
      return [...(error.setting ? [openSetting(error.setting)] : []), checkConnection, showLogs];
    case 'insecureUrl':
    case 'invalidUrl':
      return [openSetting(error.setting ?? 'appsecFindings.baseUrl')];
    default:
      return [showLogs];
  }
}

/**
 * Logs `error` and shows it with its actions; resolves when the message is dismissed or acted on.
 * `context`: what failed, said in English to the log and in the display language to the user.
 */
export async function reportError(context: Said, error: unknown, log: Logger): Promise<void> {
  const english = context.english;
  if (isCancellation(error)) {
    log.debug(`${english}: cancelled`);
    return;
  }
  log.error(english, error);
  if (error instanceof PlatformError && error.bodySnippet) log.debug(`${english}: response body: ${error.bodySnippet}`);
  const actions = actionsFor(error);
  const picked = await showError(t('AppSec: {0}. {1}', context.text, errorText(error)), ...actions.map((a) => a.title));
  await actions.find((a) => a.title === picked)?.run();
}

/** Says at once, not at the next request, when the base URL cannot be used (e.g. plain http to another host). */
export function warnIfUnusableBaseUrl(baseUrl: string): void {
  try {
    parseBaseUrl(baseUrl);
  } catch (error) {
    void showWarning(t('AppSec: {0}', errorText(error)), t('Open Setting')).then((picked) =>
      picked ? vscode.commands.executeCommand('workbench.action.openSettings', 'appsecFindings.baseUrl') : undefined,
    );
  }
}

/**
 * The deployment named by changed settings could not be read. A base URL that cannot be used was
 * said already (`warnIfUnusableBaseUrl`); any other cause is shown with its actions.
 */
export function reportDeploymentUnread(baseUrl: string, error: unknown, log: Logger): void {
  const unusable = error instanceof PlatformError && (error.reason === 'insecureUrl' || error.reason === 'invalidUrl');
  if (unusable) log.warn(`The base URL ${baseUrl} cannot be used: ${errorMessage(error)}`);
  else void reportError(said('Reading the deployment at {0} failed; the views still show the previous one', baseUrl), error, log);
}
