/**
 * Registers every command of the typed map through one error wrapper: a failure is logged and
 * shown once with its action; cancellation is silent. Handlers' results are returned to callers
 * (tests and automation use them).
 */
import * as vscode from 'vscode';
import type { App } from '../app';
import { reportError } from '../host/user-errors';
import type { CommandId } from './ids';

/** Registration only needs the log, for the one error wrapper. */
export type RegisterDeps = Pick<App, 'logger'>;

export type CommandHandler = (...args: unknown[]) => unknown;
export type CommandMap = Record<CommandId, CommandHandler>;

const TITLES: Partial<Record<CommandId, string>> = {
  'appsecFindings.signIn': 'Sign-in failed',
  'appsecFindings.refresh': 'Refresh failed',
  'appsecFindings.tagProject': 'Tagging the project failed',
  'appsecFindings.exportSbom': 'The SBOM export failed',
  'appsecFindings.exportSarif': 'The SARIF export failed',
};

export function registerCommands(app: RegisterDeps, commands: CommandMap): vscode.Disposable[] {
  const log = app.logger('Commands');
  return (Object.keys(commands) as CommandId[]).map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await commands[id](...args);
      } catch (error) {
        // Not awaited: the message stays until dismissed, and the command must finish now.
        void reportError(TITLES[id] ?? `${id.replace('appsecFindings.', '')} failed`, error, log);
        return undefined;
      }
    }),
  );
}
