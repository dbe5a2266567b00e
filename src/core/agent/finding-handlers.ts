/**
 * The `finding` tool (one finding by id or link: its detail, story and trace, placed in today's
 * code) and the `triage` tool (a write through the triage service the commands use; the adapter
 * asks the user first). Checked input; a problem is an answer, never a throw.
 */
import { raceAbort } from '../services/abort';
import { ISSUE_TYPES, type Finding, type IssueType } from '../model/types';
import type { FindingStoryAnswer } from '../model/finding-story';
import { findingText, quotedError, type AgentStory } from './agent-text';
import type { AgentHandlerDeps } from './findings-handler';
import { findingRefOf, triageInputOf } from './tool-inputs';
import { answered, findingSummary, refused, SIGNED_OUT, whereText, withoutUndefined, type ToolAnswer } from './tool-answer';
import { TOOL_NAMES } from './tool-names';

export function findingHandler(deps: AgentHandlerDeps): (input: unknown, signal: AbortSignal) => Promise<ToolAnswer> {
  return async (input, signal) => {
    const ref = findingRefOf(input);
    if (typeof ref === 'string') return refused(ref);
    const slug = deps.deploymentSlug();
    if (!slug) return refused(SIGNED_OUT);
    const types: readonly IssueType[] = ref.issueType ? [ref.issueType] : ISSUE_TYPES;
    const finding = types.map((t) => deps.store.finding(slug, t, ref.id)).find((f): f is Finding => f !== undefined);
    if (!finding)
      return refused(
        `Finding #${ref.id} is not among the findings the editor has loaded: list the project's findings first (${TOOL_NAMES.findings.lm}), or open its project in the AppSec view.`,
      );
    // Cancelled or failed, the finding is still told without its detail, or its story.
    const [detail, story] = await Promise.all([
      raceAbort(deps.details.get(finding), signal).catch(() => undefined),
      raceAbort(deps.stories.get(finding), signal).catch(() => undefined),
    ]);
    if (signal.aborted) return refused('Cancelled.');
    const current = deps.store.finding(slug, finding.issueType, finding.id) ?? finding;
    await deps.prepare?.([current], story?.kind === 'story' ? story.story.trace : undefined);
    const place = deps.place(current);
    const isNew = deps.novelty.isNew(current);
    const agentStory = storyOf(deps, current, story);
    const text = findingText(current, detail, {
      where: whereText(current, place),
      platformUrl: deps.findingUrl(current),
      newAgainst: isNew && current.repositoryName ? deps.novelty.comparedWith(current.repositoryName) : undefined,
      story: agentStory,
    });
    const trace = agentStory.kind === 'story' ? (agentStory.trace ?? []) : [];
    return answered(text, {
      finding: findingSummary(current, place, { url: deps.findingUrl(current), isNew }),
      story: agentStory.kind === 'story' ? 'read' : agentStory.kind,
      trace: trace.map((step) =>
        withoutUndefined({
          number: step.number,
          role: step.role,
          scannedPath: step.scannedPath,
          scannedLine: step.scannedLine,
          ...(step.kind === 'here' ? { path: step.relativePath, line: step.range.startLine + 1, codeChanged: step.changed } : { notInThisCopy: true }),
        }),
      ),
    });
  };
}

function storyOf(deps: AgentHandlerDeps, finding: Finding, answer: FindingStoryAnswer | undefined): AgentStory {
  if (!answer) return { kind: 'unread' };
  if (answer.kind === 'notAvailable') return { kind: 'notAvailable' };
  const steps = answer.story.trace;
  return { kind: 'story', story: answer.story, ...(steps ? { trace: deps.trace(finding, steps) } : {}) };
}

export function triageHandler(deps: Pick<AgentHandlerDeps, 'deploymentSlug' | 'triage' | 'errorMessage'>): (input: unknown) => Promise<ToolAnswer> {
  return async (input) => {
    const request = triageInputOf(input);
    if (typeof request === 'string') return refused(request);
    if (!deps.deploymentSlug()) return refused(SIGNED_OUT);
    try {
      const outcome = await deps.triage.triage(request.issueType, request.ids, request);
      const others = outcome.ids.length - request.ids.length;
      return answered(
        `Done: the platform triaged ${outcome.triaged} finding${outcome.triaged === 1 ? '' : 's'}${others > 0 ? ` (${others} of them copies on other branches)` : ''}. The editor's views show the change.`,
        { triaged: outcome.triaged, ids: [...outcome.ids] },
      );
    } catch (error) {
      return refused(`The triage was not made, nothing changed; the error, as data: ${quotedError(deps.errorMessage(error))}`);
    }
  };
}
