/**
 * Hover lines on the extension's own diagnostics (VS Code already shows their message):
 * - how the place relates to the scan: moved onto today's code, the finding's own code changed
 *   since the scan (this is the closest place), or not mapped (the scanned commit is not here, or
 *   the copy was not compared) while the copy may differ; never a precision we do not have;
 * - whether the finding is new on this branch (its primary branch does not have it);
 * - each finding here in one line (rule, severity, status, and a secret's validation), the
 *   assistant's short guidance when the platform's detail has it, whether it blocks pull
 *   requests (its story, read when hovered, also gives Problems its trace), and links to Show
 *   Details, Show Trace, Fix with Agent, Ignore… and Open in Platform that act on that finding
 *   (the markdown is trusted for those commands only; server text in it is escaped).
 */
import { t } from '../core/l10n';
import * as vscode from 'vscode';
import { driftHint } from '../core/workspace/drift-hint';
import { FINDINGS_PER_PLACE, isFindingDiagnostic, type KnownFindingDiagnostic } from '../diagnostics/finding-diagnostic';
import type { Finding } from '../core/model/types';
import type { BranchNovelty } from '../core/services/branch-baselines';
import type { FindingDetails } from '../core/services/finding-details';
import type { FindingStories } from '../core/services/finding-stories';
import { mayIgnore } from '../core/services/story-words';
import type { DriftTracker } from '../host/drift-tracker';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';
import { aboutFindingLines, HOVER_COMMANDS, placeNoteLines, type HoverStory } from './hover-text';

const GUIDANCE_WAIT_MS = 1500;

export interface FindingHoverDeps {
  readonly collection: vscode.DiagnosticCollection;
  readonly repos: WorkspaceRepos;
  readonly drift: DriftTracker;
  /** The commit a finding was scanned at (diagnostics that did not move carry no drift facts). */
  readonly commitOf: (finding: Finding, repo: WorkspaceRepo) => string | undefined;
  readonly novelty: BranchNovelty;
  readonly details: FindingDetails;
  readonly stories: FindingStories;
  readonly signedIn: () => boolean;
}

export function registerFindingHover({ collection, repos, drift, commitOf, novelty, details, stories, signedIn }: FindingHoverDeps): vscode.Disposable {
  return vscode.languages.registerHoverProvider(
    { scheme: 'file' },
    {
      async provideHover(document, position) {
        const here = (collection.get(document.uri) ?? []).filter((d) => isFindingDiagnostic(d) && d.range.contains(position)) as KnownFindingDiagnostic[];
        const first = here[0];
        if (!first) return undefined;
        const folder = repos.repos().find((r) => document.uri.toString().startsWith(`${r.folder.uri.toString()}/`));
        const commit = first.drift?.commit ?? (folder && commitOf(first.finding, folder));
        const mapped = folder && commit && drift.state(folder.folder, commit) === 'mapped';
        const hint = mapped ? mappedHint(first, commit) : driftHint({ scanned: commit, head: folder?.commit, dirty: document.isDirty });
        const newHere = here.filter((d) => novelty.isNew(d.finding));
        const primary = folder && novelty.comparedWith(folder.projectName);
        const lines = placeNoteLines({
          ...(primary ? { novelty: { count: newHere.length, total: here.length, primary } } : {}),
          ...(hint ? { drift: hint } : {}),
        });
        // One block per finding, so each block's links act on the finding it names.
        const about = signedIn()
          ? await Promise.all(
              here.slice(0, FINDINGS_PER_PLACE).map(async (d) => {
                const [guidance, story] = await Promise.all([guidanceOf(d.finding, details), storyOf(d.finding, stories)]);
                return aboutFindingLines(d.finding, guidance, story).join('\n\n');
              }),
            )
          : [];
        if (lines.length === 0 && about.length === 0) return undefined;
        const text = new vscode.MarkdownString([...(about.length > 0 ? [about.join('\n\n---\n\n')] : []), ...lines].join('\n\n'), true);
        text.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
        return new vscode.Hover(text, first.range);
      },
    },
  );
}

/** The assistant's short guidance, when the platform's detail comes within a moment. */
async function guidanceOf(finding: Finding, details: FindingDetails): Promise<string | undefined> {
  const detail = await details.within(finding, GUIDANCE_WAIT_MS);
  return detail?.assistant?.guidanceSummary ?? detail?.assistant?.ruleExplanationSummary;
}

/** What the finding's story adds, when it comes within a moment (a deployment without it adds nothing). */
async function storyOf(finding: Finding, stories: FindingStories): Promise<HoverStory | undefined> {
  const answer = await stories.within(finding, GUIDANCE_WAIT_MS);
  if (answer?.kind !== 'story') return undefined;
  const { story } = answer;
  return { blocking: story.isBlocking === true, traceSteps: story.trace?.length ?? 0, mayIgnore: mayIgnore(story.triagePermission) };
}

function mappedHint(diagnostic: KnownFindingDiagnostic, commit: string): string | undefined {
  const short = commit.slice(0, 7);
  if (diagnostic.drift?.changed)
    return t("The code of this finding changed since the scan of commit {0}; it is shown at the closest place in today's code.", short);
  const scannedLine = diagnostic.drift?.scannedLine;
  if (scannedLine !== undefined && scannedLine !== diagnostic.range.start.line) {
    return t('Scanned at line {0} of commit {1}; moved to where that code is now.', scannedLine + 1, short);
  }
  return undefined;
}
