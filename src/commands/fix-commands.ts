/**
 * Two ways to fix a finding beyond the suggested fix:
 * - Open a Fix Pull Request: after a confirmation (none when automation names the finding), the
 *   platform is asked to write the fix and open a pull request in the organization's repository.
 *   Its "accepted" is not "opened": the request resolves with the platform's answer, and the
 *   pull request is followed (with progress) until the finding's story names it, then offered.
 *   A refusal is shown in its plain sentence, and nothing changes.
 * - Fix with Agent: the editor's chat, in agent mode, with one prompt (`agent/fix-prompt.ts`)
 *   about the finding as it is in today's code; where the editor has no chat (or no language
 *   model behind it), that is said, with Copy Prompt.
 */
import * as vscode from 'vscode';
import { showInformation, showWarning, withProgress } from '../host/notify';
import { t } from '../core/l10n';
import { AUTOFIX_SENTENCES } from '../core/model/autofix-outcome';
import { isCancelled } from '../core/model/errors';
import { distinctName } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import { requestFixPullRequest, type FixFollowResult } from '../core/services/fix-pull-requests';
import { fixWithAgentPrompt } from '../agent/fix-prompt';
import { todayPlace } from '../agent/findings-tools';
import { whereText } from '../core/agent/tool-answer';
import { safeLink } from '../diagnostics/finding-diagnostic';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { isFindingTarget, targetFinding, type FindingTarget } from './finding-target';
import { readTrace } from './trace-commands';
import { kindOf } from '../core/model/finding-kinds';

export type FixCommandsDeps = Pick<CommandDeps, 'session' | 'findings' | 'selectedItem' | 'places' | 'stories' | 'details' | 'clipboard' | 'logger'>;

/** What `requestAutofix` resolves with once the platform answered the request (docs: automation). */
export interface AutofixRequestResult {
  readonly accepted: boolean;
  /** The plain sentence shown for a refusal. */
  readonly reason?: string;
}

/** What `fixWithAgent` resolves with: the prompt, and whether a chat was there to take it. */
export interface AgentHandOff {
  readonly prompt: string;
  readonly opened: boolean;
}

function nothingChosen(prompt: string): undefined {
  void showInformation(prompt);
  return undefined;
}

export async function requestAutofix(app: FixCommandsDeps, target: CommandItem | FindingTarget | undefined): Promise<AutofixRequestResult | undefined> {
  const finding = targetFinding(app, target);
  if (!finding) return nothingChosen(t('AppSec: select a code or supply-chain finding in the tree, or put the cursor on one in the editor.'));
  const name = distinctName(finding);
  if (!kindOf(finding).fixPullRequests) {
    void showWarning(t('AppSec: {0}', AUTOFIX_SENTENCES.unsupportedIssueType));
    return { accepted: false, reason: AUTOFIX_SENTENCES.unsupportedIssueType };
  }
  if (!isFindingTarget(target)) {
    const openPullRequest = t('Open Pull Request');
    const answer = await showWarning(
      t('Open a fix pull request for {0}?', name),
      {
        modal: true,
        detail: finding.repositoryName
          ? t(
              "The platform writes a fix and opens a pull request in the organization's repository {0}, where its reviewers see it. Nothing changes in this copy until you merge it and pull.",
              finding.repositoryName,
            )
          : t(
              "The platform writes a fix and opens a pull request in the organization's repository, where its reviewers see it. Nothing changes in this copy until you merge it and pull.",
            ),
      },
      openPullRequest,
    );
    if (answer !== openPullRequest) return undefined;
  }
  const following = new AbortController();
  const { outcome, follow } = await requestFixPullRequest(
    { api: () => app.session.api, deploymentId: () => app.session.deployment?.id, stories: app.stories },
    finding,
    following.signal,
  );
  if (outcome.kind === 'refused') {
    void showWarning(t('AppSec: {0}', outcome.sentence));
    return { accepted: false, reason: outcome.sentence };
  }
  if (follow) void followWithProgress(app, finding, follow, following);
  return { accepted: true };
}

