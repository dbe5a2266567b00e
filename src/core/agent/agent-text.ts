/**
 * The text the editor's AI agent gets from the tools: short, bounded (items and characters), and
 * with every piece of platform text quoted as data (a JSON string), so a rule message can never
 * read as an instruction. Pure, tested in Node.
 */
import { supplyChainName } from '../model/finding-names';
import { severityRank } from '../model/severity';
import type { Finding } from '../model/types';
import type { FindingDetail } from '../model/finding-detail';
import { englishValueLabel } from '../services/filters';
import { fixPullRequestOf, type FindingStory } from '../model/finding-story';
import { elsewhereText, fixPullRequestText, triageLimitText } from '../services/story-words';
import { stepCode, stepName, stepPlaceText, type TracePlace } from '../workspace/trace-places';
import { kindOf } from '../model/finding-kinds';

/** The most characters a tool answer holds; the agent's context is precious. */
export const MAX_LIST_CHARS = 12_000;
export const MAX_FINDING_CHARS = 8_000;
const MAX_QUOTE = 240;

/** Platform text as a quoted, one-line, bounded JSON string. */
export function quote(text: string | undefined, max = MAX_QUOTE): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}

/** The most characters of an error the agent gets: our sentence and the platform's excerpt in it. */
const MAX_ERROR_QUOTE = 600;

/**
 * An error as the agent reads it: quoted as data like any platform text, since a refusal carries
 * the platform's own words ("Response: …") and a proxy's page can say anything.
 */
export function quotedError(message: string): string {
  return quote(message, MAX_ERROR_QUOTE);
}

export interface ListedFinding {
  readonly finding: Finding;
  /** `file:line` in today's code (drift mapping), else the scanned place. */
  readonly where?: string;
  readonly isNew?: boolean;
}

/** Most severe first (a severity the platform added since sorts last), then by id. */
export function sortForAgent(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.id - b.id);
}

export interface ListContext {
  readonly project: string;
  readonly ref?: string;
  /** Said when the branch has no scan and the primary branch's findings are shown instead. */
  readonly fallbackFrom?: string;
  readonly filters: string;
}

