/**
 * Registers every command of the typed map through one wrapper: the arguments are checked
 * against the command's schema first (a wrong one is said, naming the field, and nothing runs);
 * a failure is logged and shown once with its action; cancellation is silent. Handlers' results
 * are returned to callers (tests and automation use them).
 */
import * as vscode from 'vscode';
import { reportError } from '../host/user-errors';
import { parse } from '../host/schema';
import { COMMAND_ARGUMENTS, type CommandMap, type CommandSignatures } from './command-arguments';
import type { CommandDeps } from './command-deps';
import { COMMAND_IDS, type CommandId } from '../core/model/command-ids';
import { said, type Said } from '../core/l10n';

/** Registration only needs the log, for the one error wrapper. */
export type RegisterDeps = Pick<CommandDeps, 'logger'>;

/** Arguments a command refused: nothing was run or sent. */
export class CommandArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandArgumentError';
  }
}

/** What failed, in English for the log and in the display language for the user. */
function failedTitle(id: CommandId): Said {
  switch (id) {
    case 'appsecFindings.signIn':
      return said('Sign-in failed');
    case 'appsecFindings.refresh':
      return said('Refresh failed');
    case 'appsecFindings.tagProject':
      return said('Tagging the project failed');
    case 'appsecFindings.exportSbom':
      return said('The SBOM export failed');
    case 'appsecFindings.exportSarif':
      return said('The SARIF export failed');
    case 'appsecFindings.setRuleMode':
    case 'appsecFindings.setRuleModeMonitor':
    case 'appsecFindings.setRuleModeComment':
    case 'appsecFindings.setRuleModeBlock':
    case 'appsecFindings.setRuleModeDisabled':
      return said("Changing the rule's mode failed");
    case 'appsecFindings.editTags':
      return said('Editing the tags failed');
    case 'appsecFindings.setPrimaryBranch':
      return said('Setting the primary branch failed');
    case 'appsecFindings.setManagedScans':
      return said('Changing the managed scans failed');
    case 'appsecFindings.unlinkTicketEverywhere':
      return said('Unlinking the ticket failed');
    // The command's id names it (a contract word, the same in every language).
    default:
      return said('{0} failed', id.replace('appsecFindings.', ''));
  }
}

/** Checks the arguments, then runs the handler with them as it types them. */
function run<K extends CommandId>(commands: CommandMap, id: K, args: readonly unknown[]): unknown {
  const checked = parse(COMMAND_ARGUMENTS[id], args, (problem) => new CommandArgumentError(problem));
  const handler = commands[id] as (...typed: Parameters<CommandSignatures[K]>) => unknown;
  return handler(...checked);
}

/** `onRan`: told of each command that finished without failing, with its result (the walkthrough's ticks). */
export function registerCommands(app: RegisterDeps, commands: CommandMap, onRan?: (id: CommandId, result: unknown) => void): vscode.Disposable[] {
  const log = app.logger('Commands');
  return COMMAND_IDS.map((id) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        const result = await run(commands, id, args);
        onRan?.(id, result);
        return result;
      } catch (error) {
        // Not awaited: the message stays until dismissed, and the command must finish now.
        void reportError(failedTitle(id), error, log);
        return undefined;
      }
    }),
  );
}
