/**
 * The markdown of the hover on the extension's own diagnostics, without `vscode`: every piece of
 * text in it (rule names, branch names, the assistant's guidance, our own notes) is escaped, so
 * the only markdown that acts is ours: the bold name, the theme icons and the command links.
 */
import type { CommandId } from '../core/model/command-ids';
import { distinctName } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import { secretValidationLabel, valueLabel } from '../core/services/filters';
import { escapeMarkdown } from '../views/markdown';
import { formatCount, t } from '../core/l10n';
import { kindOf } from '../core/model/finding-kinds';

/** The commands the hover may link to (and no other), in the order its links name them. */
export const HOVER_COMMANDS = [
  'appsecFindings.showDetails',
  'appsecFindings.showTrace',
  'appsecFindings.fixWithAgent',
  'appsecFindings.ignore',
  'appsecFindings.openInPlatform',
] as const satisfies readonly CommandId[];

/** What the finding's story adds to its hover, once read. */
export interface HoverStory {
  /** The finding blocks pull requests (its rule runs in block mode). */
  readonly blocking?: boolean;
  /** How many steps its trace has (0: it has none). */
  readonly traceSteps?: number;
  /** False where the user may only request an exception: Ignore would not work for them. */
  readonly mayIgnore?: boolean;
}

/**
 * "**eval-detected** · high" (a secret adds its validation: "**AWS secret** · critical · valid"),
 * its status only when it is not open ("· reviewing"), "blocks pull requests" when its story says
 * so, the assistant's guidance when given, and the command links: Show Trace for a code finding
 * unless its story has no trace, and Request Exception in Platform instead of Ignore… where the
 * user may only ask for one.
 */
export function aboutFindingLines(finding: Finding, guidance: string | undefined, story: HoverStory = {}): string[] {
  const status = finding.status === 'open' ? [] : [valueLabel(finding.status)];
  const facts = [
    valueLabel(finding.severity),
    ...status,
    ...(finding.secret ? [secretValidationLabel(finding.secret.validation)] : []),
    ...(story.blocking ? [t('blocks pull requests')] : []),
  ];
  const head = `**${escapeMarkdown(distinctName(finding))}** · ${facts.map(escapeMarkdown).join(' · ')}`;
  // The links carry the finding by reference (kind and id), encoded: nothing from the platform goes in raw.
  const ref = encodeURIComponent(JSON.stringify([{ findingRef: { issueType: finding.issueType, id: finding.id } }]));
  const steps = story.traceSteps;
  const links: (readonly [string, (typeof HOVER_COMMANDS)[number]])[] = [
    [t('Show Details'), 'appsecFindings.showDetails'],
    ...(kindOf(finding).traced && steps !== 0 ? [[traceTitle(steps), 'appsecFindings.showTrace'] as const] : []),
    [t('Fix with Agent'), 'appsecFindings.fixWithAgent'],
    story.mayIgnore === false ? [t('Request Exception in Platform'), 'appsecFindings.openInPlatform'] : [t('Ignore…'), 'appsecFindings.ignore'],
    [t('Open in Platform'), 'appsecFindings.openInPlatform'],
  ];
  const linkLine = links.map(([title, command]) => `[${title}](command:${command}?${ref})`).join(' · ');
  return [head, ...(guidance ? [t('Assistant: {0}', escapeMarkdown(oneLineText(guidance, 400)))] : []), linkLine];
}

/** "Show Trace", or with the count of steps once the story is read. */
function traceTitle(steps: number | undefined): string {
  if (steps === undefined) return t('Show Trace');
  return steps === 1 ? t('Show Trace ({0} step)', formatCount(steps)) : t('Show Trace ({0} steps)', formatCount(steps));
}

export interface PlaceNotes {
  /** How many of the findings here are new on the branch, of how many, against which primary branch. */
  readonly novelty?: { readonly count: number; readonly total: number; readonly primary: string };
  /** How the place relates to the scan (drift), when there is something to say. */
  readonly drift?: string;
}

/** The notes about the place, each behind its theme icon (the icon is ours; the text is escaped). */
export function placeNoteLines({ novelty, drift }: PlaceNotes): string[] {
  return [
    ...(novelty && novelty.count > 0 ? [`$(git-branch) AppSec: ${escapeMarkdown(noveltyText(novelty.count, novelty.total, novelty.primary))}`] : []),
    ...(drift ? [`$(history) AppSec: ${escapeMarkdown(drift)}`] : []),
  ];
}

function noveltyText(newCount: number, total: number, primary: string): string {
  if (total === 1) return t('New on this branch: {0} does not have this finding.', primary);
  return t('{0} of the {1} findings here are new on this branch: {2} does not have them.', formatCount(newCount), formatCount(total), primary);
}

function oneLineText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
