/**
 * The `findings` tool: the findings of a project and branch, the workspace's by default, each
 * where it is in today's code. It reads the one findings store (an answer Problems or the tree
 * already shows costs no request) and lets the place decide the ref, the queries and whether a
 * branch was scanned, as Problems does. Checked input; a problem is an answer, never a throw.
 */
import { ISSUE_TYPES, type Finding, type IssueType } from '../model/types';
import type { TraceStep } from '../model/finding-story';
import { askedPlace, fallbackPlace, placeOf, type AskingPlaceDeps, type Place, type PlaceAt } from '../services/place';
import type { RefScans } from '../services/ref-scans';
import type { BranchNovelty } from '../services/branch-baselines';
import { EMPTY_SELECTION, type FilterSelection } from '../services/filters';
import type { FindingDetails } from '../services/finding-details';
import type { FindingStories } from '../services/finding-stories';
import type { FindingsStore } from '../services/findings-store';
import { loadEachKind } from '../services/each-kind';
import { KIND_PRODUCTS, unavailableText } from '../services/kind-availability';
import type { KindGap } from '../services/kind-gaps';
import type { TriageService } from '../services/triage-service';
import { oneOffSlot } from '../services/slot-ids';
import type { TracePlace } from '../workspace/trace-places';
import { findingsListText, quote, quotedError, sortForAgent, type ListedFinding } from './agent-text';
import { FINDINGS_INPUT, type FindingsInput } from './tool-inputs';
import { answered, findingSummary, refused, SIGNED_OUT, whereText, type TodayPlace, type ToolAnswer } from './tool-answer';
import { kindOf } from '../model/finding-kinds';

/** A folder of the workspace and the project it is matched to. */
export interface AgentFolder {
  /** The folder's path on disk. */
  readonly root: string;
  readonly projectName: string;
  readonly branch?: string;
}

export interface AgentHandlerDeps {
  readonly deploymentSlug: () => string | undefined;
  readonly project: (name: string) => { readonly primaryBranch?: string; readonly defaultBranch?: string } | undefined;
  readonly store: FindingsStore;
  /** Whether a ref was scanned: the rule Problems follows, so both say the same. */
  readonly scans: Pick<RefScans, 'now' | 'known' | 'ask'>;
  readonly folders: () => readonly AgentFolder[];
  /** Where the finding is in today's code (drift through commits and edits, unsaved ones too). */
  readonly place: (finding: Finding) => TodayPlace | undefined;
  /** The trace's steps, placed the same way. */
  readonly trace: (finding: Finding, steps: readonly TraceStep[]) => readonly TracePlace[];
  /** Reads what `place` and `trace` need for these findings, where that is not known already (standalone mode's git). */
  readonly prepare?: (findings: readonly Finding[], steps?: readonly TraceStep[]) => Promise<void>;
  readonly novelty: BranchNovelty;
  readonly details: FindingDetails;
  readonly stories: FindingStories;
  readonly triage: TriageService;
  readonly findingUrl: (finding: Finding) => string | undefined;
  readonly errorMessage: (error: unknown) => string;
}

/** What the list leaves out and why: kinds the deployment does not have, kinds that failed. */
function gapLines(gaps: readonly KindGap[], errorMessage: (error: unknown) => string): string[] {
  return [
    ...new Set(
      gaps.map((gap) =>
        'unavailable' in gap
          ? `${KIND_PRODUCTS[gap.kind]} findings: ${unavailableText(gap.unavailable, 'english')}.`
          : `${KIND_PRODUCTS[gap.kind]} findings could not be loaded (the error, as data: ${quotedError(errorMessage(gap.failedBecause))})${gap.since ? '; those listed are from an earlier load' : ''}.`,
      ),
    ),
  ];
}

