/**
 * Triage and ticket commands. Each acts on one finding, a multi-selection in the tree, or every
 * finding of a group (a rule or a file); `appsecFindings.triage` is the automation form (no
 * prompts). The change itself is the triage service's: shown everywhere at once, rolled back
 * when the platform refuses. A refused triage offers Try Again with what the user typed.
 */
import * as vscode from 'vscode';
import { findingFrom, type App } from '../app';
import type { Finding, IssueType, TriageReason, TriageState } from '../core/model/types';
import { valueLabel } from '../core/services/filters';
import {
  MAX_NOTE_LENGTH, TRIAGE_REASONS, TriageInputError, TriageRefusedError, type TriageInput, type TriageOutcome,
} from '../core/services/triage-service';

export type TriageCommandsDeps = Pick<App, 'triage' | 'selectedItems'>;

/** The findings a command acts on, by issue type (one request per type). */
export type Subject = ReadonlyMap<IssueType, readonly Finding[]>;

/**
 * The findings of the arguments VS Code passes a tree command (the clicked node, and all
 * selected nodes when several are), a finding or diagnostic, or a findings group.
 */
export function subjectOf(arg: unknown, selected?: unknown): Subject {
  const items = Array.isArray(selected) && selected.length > 0 ? selected : [arg];
  const byType = new Map<IssueType, Map<number, Finding>>();
  const add = (finding: Finding): void => {
    let ofType = byType.get(finding.issueType);
    if (!ofType) byType.set(finding.issueType, (ofType = new Map<number, Finding>()));
    ofType.set(finding.id, finding);
  };
  for (const item of items) {
    const finding = findingFrom(item);
    if (finding) add(finding);
    else for (const grouped of groupFindings(item)) add(grouped);
  }
  return new Map([...byType].map(([type, findings]) => [type, [...findings.values()]]));
}

function groupFindings(item: unknown): readonly Finding[] {
  if (typeof item !== 'object' || item === null || !('group' in item)) return [];
  const group = (item as { group?: { findings?: unknown } }).group;
  return Array.isArray(group?.findings) ? (group.findings as Finding[]).filter((f) => findingFrom(f) !== undefined) : [];
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
      for (const { issueType, outcome } of outcomes) await app.triage.undo(issueType, outcome.before);
      void vscode.window.showInformationMessage(`AppSec: put ${count(asked)} back as ${asked === 1 ? 'it was' : 'they were'}.`);
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

export async function ignore(app: TriageCommandsDeps, arg: unknown, selected?: unknown): Promise<TriageOutcome[] | undefined> {
  const subject = subjectOr(app, arg, selected);
  if (total(subject) === 0) return runTriage(app, subject, { state: 'ignored' });
  const reason = await askReason();
  if (!reason) return undefined;
  const note = await askNote();
  if (note === undefined) return undefined;
  return runTriage(app, subject, { state: 'ignored', reason, ...(note.trim() ? { note } : {}) });
}

export function setState(app: TriageCommandsDeps, state: Exclude<TriageState, 'ignored'>, arg: unknown, selected?: unknown): Promise<TriageOutcome[]> {
  return runTriage(app, subjectOr(app, arg, selected), { state });
}

export async function addNote(app: TriageCommandsDeps, arg: unknown, selected?: unknown): Promise<TriageOutcome[] | undefined> {
  const subject = subjectOr(app, arg, selected);
  if (total(subject) === 0) return runTriage(app, subject, {});
  const note = await askNote('', true);
  if (!note?.trim()) return undefined;
  return runTriage(app, subject, { note });
}

/** From the palette (no argument): what is selected in the Projects view. */
export function subjectOr(app: TriageCommandsDeps, arg: unknown, selected: unknown): Subject {
  return arg === undefined ? subjectOf(undefined, app.selectedItems()) : subjectOf(arg, selected);
}

/**
 * `appsecFindings.triage` for automation and tests: `{ findingIds, issueType, state?, reason?,
 * note? }`, checked like typed input; no prompts, no messages; resolves when the platform's
 * answer is applied or rolled back (then it rejects with the reason).
 */
export async function triageCommand(app: TriageCommandsDeps, arg: unknown): Promise<TriageOutcome> {
  if (typeof arg !== 'object' || arg === null) throw new TriageInputError('appsecFindings.triage takes { findingIds, issueType, state?, reason?, note? }.');
  const { findingIds, issueType, state, reason, note } = arg as Record<string, unknown>;
  if (issueType !== 'sast' && issueType !== 'sca' && issueType !== 'secrets') throw new TriageInputError(`issueType must be "sast", "sca" or "secrets" (got ${JSON.stringify(issueType)}).`);
  if (!Array.isArray(findingIds)) throw new TriageInputError('findingIds must be a list of finding ids.');
  const ids = (findingIds as unknown[]).map((id): unknown => (typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id));
  if (!ids.every((id): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) throw new TriageInputError('findingIds must be whole numbers (or strings of digits).');
  for (const [name, value] of [['state', state], ['reason', reason], ['note', note]] as const) {
    if (value !== undefined && typeof value !== 'string') throw new TriageInputError(`${name} must be text.`);
  }
  return app.triage.triage(issueType, ids, { state: state as TriageState | undefined, reason: reason as TriageReason | undefined, note: note as string | undefined });
}
