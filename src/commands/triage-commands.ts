/**
 * Triage and ticket commands. Each acts on one finding, a multi-selection in the tree, or every
 * finding of a group (a rule or a file); `appsecFindings.triage` is the automation form (no
 * prompts). The change itself is the triage service's: shown everywhere at once, rolled back
 * when the platform refuses. A refused triage offers Try Again with what the user typed.
 */
import * as vscode from 'vscode';
import { showError, showInformation, showInput } from '../host/notify';
import { formatNumber, t } from '../core/l10n';
import type { Finding, IssueType, TriageReason } from '../core/model/types';
import type { TriageState } from '../core/model/triage-and-tickets';
import { valueLabel } from '../core/services/filters';
import { TriageInputError, TriageRefusedError, undoneText, type TriageOutcome } from '../core/services/triage-service';
import { MAX_NOTE_LENGTH, TRIAGE_REASONS, type TriageInput } from '../core/services/triage-rules';
import type { TriageRequest } from '../host/triage-input';
import type { CommandDeps } from './command-deps';
import { findingsOf, itemOf, type CommandItem } from './command-item';

export type TriageCommandsDeps = Pick<CommandDeps, 'triage' | 'selectedItems'>;

/** The findings a command acts on, by issue type (one request per type). */
export type Subject = ReadonlyMap<IssueType, readonly Finding[]>;

/**
 * The findings of what a tree command was run on (the clicked node, or all selected nodes when
 * several are), a finding or diagnostic, or a findings group; each finding once.
 */
export function subjectOf(item: CommandItem | undefined, selected?: readonly CommandItem[]): Subject {
  const items = selected && selected.length > 0 ? selected : item ? [item] : [];
  const byType = new Map<IssueType, Map<number, Finding>>();
  for (const finding of findingsOf(items)) {
    let ofType = byType.get(finding.issueType);
    if (!ofType) byType.set(finding.issueType, (ofType = new Map<number, Finding>()));
    ofType.set(finding.id, finding);
  }
  return new Map([...byType].map(([type, findings]) => [type, [...findings.values()]]));
}

const count = (n: number): string => (n === 1 ? t('{0} finding', formatNumber(n)) : t('{0} findings', formatNumber(n)));
const total = (subject: Subject): number => [...subject.values()].reduce((n, list) => n + list.length, 0);

/** "Ignored 2 findings": what was done, with how many. */
function doneText(state: TriageState, findings: string): string {
  switch (state) {
    case 'ignored':
      return t('Ignored {0}', findings);
    case 'reviewing':
      return t('Marked {0} as reviewing', findings);
    case 'fixing':
      return t('Marked {0} as fixing', findings);
    case 'reopened':
      return t('Reopened {0}', findings);
  }
}

/** Sends the triage per issue type; says what was done, with Undo; a refusal offers Try Again. */
export async function runTriage(app: TriageCommandsDeps, subject: Subject, input: TriageInput, options: { quiet?: boolean } = {}): Promise<TriageOutcome[]> {
  if (total(subject) === 0) {
    if (!options.quiet) void showInformation(t('AppSec: select one or more findings (or a rule or file group) to triage.'));
    return [];
  }
  const outcomes: { issueType: IssueType; outcome: TriageOutcome }[] = [];
  try {
    for (const [issueType, findings] of subject) {
      outcomes.push({
        issueType,
        outcome: await app.triage.triage(
          issueType,
          findings.map((f) => f.id),
          input,
        ),
      });
    }
  } catch (error) {
    // Said once, here, with Try Again (and the note kept); other errors go to the command's report.
    if (!options.quiet && (error instanceof TriageRefusedError || error instanceof TriageInputError)) {
      offerRetry(app, subject, input, error.text);
      return outcomes.map((o) => o.outcome);
    }
    throw error;
  }
  if (!options.quiet) announce(app, outcomes, input, total(subject));
  return outcomes.map((o) => o.outcome);
}

function announce(app: TriageCommandsDeps, outcomes: readonly { issueType: IssueType; outcome: TriageOutcome }[], input: TriageInput, asked: number): void {
  const others = outcomes.reduce((n, { outcome }) => n + outcome.ids.length, 0) - asked;
  const done = input.state ? doneText(input.state, count(asked)) : t('Added the note to {0}', count(asked));
  const reason = input.state && input.reason ? t('{0} ({1})', done, valueLabel(input.reason)) : done;
  const what = input.state && input.note ? t('{0}, with the note', reason) : reason;
  const also =
    others === 0
      ? ''
      : others === 1
        ? ` ${t('The platform also triaged 1 copy on other branches.')}`
        : ` ${t('The platform also triaged {0} copies on other branches.', formatNumber(others))}`;
  const canUndo = input.state !== undefined && outcomes.some(({ outcome }) => outcome.before.length > 0);
  const undo = t('Undo');
  void showInformation(`${t('AppSec: {0}.', what)}${also}`, ...(canUndo ? [undo] : [])).then(async (picked) => {
    if (picked !== undo) return;
    try {
      let notesLeft = 0;
      for (const { issueType, outcome } of outcomes) notesLeft += (await app.triage.undo(issueType, outcome.before, input.note)).notesLeft;
      void showInformation(t('AppSec: {0}', undoneText(asked, notesLeft)));
    } catch (error) {
      void showError(t('AppSec: Undo failed: {0}', error instanceof Error ? error.message : String(error)));
    }
  });
}