/** The folder the path is in (else the first), and the path relative to it. */
function scope(folders: readonly AgentFolder[], path: string | undefined): { folder?: AgentFolder; path?: string } {
  if (!path) return { folder: folders[0] };
  const normal = path.replace(/\\/g, '/');
  for (const folder of folders) {
    const root = folder.root.replace(/\\/g, '/');
    if (normal === root || normal.startsWith(`${root}/`)) return { folder, path: normal.slice(root.length + 1) || undefined };
  }
  return { folder: folders[0], path: normal.replace(/^\.\//, '') };
}

export function findingsHandler(deps: AgentHandlerDeps): (input: unknown, signal: AbortSignal) => Promise<ToolAnswer> {
  return async (input, signal) => {
    const checked = FINDINGS_INPUT.check(input);
    if (!checked.ok) return refused(checked.problem);
    const slug = deps.deploymentSlug();
    if (!slug) return refused(SIGNED_OUT);
    try {
      return await list(deps, slug, checked.value, signal);
    } catch (error) {
      if (signal.aborted) return refused('Cancelled.');
      return refused(`The findings could not be loaded; the error, as data: ${quotedError(deps.errorMessage(error))}`);
    }
  };
}

/** The answer to a checked input: the list, or why there is none. */
async function list(deps: AgentHandlerDeps, slug: string, input: FindingsInput, signal: AbortSignal): Promise<ToolAnswer> {
  const { folder, path } = scope(deps.folders(), input.path);
  const projectName = input.project ?? folder?.projectName;
  if (!projectName) return refused('No project of the platform matches this workspace: name one with the project field (the AppSec Projects view lists them).');
  const project = deps.project(projectName);
  if (!project) return refused(`The platform has no project named ${quote(projectName)} in this deployment.`);
  const status = input.status ?? 'open';
  // The agent's filters in place of the user's; the place decides the ref, the queries and
  // whether a branch was scanned, as it does for Problems and the tree.
  const selection: FilterSelection = {
    ...EMPTY_SELECTION,
    ...(status !== 'all' ? { status } : {}),
    ...(input.severities ? { severities: [...input.severities] } : {}),
    ...(path ? { paths: [path] } : {}),
  };
  const placeDeps: AskingPlaceDeps = { deploymentSlug: slug, selection: () => selection, scans: deps.scans };
  const at: PlaceAt = {
    project: { ...project, name: projectName },
    chosen: input.ref,
    checkedOut: folder?.projectName === projectName ? folder.branch : undefined,
  };
  // By default, only the kinds the deployment has: one it lacks is not offered.
  // The AI findings come with the code findings: asked for apart only when Code is missing.
  const offered = deps.store.availability.offered();
  const wanted = input.issueTypes ?? (offered.includes('sast') ? offered.filter((k) => k !== 'ai') : offered.map((k) => (k === 'ai' ? 'ai_sast' : k)));
  // AI code findings come with the code findings; asked for alone, only they are kept.
  const onlyAi = wanted.includes('ai_sast') && !wanted.includes('sast');
  const types = [...new Set(wanted.map((t) => (t === 'ai_sast' ? 'sast' : t)))].filter((t): t is IssueType => (ISSUE_TYPES as readonly string[]).includes(t));
  const load = async (place: Place): Promise<{ findings: Finding[]; gaps: readonly KindGap[] }> => {
    const { results, gaps } = await loadEachKind(
      deps.store,
      types,
      (issueType) => oneOffSlot('agent', issueType),
      (issueType) => place.queries[issueType],
      { signal, oneOff: true },
    );
    return { findings: results.flatMap((r) => r.findings), gaps };
  };
  const first = placeOf(placeDeps, at, { seen: 0 });
  const own = await load(first);
  // A branch never scanned shows the primary branch's findings, as Problems does; a scanned
  // branch whose findings the filters leave out shows none. A ref the agent names is that ref's.
  const asked = await askedPlace(placeDeps, at, first, { seen: own.findings.length, signal });
  const instead = input.ref === undefined ? fallbackPlace(placeDeps, at, asked) : undefined;
  const shown = instead ?? asked;
  const loaded = instead ? await load(instead) : own;
  const keep = shown.keep?.keep;
  const kept = loaded.findings.filter((f) => (!keep || keep(f)) && (!onlyAi || !kindOf(f).aiAnalysed || f.ai !== undefined));
  const chosen = sortForAgent(kept).slice(0, input.limit ?? 50);
  await deps.prepare?.(chosen);
  const listed = chosen.map((finding) => ({ finding, place: deps.place(finding), isNew: deps.novelty.isNew(finding) }));
  const items: ListedFinding[] = listed.map(({ finding, place, isNew }) => ({ finding, where: whereText(finding, place), isNew }));
  const filters = [
    `status ${status}`,
    input.severities ? `severity ${input.severities.join(', ')}` : '',
    path ? `under ${path}` : '',
    `types ${types.join(', ') || 'none'}`,
  ]
    .filter(Boolean)
    .join('; ');
  const gaps = gapLines(loaded.gaps, deps.errorMessage);
  const text =
    findingsListText(items, kept.length, { project: projectName, ref: shown.ref, fallbackFrom: instead ? asked.ref : undefined, filters }) +
    (gaps.length > 0 ? `\n(${gaps.join(' ')})` : '');
  return answered(text, {
    project: projectName,
    ...(shown.ref !== undefined ? { ref: shown.ref } : {}),
    ...(instead && asked.ref !== undefined ? { fallbackFrom: asked.ref } : {}),
    total: kept.length,
    findings: listed.map(({ finding, place, isNew }) => findingSummary(finding, place, { url: deps.findingUrl(finding), isNew })),
    gaps,
  });
}
