/**
 * Language model tools for the editor's AI agent, over the signed-in session: the findings of
 * the workspace's project and branch (where each is in today's code), one finding by id or link,
 * and triage (which asks the user to confirm exactly what will change). Thin adapters: they read
 * the one findings store (an answer already shown costs no request) and use the triage service
 * the commands use. Input is checked here and a problem is answered as one sentence, never thrown.
 */
import * as vscode from 'vscode';
import type { RefScans } from '../core/services/ref-scans';
import { askedPlace, fallbackPlace, placeOf, type AskingPlaceDeps, type Place, type PlaceAt } from '../core/services/place';
import { branchName } from '../core/model/refs';
import { ISSUE_TYPES, type Finding, type IssueType } from '../core/model/types';
import { raceAbort } from '../core/services/abort';
import type { BranchNovelty } from '../core/services/branch-baselines';
import { EMPTY_SELECTION, type FilterSelection } from '../core/services/filters';
import type { FindingDetails } from '../core/services/finding-details';
import type { FindingStories } from '../core/services/finding-stories';
import { traceToday } from '../code-places/trace-places';
import type { FindingsStore } from '../core/services/findings-store';
import { loadEachKind } from '../core/services/each-kind';
import { KIND_PRODUCTS, unavailableText } from '../core/services/kind-availability';
import type { KindGap } from '../core/services/kind-gaps';
import type { TriageService } from '../core/services/triage-service';
import type { FindingPlaces } from '../code-places/finding-places';
import { withAbortSignal } from '../host/cancellation';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';
import { findingsListText, findingText, quote, quotedError, sortForAgent, triageConfirmation, type AgentStory, type ListedFinding } from './agent-text';
import { oneOffSlot } from '../core/services/slot-ids';
import {
  FINDINGS_INPUT, findingRefOf, triageInputOf, type FindingInput, type FindingsInput, type TriageToolInput,
} from './tool-inputs';

export const TOOL_NAMES = { findings: 'appsecFindings_findings', finding: 'appsecFindings_finding', triage: 'appsecFindings_triage' } as const;

export interface AgentToolsDeps {
  readonly deploymentSlug: () => string | undefined;
  readonly project: (name: string) => { readonly primaryBranch?: string; readonly defaultBranch?: string } | undefined;
  readonly store: FindingsStore;
  /** Whether a ref was scanned: the rule Problems follows, so both say the same. */
  readonly scans: Pick<RefScans, 'now' | 'known' | 'ask'>;
  readonly repos: WorkspaceRepos;
  readonly places: FindingPlaces;
  readonly novelty: BranchNovelty;
  readonly details: FindingDetails;
  /** The finding's story (trace, elsewhere, owners), read when the agent asks about one finding. */
  readonly stories: FindingStories;
  readonly triage: TriageService;
  readonly findingUrl: (finding: Finding) => string | undefined;
  readonly errorMessage: (error: unknown) => string;
}

export const SIGNED_OUT = 'Not signed in to the AppSec platform: ask the user to run "AppSec: Sign In" (their token stays in VS Code\'s secret storage), then try again.';

/** `file:line` where the finding is in today's code, said plainly when changed or gone. */
export function whereToday(places: FindingPlaces, finding: Finding): string | undefined {
  const place = places.place(finding);
  if (place?.kind === 'deleted') {
    const onBranch = finding.ref ? ` (not in this copy yet: it is on the branch ${quote(branchName(finding.ref))})` : ' (not in this copy yet)';
    return `${finding.location?.filePath ?? '?'}${place.onlyAt === undefined ? ' (no longer in this copy)' : onBranch}`;
  }
  if (!place) return undefined;
  return `${place.relativePath}:${place.range.startLine + 1}${place.kind === 'changed' ? ' (code changed since the scan)' : ''}`;
}

/** What the list leaves out and why: kinds the deployment does not have, kinds that failed. */
function gapsNote(gaps: readonly KindGap[], errorMessage: (error: unknown) => string): string {
  const lines = gaps.map((gap) => 'unavailable' in gap
    ? `${KIND_PRODUCTS[gap.kind]} findings: ${unavailableText(gap.unavailable)}.`
    : `${KIND_PRODUCTS[gap.kind]} findings could not be loaded (the error, as data: ${quotedError(errorMessage(gap.failedBecause))})${gap.since ? '; those listed are from an earlier load' : ''}.`);
  return lines.length > 0 ? `\n(${[...new Set(lines)].join(' ')})` : '';
}

