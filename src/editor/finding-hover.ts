/**
 * Hover lines on the extension's own diagnostics (VS Code already shows their message):
 * - how the place relates to the scan: moved onto today's code, the finding's own code changed
 *   since the scan (this is the closest place), or not mapped (the scanned commit is not here, or
 *   the copy was not compared) while the copy may differ; never a precision we do not have;
 * - whether the finding is new on this branch (its primary branch does not have it);
 * - the finding in one line (rule, severity, status), the assistant's short guidance when the
 *   platform's detail has it, and links to Show Details, Ignore… and Open in Platform (the
 *   markdown is trusted for those three commands only; server text in it is escaped).
 */
import * as vscode from 'vscode';
import { driftHint } from '../core/workspace/drift-hint';
import { isFindingDiagnostic, type KnownFindingDiagnostic } from '../diagnostics/finding-diagnostic';
import { findingLabel } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import type { BranchNovelty } from '../core/services/branch-baselines';
import type { FindingDetails } from '../core/services/finding-details';
import { valueLabel } from '../core/services/filters';
import type { DriftTracker } from '../host/drift-tracker';
import type { WorkspaceRepo, WorkspaceRepos } from '../host/workspace-repos';

/** The commands the hover may link to (and no other). */
export const HOVER_COMMANDS = ['appsecFindings.showDetails', 'appsecFindings.ignore', 'appsecFindings.openInPlatform'] as const;
const GUIDANCE_WAIT_MS = 1500;

export interface FindingHoverDeps {
  readonly collection: vscode.DiagnosticCollection;
  readonly repos: WorkspaceRepos;
  readonly drift: DriftTracker;
  /** The commit a finding was scanned at (diagnostics that did not move carry no drift facts). */
  readonly commitOf: (finding: Finding, repo: WorkspaceRepo) => string | undefined;
  readonly novelty: BranchNovelty;
  readonly details: FindingDetails;
  readonly signedIn: () => boolean;
}

export function registerFindingHover({ collection, repos, drift, commitOf, novelty, details, signedIn }: FindingHoverDeps): vscode.Disposable {
  return vscode.languages.registerHoverProvider({ scheme: 'file' }, {
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
      const lines = [
        ...(newHere.length > 0 && primary ? [`$(git-branch) AppSec: ${newOnBranchText(newHere.length, here.length, primary)}`] : []),
        ...(hint ? [`$(history) AppSec: ${hint}`] : []),
      ];
      const about = signedIn() ? await aboutFinding(first.finding, details) : [];
      if (lines.length === 0 && about.length === 0) return undefined;
      // Every line is escaped; the command links are ours, with arguments we encode.
      const text = new vscode.MarkdownString([...about, ...lines.map(escapeMarkdown)].join('\n\n'), true);
      text.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
      return new vscode.Hover(text, first.range);
    },
  });
}

/** "**eval-detected** · high · open", the assistant's guidance, and the command links. */
async function aboutFinding(finding: Finding, details: FindingDetails): Promise<string[]> {
  const name = findingLabel(finding);
  const head = `**${escapeMarkdown(name)}** · ${escapeMarkdown(finding.severity)} · ${escapeMarkdown(valueLabel(finding.status))}`;
  const detail = await details.within(finding, GUIDANCE_WAIT_MS);
  const guidance = detail?.assistant?.guidanceSummary ?? detail?.assistant?.ruleExplanationSummary;
  const ref = encodeURIComponent(JSON.stringify([{ findingRef: { issueType: finding.issueType, id: finding.id } }]));
  const links = [['Show Details', 'appsecFindings.showDetails'], ['Ignore…', 'appsecFindings.ignore'], ['Open in Platform', 'appsecFindings.openInPlatform']]
    .map(([title, command]) => `[${title}](command:${command}?${ref})`).join(' · ');
  return [head, ...(guidance ? [`Assistant: ${escapeMarkdown(oneLineText(guidance, 400))}`] : []), links];
}

function oneLineText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function newOnBranchText(newCount: number, total: number, primary: string): string {
  if (total === 1) return `New on this branch: ${primary} does not have this finding.`;
  return `${newCount} of the ${total} findings here are new on this branch: ${primary} does not have them.`;
}

/** Branch names may hold markdown characters (`feature/*_x`): shown as written. Icons stay. */
function escapeMarkdown(line: string): string {
  return line.replace(/[\\`*_{}[\]<>#+!|~]/g, (c) => `\\${c}`);
}

function mappedHint(diagnostic: KnownFindingDiagnostic, commit: string): string | undefined {
  const short = commit.slice(0, 7);
  if (diagnostic.drift?.changed) return `The code of this finding changed since the scan of commit ${short}; it is shown at the closest place in today's code.`;
  const scannedLine = diagnostic.drift?.scannedLine;
  if (scannedLine !== undefined && scannedLine !== diagnostic.range.start.line) {
    return `Scanned at line ${scannedLine + 1} of commit ${short}; moved to where that code is now.`;
  }
  return undefined;
}
