/**
 * Triage and ticket commands. Each acts on one finding, a multi-selection in the tree, or every
 * finding of a group (a rule or a file); `appsecFindings.triage` is the automation form (no
 * prompts). The change itself is the triage service's: shown everywhere at once, rolled back
 * when the platform refuses. A refused triage offers Try Again with what the user typed.
 */
import * as vscode from 'vscode';
import type { Finding, IssueType, TriageReason } from '../core/model/types';
import type { TriageState } from '../core/model/triage-and-tickets';
import { valueLabel } from '../core/services/filters';
import {
  MAX_NOTE_LENGTH, TRIAGE_REASONS, TriageInputError, TriageRefusedError, undoneText, type TriageInput, type TriageOutcome,
} from '../core/services/triage-service';
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

const count = (n: number, noun = 'finding'): string => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
const total = (subject: Subject): number => [...subject.values()].reduce((n, list) => n + list.length, 0);

const DONE: Record<TriageState, string> = { ignored: 'Ignored', reviewing: 'Marked as reviewing', fixing: 'Marked as fixing', reopened: 'Reopened' };

/** Sends the triage per issue type; says what was done, with Undo; a refusal offers Try Again. */
export async function runTriage(app: TriageCommandsDeps, subject: Subject, input: TriageInput, options: { quiet?: boolean } = {}): Promise<TriageOutcome[]> {
  if (total(subject) === 0) {
    if (!options.quiet) void vscode.window.showInformationMessage('AppSec: select one or more findings (or a rule or file group) to triage.');
    return [];
  }
  const outcomes: { issueType: IssueType; outcome: TriageOutcome }[] = [];
  try {
    for (const [issueType, findings] of subject) {
      outcomes.push({ issueType, outcome: await app.triage.triage(issueType, findings.map((f) => f.id), input) });
    }
  } catch (error) {
    // Said once, here, with Try Again (and the note kept); other errors go to the command's report.
    if (!options.quiet && (error instanceof TriageRefusedError || error instanceof TriageInputError)) {
      offerRetry(app, subject, input, error.message);
      return outcomes.map((o) => o.outcome);
    }
    throw error;
  }
  if (!options.quiet) announce(app, outcomes, input, total(subject));
  return outcomes.map((o) => o.outcome);
}

function announce(app: TriageCommandsDeps, outcomes: readonly { issueType: IssueType; outcome: TriageOutcome }[], input: TriageInput, asked: number): void {
  const others = outcomes.reduce((n, { outcome }) => n + outcome.ids.length, 0) - asked;
  const what = input.state
    ? `${DONE[input.state]} ${count(asked)}${input.reason ? ` (${valueLabel(input.reason)})` : ''}${input.note ? ', with the note' : ''}`
    : `Added the note to ${count(asked)}`;
  const also = others > 0 ? ` The platform also triaged ${count(others, 'copy')} on other branches.` : '';
  const canUndo = input.state !== undefined && outcomes.some(({ outcome }) => outcome.before.length > 0);
  void vscode.window.showInformationMessage(`AppSec: ${what}.${also}`, ...(canUndo ? ['Undo'] : [])).then(async (picked) => {
    if (picked !== 'Undo') return;
    try {
      let notesLeft = 0;
      for (const { issueType, outcome } of outcomes) notesLeft += (await app.triage.undo(issueType, outcome.before, input.note)).notesLeft;
      void vscode.window.showInformationMessage(`AppSec: ${undoneText(asked, notesLeft)}`);
    } catch (error) {
      void vscode.window.showErrorMessage(`AppSec: Undo failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** The platform refused: say why, and keep what the user typed one click away. */
function offerRetry(app: TriageCommandsDeps, subject: Subject, input: TriageInput, message: string): void {
  const actions = input.note ? ['Try Again', 'Copy Note'] : ['Try Again'];
  void vscode.window.showErrorMessage(`AppSec: ${message}`, ...actions).then(async (picked) => {
    if (picked === 'Copy Note' && input.note) await vscode.env.clipboard.writeText(input.note);
    if (picked === 'Try Again') {
      const note = input.note === undefined ? undefined : await askNote(input.note);
      if (input.note !== undefined && note === undefined) return;
      await runTriage(app, subject, { ...input, ...(note !== undefined ? { note } : {}) }).catch(() => undefined);
    }
  });
}

async function askReason(): Promise<TriageReason | undefined> {
  const picked = await vscode.window.showQuickPick(
    TRIAGE_REASONS.map((reason) => ({ label: valueLabel(reason).replace(/^./, (c) => c.toUpperCase()), reason })),
    { title: 'AppSec: Ignore — why?', placeHolder: 'The reason the platform records with the finding' },
  );
  return picked?.reason;
}

/** A note of at most 3 000 characters; undefined when dismissed ('' is "no note"). */
async function askNote(value = '', required = false): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: required ? 'AppSec: Add Note' : 'AppSec: Ignore — note (optional)',
    prompt: `Saved on the platform with the finding (at most ${MAX_NOTE_LENGTH.toLocaleString('en-US')} characters).`,
    value,
    ignoreFocusOut: true,
    validateInput: (text) => text.length > MAX_NOTE_LENGTH ? `${text.length.toLocaleString('en-US')} characters: at most ${MAX_NOTE_LENGTH.toLocaleString('en-US')}.`
      : required && text.trim() === '' ? 'Write the note.' : undefined,
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

export function setState(app: TriageCommandsDeps, state: Exclude<TriageState, 'ignored'>, item?: CommandItem, selected?: readonly CommandItem[]): Promise<TriageOutcome[]> {
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