export const text = (value: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

class FindingsTool implements vscode.LanguageModelTool<FindingsInput> {
  constructor(private readonly deps: AgentToolsDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<FindingsInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const checked = FINDINGS_INPUT.check(options.input);
    if (!checked.ok) return text(checked.problem);
    const slug = this.deps.deploymentSlug();
    if (!slug) return text(SIGNED_OUT);
    try {
      return text(await withAbortSignal(token, (signal) => this.list(slug, checked.value, signal)));
    } catch (error) {
      if (token.isCancellationRequested) return text('Cancelled.');
      return text(`The findings could not be loaded; the error, as data: ${quotedError(this.deps.errorMessage(error))}`);
    }
  }

  /** The answer to a checked input: the list, or why there is none. */
  private async list(slug: string, input: FindingsInput, signal: AbortSignal): Promise<string> {
    const { repo, path } = this.scope(input.path);
    const projectName = input.project ?? repo?.projectName;
    if (!projectName) return 'No project of the platform matches this workspace: name one with the project field (the AppSec Projects view lists them).';
    const project = this.deps.project(projectName);
    if (!project) return `The platform has no project named ${quote(projectName)} in this deployment.`;
    const status = input.status ?? 'open';
    // The agent's filters in place of the user's; the place decides the ref, the queries and
    // whether a branch was scanned, as it does for Problems and the tree.
    const selection: FilterSelection = {
      ...EMPTY_SELECTION, ...(status !== 'all' ? { status } : {}), ...(input.severities ? { severities: [...input.severities] } : {}), ...(path ? { paths: [path] } : {}),
    };
    const deps: AskingPlaceDeps = { deploymentSlug: slug, selection: () => selection, scans: this.deps.scans };
    const at: PlaceAt = { project: { ...project, name: projectName }, chosen: input.ref, checkedOut: repo?.projectName === projectName ? repo.branch : undefined };
    // By default, only the kinds the deployment has: one it lacks is not offered.
    // The AI findings come with the code findings: asked for apart only when Code is missing.
    const offered = this.deps.store.availability.offered();
    const wanted = input.issueTypes ?? (offered.includes('sast') ? offered.filter((k) => k !== 'ai') : offered.map((k) => (k === 'ai' ? 'ai_sast' : k)));
    // AI code findings come with the code findings; asked for alone, only they are kept.
    const onlyAi = wanted.includes('ai_sast') && !wanted.includes('sast');
    const types = [...new Set(wanted.map((t) => (t === 'ai_sast' ? 'sast' : t)))].filter((t): t is IssueType => t === 'sast' || t === 'sca' || t === 'secrets');
    const first = placeOf(deps, at, { seen: 0 });
    const own = await this.load(first, types, signal);
    // A branch never scanned shows the primary branch's findings, as Problems does; a scanned
    // branch whose findings the filters leave out shows none. A ref the agent names is that ref's.
    const asked = await askedPlace(deps, at, first, { seen: own.findings.length, signal });
    const instead = input.ref === undefined ? fallbackPlace(deps, at, asked) : undefined;
    const shown = instead ?? asked;
    const loaded = instead ? await this.load(instead, types, signal) : own;
    const keep = shown.keep?.keep;
    const kept = loaded.findings.filter((f) => (!keep || keep(f)) && (!onlyAi || f.issueType !== 'sast' || f.ai !== undefined));
    const items: ListedFinding[] = sortForAgent(kept).slice(0, input.limit ?? 50).map((finding) => ({ finding, where: this.whereToday(finding), isNew: this.deps.novelty.isNew(finding) }));
    const filters = [`status ${status}`, input.severities ? `severity ${input.severities.join(', ')}` : '', path ? `under ${path}` : '', `types ${types.join(', ') || 'none'}`].filter(Boolean).join('; ');
    return findingsListText(items, kept.length, { project: projectName, ref: shown.ref, fallbackFrom: instead ? asked.ref : undefined, filters }) + gapsNote(loaded.gaps, this.deps.errorMessage);
  }

  /** One load per issue type of the place's queries through the store (a query Problems or the tree already shows costs nothing), each on its own. */
  private async load(place: Place, types: readonly IssueType[], signal: AbortSignal): Promise<{ findings: Finding[]; gaps: readonly KindGap[] }> {
    const { results, gaps } = await loadEachKind(this.deps.store, types, (issueType) => oneOffSlot('agent', issueType), (issueType) => place.queries[issueType], { signal, oneOff: true });
    return { findings: results.flatMap((r) => r.findings), gaps };
  }

  /** The folder the path is in (else the first), and the path relative to it. */
  private scope(path: string | undefined): { repo?: WorkspaceRepo; path?: string } {
    const repos = this.deps.repos.repos();
    if (!path) return { repo: repos[0] };
    const normal = path.replace(/\\/g, '/');
    for (const repo of repos) {
      const root = repo.folder.uri.fsPath.replace(/\\/g, '/');
      if (normal === root || normal.startsWith(`${root}/`)) return { repo, path: normal.slice(root.length + 1) || undefined };
    }
    return { repo: repos[0], path: normal.replace(/^\.\//, '') };
  }

  private whereToday(finding: Finding): string | undefined {
    return whereToday(this.deps.places, finding);
  }
}

class FindingTool implements vscode.LanguageModelTool<FindingInput> {
  constructor(private readonly deps: AgentToolsDeps) {}

  async invoke(options: vscode.LanguageModelToolInvocationOptions<FindingInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const ref = findingRefOf(options.input);
    if (typeof ref === 'string') return text(ref);
    const slug = this.deps.deploymentSlug();
    if (!slug) return text(SIGNED_OUT);
    const types: readonly IssueType[] = ref.issueType ? [ref.issueType] : ISSUE_TYPES;
    const finding = types.map((t) => this.deps.store.finding(slug, t, ref.id)).find((f): f is Finding => f !== undefined);
    if (!finding) return text(`Finding #${ref.id} is not among the findings the editor has loaded: list the project's findings first (${TOOL_NAMES.findings}), or open its project in the AppSec view.`);
    // Cancelled or failed, the finding is still told without its detail, or its story.
    const [detail, story] = await Promise.all([
      withAbortSignal(token, (signal) => raceAbort(this.deps.details.get(finding), signal)).catch(() => undefined),
      withAbortSignal(token, (signal) => raceAbort(this.deps.stories.get(finding), signal)).catch(() => undefined),
    ]);
    if (token.isCancellationRequested) return text('Cancelled.');
    const where = whereToday(this.deps.places, finding);
    const current = this.deps.store.finding(slug, finding.issueType, finding.id) ?? finding;
    return text(findingText(current, detail, {
      where, platformUrl: this.deps.findingUrl(current),
      newAgainst: this.deps.novelty.isNew(current) && current.repositoryName ? this.deps.novelty.comparedWith(current.repositoryName) : undefined,
      story: this.agentStory(finding, story),
    }));
  }

  private agentStory(finding: Finding, answer: Awaited<ReturnType<FindingStories['get']>>): AgentStory {
    if (!answer) return { kind: 'unread' };
    if (answer.kind === 'notAvailable') return { kind: 'notAvailable' };
    const trace = answer.story.trace;
    return { kind: 'story', story: answer.story, ...(trace ? { trace: traceToday(this.deps.places, finding, trace) } : {}) };
  }
}

class TriageTool implements vscode.LanguageModelTool<TriageToolInput> {
  constructor(private readonly deps: AgentToolsDeps) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<TriageToolInput>): vscode.PreparedToolInvocation {
    const request = triageInputOf(options.input);
    const slug = this.deps.deploymentSlug();
    if (typeof request === 'string' || !slug) return { invocationMessage: 'Checking the triage request' };
    const known = request.ids.map((id) => this.deps.store.finding(slug, request.issueType, id));
    const findings = known.filter((f): f is Finding => f !== undefined).map((f) => ({ id: f.id, name: f.sca?.advisory ? `${f.sca.advisory} in ${f.sca.package ?? '?'}` : f.ruleName }));
    const unknownIds = request.ids.filter((_id, i) => known[i] === undefined);
    const message = new vscode.MarkdownString(triageConfirmation(findings, unknownIds, request));
    message.isTrusted = false;
    return {
      invocationMessage: `Triaging ${request.ids.length} finding${request.ids.length === 1 ? '' : 's'}`,
      confirmationMessages: { title: 'AppSec: triage findings on the platform?', message },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<TriageToolInput>): Promise<vscode.LanguageModelToolResult> {
    const request = triageInputOf(options.input);
    if (typeof request === 'string') return text(request);
    if (!this.deps.deploymentSlug()) return text(SIGNED_OUT);
    try {
      const outcome = await this.deps.triage.triage(request.issueType, request.ids, request);
      const others = outcome.ids.length - request.ids.length;
      return text(`Done: the platform triaged ${outcome.triaged} finding${outcome.triaged === 1 ? '' : 's'}${others > 0 ? ` (${others} of them copies on other branches)` : ''}. The editor's views show the change.`);
    } catch (error) {
      return text(`The triage was not made, nothing changed; the error, as data: ${quotedError(this.deps.errorMessage(error))}`);
    }
  }
}

/** Registers the three tools; their names are a contract (docs: automation). */
export function registerAgentTools(deps: AgentToolsDeps): vscode.Disposable[] {
  // Hosts without the language model API (older than the supported range) simply get no tools.
  if (typeof vscode.lm?.registerTool !== 'function') return [];
  return [
    vscode.lm.registerTool(TOOL_NAMES.findings, new FindingsTool(deps)),
    vscode.lm.registerTool(TOOL_NAMES.finding, new FindingTool(deps)),
    vscode.lm.registerTool(TOOL_NAMES.triage, new TriageTool(deps)),
  ];
}
