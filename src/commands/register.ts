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

/** Registration only needs the log, for the one error wrapper. */
export type RegisterDeps = Pick<CommandDeps, 'logger'>;

/** Arguments a command refused: nothing was run or sent. */
export class CommandArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CommandArgumentError';
  }
}

const TITLES: Partial<Record<CommandId, string>> = {
  'appsecFindings.signIn': 'Sign-in failed',
  'appsecFindings.refresh': 'Refresh failed',
  'appsecFindings.tagProject': 'Tagging the project failed',
  'appsecFindings.exportSbom': 'The SBOM export failed',
  'appsecFindings.exportSarif': 'The SARIF export failed',
  'appsecFindings.setRuleMode': 'Changing the rule\'s mode failed',
  'appsecFindings.setRuleModeMonitor': 'Changing the rule\'s mode failed',
  'appsecFindings.setRuleModeComment': 'Changing the rule\'s mode failed',
  'appsecFindings.setRuleModeBlock': 'Changing the rule\'s mode failed',
  'appsecFindings.setRuleModeDisabled': 'Changing the rule\'s mode failed',
  'appsecFindings.editTags': 'Editing the tags failed',
  'appsecFindings.setPrimaryBranch': 'Setting the primary branch failed',
  'appsecFindings.setManagedScans': 'Changing the managed scans failed',
  'appsecFindings.unlinkTicketEverywhere': 'Unlinking the ticket failed',
};

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
        void reportError(TITLES[id] ?? `${id.replace('appsecFindings.', '')} failed`, error, log);
        return undefined;
      }
    }),
  );
}