/** The platform refused: say why, and keep what the user typed one click away. */
function offerRetry(app: TriageCommandsDeps, subject: Subject, input: TriageInput, message: string): void {
  const tryAgain = t('Try Again');
  const copyNote = t('Copy Note');
  const actions = input.note ? [tryAgain, copyNote] : [tryAgain];
  void showError(t('AppSec: {0}', message), ...actions).then(async (picked) => {
    if (picked === copyNote && input.note) await vscode.env.clipboard.writeText(input.note);
    if (picked === tryAgain) {
      const note = input.note === undefined ? undefined : await askNote(input.note);
      if (input.note !== undefined && note === undefined) return;
      await runTriage(app, subject, { ...input, ...(note !== undefined ? { note } : {}) }).catch(() => undefined);
    }
  });
}

async function askReason(): Promise<TriageReason | undefined> {
  const picked = await vscode.window.showQuickPick(
    TRIAGE_REASONS.map((reason) => ({ label: valueLabel(reason).replace(/^./, (c) => c.toUpperCase()), reason })),
    { title: t('AppSec: Ignore — why?'), placeHolder: t('The reason the platform records with the finding') },
  );
  return picked?.reason;
}

/** A note of at most 3 000 characters; undefined when dismissed ('' is "no note"). */
async function askNote(value = '', required = false): Promise<string | undefined> {
  return showInput({
    title: required ? t('AppSec: Add Note') : t('AppSec: Ignore — note (optional)'),
    prompt: t('Saved on the platform with the finding (at most {0} characters).', formatNumber(MAX_NOTE_LENGTH)),
    value,
    ignoreFocusOut: true,
    validateInput: (text) =>
      text.length > MAX_NOTE_LENGTH
        ? t('{0} characters: at most {1}.', formatNumber(text.length), formatNumber(MAX_NOTE_LENGTH))
        : required && text.trim() === ''
          ? t('Write the note.')
          : undefined,
  });
}

export async function ignore(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[]): Promise<TriageOutcome[] | undefined> {
  const subject = subjectOr(app, item, selected);
  if (total(subject) === 0) return runTriage(app, subject, { state: 'ignored' });
  const reason = await askReason();
  if (!reason) return undefined;
  const note = await askNote();
  if (note === undefined) return undefined;
  return runTriage(app, subject, { state: 'ignored', reason, ...(note.trim() ? { note } : {}) });
}

export function setState(
  app: TriageCommandsDeps,
  state: Exclude<TriageState, 'ignored'>,
  item?: CommandItem,
  selected?: readonly CommandItem[],
): Promise<TriageOutcome[]> {
  return runTriage(app, subjectOr(app, item, selected), { state });
}

export async function addNote(app: TriageCommandsDeps, item?: CommandItem, selected?: readonly CommandItem[]): Promise<TriageOutcome[] | undefined> {
  const subject = subjectOr(app, item, selected);
  if (total(subject) === 0) return runTriage(app, subject, {});
  const note = await askNote('', true);
  if (!note?.trim()) return undefined;
  return runTriage(app, subject, { note });
}

/** From the palette (no argument): what is selected in the Projects view. */
export function subjectOr(app: TriageCommandsDeps, item: CommandItem | undefined, selected: readonly CommandItem[] | undefined): Subject {
  return item === undefined ? subjectOf(undefined, app.selectedItems().map(itemOf)) : subjectOf(item, selected);
}

/**
 * `appsecFindings.triage` for automation and tests: `{ findingIds, issueType, state?, reason?,
 * note? }`, checked by TRIAGE_INPUT before this runs (the agent's triage tool takes the same);
 * no prompts, no messages; resolves when the platform's answer is applied or rolled back (then
 * it rejects with the reason).
 */
export async function triageCommand(app: TriageCommandsDeps, request: TriageRequest): Promise<TriageOutcome> {
  const { issueType, ids, state, reason, note } = request;
  return app.triage.triage(issueType, ids, { state, reason, note });
}