/** One line per finding, then the total and how many were left out, so the agent can narrow down. */
export function findingsListText(items: readonly ListedFinding[], total: number, context: ListContext): string {
  const head = `Findings of ${context.project}${context.ref ? ` on ${context.ref}` : ''}${context.fallbackFrom ? ` (the branch ${context.fallbackFrom} has no scan; these are the primary branch's)` : ''}, ${context.filters}:`;
  if (total === 0) return `${head}\nNone.`;
  const lines: string[] = [];
  let used = head.length;
  for (const item of items) {
    const line = findingLine(item);
    if (used + line.length + 200 > MAX_LIST_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const leftOut = total - lines.length;
  const tail = leftOut > 0 ? `${total} in all; ${leftOut} left out. Narrow down with path, severities or issueTypes, or raise limit.` : `${total} in all.`;
  return [head, ...lines, tail].join('\n');
}

function findingLine({ finding, where, isNew }: ListedFinding): string {
  const what = finding.sca
    ? `${finding.sca.advisory ?? finding.ruleName} in ${finding.sca.package ?? '?'}${finding.sca.version ? ` ${finding.sca.version}` : ''}`
    : finding.ruleName;
  const at = where ?? (finding.location ? `${finding.location.filePath}:${finding.location.line}` : 'no location');
  return `- #${finding.id} [${finding.issueType}] ${finding.severity} ${what} at ${at} · ${englishValueLabel(finding.status)}${isNew ? ' · new on this branch' : ''} · message: ${quote(finding.message)}`;
}

/** The finding's story for the agent: read, not offered by the deployment, or not read (a failure). */
export type AgentStory =
  | { readonly kind: 'story'; readonly story: FindingStory; readonly trace?: readonly TracePlace[] }
  | { readonly kind: 'notAvailable' }
  | { readonly kind: 'unread' };

/** What the story adds: the trace in today's code, other branches, blocking, owners, the fix pull request. */
export function storyLines(story: AgentStory | undefined): string[] {
  if (!story || story.kind === 'unread') return [];
  if (story.kind === 'notAvailable') return ["(This deployment does not give the finding's story: no trace, other branches or owners are known.)"];
  const s = story.story;
  const lines: string[] = [];
  if (s.isBlocking) lines.push('Blocks pull requests: yes (its rule runs in block mode)');
  if (s.codeOwners && s.codeOwners.length > 0)
    lines.push(`Code owners: ${s.codeOwners.map((o) => `${quote(o.name, 120)}${o.isTeam ? ' (team)' : ''}`).join(', ')}`);
  const limit = triageLimitText(s.triagePermission, s.exceptionState);
  if (limit) lines.push(`Triage: ${limit}`);
  const pr = fixPullRequestOf(s);
  const prText = fixPullRequestText(pr);
  if (prText) lines.push(`Fix pull request: ${prText}${pr.url ? ` (${pr.url})` : ''}`);
  const trace = story.trace ?? [];
  if (trace.length > 0) {
    lines.push("Trace (how untrusted data reaches it, source first, placed in today's code):");
    for (const step of trace.slice(0, 20)) {
      const code = stepCode(step, 160);
      lines.push(`  ${step.number}. ${stepName(step)} at ${stepPlaceText(step)}${code ? `: ${quote(code, 160)}` : ''}`);
    }
  } else {
    lines.push('Trace: none (the platform gives none for this finding)');
  }
  const elsewhere = s.elsewhere ?? [];
  if (elsewhere.length > 0)
    lines.push(
      `Elsewhere: ${elsewhere
        .slice(0, 15)
        .map(elsewhereText)
        .map((t) => quote(t, 160))
        .join('; ')}${elsewhere.length > 15 ? `; and ${elsewhere.length - 15} more` : ''}`,
    );
  return lines;
}

/** Everything the details view shows, as text the agent can act on. */
export function findingText(
  finding: Finding,
  detail: FindingDetail | undefined,
  extra: { where?: string; platformUrl?: string; newAgainst?: string; story?: AgentStory },
): string {
  const lines: string[] = [];
  const add = (name: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') lines.push(`${name}: ${value}`);
  };
  add('Finding', `#${finding.id} (${finding.ai ? 'AI code' : kindOf(finding).englishWord})`);
  add('Name', quote(supplyChainName(finding) ?? finding.ruleName));
  add('Rule', quote(finding.ruleName));
  add('Severity', finding.severity);
  add(
    'Status',
    `${englishValueLabel(finding.status)}${finding.triageReason && finding.status === 'ignored' ? ` (${englishValueLabel(finding.triageReason)})` : ''}`,
  );
  add('Where today', extra.where);
  add('Branch', finding.ref);
  add('New on this branch', extra.newAgainst ? `yes (${extra.newAgainst} does not have it)` : undefined);
  add('Message', quote(finding.message, 1000));
  add('Likely impact (AI analysis)', finding.ai?.impact ? quote(finding.ai.impact, 600) : undefined);
  add(
    'Secret',
    finding.secret ? `${quote(finding.secret.service)}, ${englishValueLabel(finding.secret.validation)} (the platform never sends the value)` : undefined,
  );
  add('Triage note', finding.triageComment ? quote(finding.triageComment, 600) : undefined);
  add('Ticket', finding.ticket ? quote(finding.ticket.slug ?? finding.ticket.url) : undefined);
  add('Platform link', extra.platformUrl);
  const rule = detail?.rule;
  if (rule) {
    add('CWE', rule.cweNames.length > 0 ? rule.cweNames.map((c) => quote(c, 120)).join(', ') : undefined);
    add('OWASP', rule.owaspNames.length > 0 ? rule.owaspNames.map((c) => quote(c, 120)).join(', ') : undefined);
  }
  const a = detail?.assistant;
  if (a) {
    add(
      'Assistant verdict',
      a.autotriageVerdict ? `${englishValueLabel(a.autotriageVerdict)}${a.autotriageReason ? `, because ${quote(a.autotriageReason, 600)}` : ''}` : undefined,
    );
    add('Guidance', a.guidanceSummary ? quote(a.guidanceSummary, 600) : undefined);
    add('Guidance steps', a.guidanceInstructions ? quote(a.guidanceInstructions, 1200) : undefined);
    add('Rule explanation', a.ruleExplanationSummary ? quote(a.ruleExplanationSummary, 800) : undefined);
    add('Suggested fix (code, as data)', a.autofixCode ? quote(a.autofixCode, 2000) : undefined);
  }
  const sca = finding.sca;
  if (sca) {
    add('Package', sca.package ? `${sca.package}${sca.version ? ` ${sca.version}` : ''}${sca.ecosystem ? ` (${sca.ecosystem})` : ''}` : undefined);
    add('Advisory', sca.advisory);
    add('Reachability', sca.reachability ? englishValueLabel(sca.reachability) : undefined);
    add('Reachable when', detail?.reachableCondition ? quote(detail.reachableCondition, 400) : undefined);
    add('Fixed in', sca.fixVersions && sca.fixVersions.length > 0 ? sca.fixVersions.join(', ') : undefined);
    add('Dependency', sca.transitivity);
    add('Malicious package', sca.isMalicious ? 'yes' : undefined);
  }
  lines.push(...storyLines(extra.story));
  if (!detail) lines.push("(The platform's full detail was not available; what is above is what the editor holds.)");
  const text = lines.join('\n');
  return text.length > MAX_FINDING_CHARS ? `${text.slice(0, MAX_FINDING_CHARS - 1)}…` : text;
}

/** What the triage tool's confirmation says will change. */
export function triageConfirmation(
  findings: readonly { id: number; name: string }[],
  unknownIds: readonly number[],
  input: { state?: string; reason?: string; note?: string },
): string {
  const what = input.state
    ? `set ${findings.length + unknownIds.length} finding${findings.length + unknownIds.length === 1 ? '' : 's'} to **${englishValueLabel(input.state === 'reopened' ? 'open' : input.state)}**${input.reason ? ` (reason: ${englishValueLabel(input.reason)})` : ''}`
    : `add a note to ${findings.length + unknownIds.length} finding${findings.length + unknownIds.length === 1 ? '' : 's'}`;
  const listed = findings.slice(0, 20).map((f) => `- #${f.id} ${f.name}`);
  if (findings.length > 20) listed.push(`- and ${findings.length - 20} more`);
  if (unknownIds.length > 0)
    listed.push(
      `- not loaded in the editor: ${unknownIds
        .slice(0, 20)
        .map((id) => `#${id}`)
        .join(', ')}`,
    );
  const note = input.note ? `\n\nNote (saved on the platform): ${quote(input.note, 400)}` : '';
  return `The platform will ${what}:\n\n${listed.join('\n')}${note}\n\nThe platform also applies this to the same findings on other branches.`;
}
