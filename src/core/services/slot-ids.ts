/**
 * Every name of a slot of the findings store, in one place. A slot is where one reader shows one
 * answer (see `findings-store.ts`); its name says which reader, so a reader that hears the store
 * change asks `readerOf` instead of parsing another reader's names.
 */
import type { IssueType } from '../model/types';
import { queryKey, type FindingsQuery } from './findings-query';

/** Who shows an answer in a slot. */
export type SlotReader = 'tree' | 'problems' | 'scan' | 'baseline' | 'agent' | 'sarif';

/** The Projects tree's place: one kind of one project. */
export const treeSlot = (projectName: string, issueType: IssueType): string => `tree:${projectName}:${issueType}`;

/** A workspace folder's kind, on its own branch or, when that was never scanned, its primary branch. */
export const problemsSlot = (folderKey: string, which: 'branch' | 'primary', issueType: IssueType): string => `problems:${folderKey}:${which}:${issueType}`;

/** The question "was this ref scanned?" of one kind (`ref-scans.ts`), one slot per question, whoever asks it. */
export const scanSlot = (question: FindingsQuery): string => `scan:${queryKey(question)}`;

/** A primary branch's findings, which another branch's are compared with. */
export const baselineSlot = (projectName: string, issueType: IssueType): string => `baseline:${projectName}:${issueType}`;

/** A one-off reader's load (released once read). */
export const oneOffSlot = (reader: 'agent' | 'sarif', issueType: IssueType): string => `${reader}:${issueType}`;

const READERS: readonly SlotReader[] = ['tree', 'problems', 'scan', 'baseline', 'agent', 'sarif'];

/** Which reader a slot belongs to; undefined for a name none of these made. */
export function readerOf(slot: string): SlotReader | undefined {
  const reader = slot.slice(0, slot.indexOf(':'));
  return READERS.find((r) => r === reader);
}
