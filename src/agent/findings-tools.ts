/**
 * The language-model tools for the editor's AI agent: thin adapters over the vscode-free
 * handlers (`core/agent/`), which the MCP server's window channel calls too. Each adapter turns
 * the chat's cancellation into a signal and the answer into text; triage first asks the user to
 * confirm exactly what will change. Also how the handlers see the workspace: its folders, and
 * where a finding and its trace are in today's code.
 */
import * as vscode from 'vscode';
import { branchName } from '../core/model/refs';
import type { Finding } from '../core/model/types';
import { triageConfirmation } from '../core/agent/agent-text';
import { findingHandler, triageHandler } from '../core/agent/finding-handlers';
import { findingsHandler, type AgentHandlerDeps } from '../core/agent/findings-handler';
import { triageInputOf } from '../core/agent/tool-inputs';
import { TOOL_NAMES, type ToolName } from '../core/agent/tool-names';
import type { TodayPlace, ToolAnswer } from '../core/agent/tool-answer';
import type { FindingPlaces } from '../code-places/finding-places';
import { traceToday } from '../code-places/trace-places';
import { withAbortSignal } from '../host/cancellation';
import type { WorkspaceRepos } from '../host/workspace-repos';

/** A tool's handler: checked input in, an answer out, never a throw. */
export type ToolHandler = (input: unknown, signal: AbortSignal) => Promise<ToolAnswer>;

/** Where the finding is in today's code, as the handlers take it. */
export function todayPlace(places: FindingPlaces, finding: Finding): TodayPlace | undefined {
  const place = places.place(finding);
  if (place?.kind === 'deleted') return { kind: 'gone', notYet: place.onlyAt !== undefined, ...(finding.ref ? { onBranch: branchName(finding.ref) } : {}) };
  if (!place) return undefined;
  return { kind: 'here', path: place.relativePath, line: place.range.startLine + 1, changed: place.kind === 'changed' };
}

/** How the handlers see this window: its folders and today's code. */
export function workspaceSight(repos: WorkspaceRepos, places: FindingPlaces): Pick<AgentHandlerDeps, 'folders' | 'place' | 'trace'> {
  return {
    folders: () =>
      repos.repos().map((repo) => ({ root: repo.folder.uri.fsPath, projectName: repo.projectName, ...(repo.branch ? { branch: repo.branch } : {}) })),
    place: (finding) => todayPlace(places, finding),
    trace: (finding, steps) => traceToday(places, finding, steps),
  };
}

/** The handlers of the findings tools, by tool name (the dependencies tool is the inventory's). */
export function findingsToolHandlers(deps: AgentHandlerDeps): Partial<Record<ToolName, ToolHandler>> {
  return { findings: findingsHandler(deps), finding: findingHandler(deps), triage: triageHandler(deps) };
}

class HandlerTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly handler: ToolHandler) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const answer = await withAbortSignal(token, (signal) => this.handler(options.input, signal));
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(token.isCancellationRequested ? 'Cancelled.' : answer.text)]);
  }
}

/** The triage tool: the user confirms what will change before the handler runs. */
class TriageTool extends HandlerTool {
  constructor(
    handler: ToolHandler,
    private readonly deps: Pick<AgentHandlerDeps, 'deploymentSlug' | 'store'>,
  ) {
    super(handler);
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const request = triageInputOf(options.input);
    const slug = this.deps.deploymentSlug();
    if (typeof request === 'string' || !slug) return { invocationMessage: 'Checking the triage request' };
    const known = request.ids.map((id) => this.deps.store.finding(slug, request.issueType, id));
    const findings = known
      .filter((f): f is Finding => f !== undefined)
      .map((f) => ({ id: f.id, name: f.sca?.advisory ? `${f.sca.advisory} in ${f.sca.package ?? '?'}` : f.ruleName }));
    const unknownIds = request.ids.filter((_id, i) => known[i] === undefined);
    const message = new vscode.MarkdownString(triageConfirmation(findings, unknownIds, request));
    message.isTrusted = false;
    return {
      invocationMessage: `Triaging ${request.ids.length} finding${request.ids.length === 1 ? '' : 's'}`,
      confirmationMessages: { title: 'AppSec: triage findings on the platform?', message },
    };
  }
}

/** Registers a language-model tool per handler; their names are a contract (docs: automation). */
export function registerAgentTools(
  handlers: Partial<Record<ToolName, ToolHandler>>,
  deps: Pick<AgentHandlerDeps, 'deploymentSlug' | 'store'>,
): vscode.Disposable[] {
  // Hosts without the language model API (older than the supported range) simply get no tools.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return (Object.entries(handlers) as [ToolName, ToolHandler][]).map(([name, handler]) =>
    vscode.lm.registerTool(TOOL_NAMES[name].lm, name === 'triage' ? new TriageTool(handler, deps) : new HandlerTool(handler)),
  );
}