/** Shows the follow as a progress the user may dismiss, then what became of the pull request. */
async function followWithProgress(app: FixCommandsDeps, finding: Finding, follow: Promise<FixFollowResult>, following: AbortController): Promise<void> {
  const name = distinctName(finding);
  let result: FixFollowResult;
  try {
    result = await withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('AppSec: the platform is writing a fix for {0}; the pull request follows…', name),
        cancellable: true,
      },
      (_progress, token) => {
        token.onCancellationRequested(() => following.abort());
        return follow;
      },
    );
  } catch (error) {
    if (!isCancelled(error))
      app.logger('Commands').warn(`Following the fix pull request of ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  // The detail's list of fix pull requests is read again when next shown.
  app.details.forget(finding);
  if (result.kind === 'opened' || result.kind === 'merged') {
    const openPullRequest = t('Open Pull Request');
    const sentence =
      result.kind === 'merged' ? t('AppSec: the fix pull request for {0} is merged.', name) : t('AppSec: the fix pull request for {0} is open.', name);
    const picked = await showInformation(sentence, openPullRequest);
    const link = safeLink(result.url);
    if (picked === openPullRequest && link) await vscode.env.openExternal(link);
  } else if (result.kind === 'failed') {
    void showWarning(
      result.reason
        ? t('AppSec: the platform could not make the fix pull request for {0}: {1}', name, result.reason)
        : t('AppSec: the platform could not make the fix pull request for {0}.', name),
    );
  } else {
    void showInformation(
      result.kind === 'notAvailable'
        ? t(
            'AppSec: the platform took the request for a fix pull request for {0}. This deployment cannot say when it opens: it shows on the finding (Refresh) once the platform opens it.',
            name,
          )
        : t(
            'AppSec: the platform took the request for a fix pull request for {0}. It was not open after 10 minutes: it shows on the finding (Refresh) once the platform opens it.',
            name,
          ),
    );
  }
}

const CHAT_OPEN = 'workbench.action.chat.open';

/**
 * Whether the editor has a chat that can take the prompt: its command, and a language model
 * behind it. The command is there in every recent host, but without an assistant signed in (or
 * installed) it opens nothing an agent could answer from.
 */
async function chatAvailable(): Promise<boolean> {
  if (!(await vscode.commands.getCommands(true)).includes(CHAT_OPEN)) return false;
  if (typeof vscode.lm?.selectChatModels !== 'function') return false;
  const models = await Promise.resolve(vscode.lm.selectChatModels()).catch(() => []);
  return models.length > 0;
}

export async function fixWithAgent(app: FixCommandsDeps, target: CommandItem | FindingTarget | undefined): Promise<AgentHandOff | undefined> {
  const finding = targetFinding(app, target);
  if (!finding) return nothingChosen(t('AppSec: select a finding in the tree, or put the cursor on one in the editor.'));
  const [detail, trace] = await withProgress({ location: vscode.ProgressLocation.Window, title: t('AppSec: gathering the finding for the agent…') }, () =>
    Promise.all([app.details.within(finding, 3_000), readTrace(app, finding).catch(() => undefined)]),
  );
  const prompt = fixWithAgentPrompt({
    finding,
    detail,
    where: whereText(finding, todayPlace(app.places, finding)),
    trace: trace && 'steps' in trace ? trace.steps : undefined,
  });
  if (await chatAvailable()) {
    try {
      await vscode.commands.executeCommand(CHAT_OPEN, { query: prompt, mode: 'agent' });
      return { prompt, opened: true };
    } catch (error) {
      app.logger('Commands').warn(`The editor's chat did not take the prompt: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const copyPrompt = t('Copy Prompt');
  void showInformation(
    t('AppSec: this editor has no chat to hand {0} to an agent. Copy the prompt to give it to the assistant you use.', distinctName(finding)),
    copyPrompt,
  ).then(async (picked) => {
    if (picked !== copyPrompt) return;
    await app.clipboard.writeText(prompt);
    void showInformation(t('AppSec: the prompt for {0} is on the clipboard: paste it into your assistant.', distinctName(finding)));
  });
  return { prompt, opened: false };
}
