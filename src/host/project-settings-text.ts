/**
 * What the pickers and messages of a project's settings say: the typed tags' row, the branches
 * to choose the primary branch from, and a change of managed scans in words. Pure (no `vscode`),
 * tested in Node, so each picker only wires these into VS Code.
 */
import { primaryRef } from '../core/model/refs';
import type { ManagedScans, Project } from '../core/model/types';
import { checkBranchName, type TagEditOutcome } from '../core/services/project-changes';
import { typedTags } from '../core/services/project-tags';

const list = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** What the tags picker holds when it is closed: the project's tags left unticked, and the text typed. */
export interface TagDraft {
  readonly unchecked: readonly string[];
  readonly typed: string;
}

/**
 * The first row of the tags picker for the text typed: the new tags, or what is wrong with them;
 * with nothing typed, how to add some. The label starts with the text itself, so the picker's
 * filter keeps the row first.
 */
export function typedRow(typed: string, current: readonly string[]): { readonly label: string; readonly description: string; readonly detail?: string; readonly tags?: readonly string[] } {
  const tags = typedTags(typed);
  const text = typed.trim();
  if (typeof tags === 'string') return { label: `$(error) ${text}`, description: 'cannot be added', detail: tags };
  if (tags.length === 0) return { label: '$(add) New tags', description: 'type them, comma-separated', tags };
  const had = tags.filter((t) => current.includes(t));
  const fresh = tags.filter((t) => !current.includes(t));
  const description = fresh.length === 0
    ? `Add: nothing new (${list(had)} ${had.length === 1 ? 'is' : 'are'} there already)`
    : `Add: ${fresh.join(', ')}${had.length > 0 ? ` (${list(had)} ${had.length === 1 ? 'is' : 'are'} there already)` : ''}`;
  return { label: `$(add) ${text}`, description, tags };
}

/** What an edit of tags did, for the message after it. */
export function tagEditText(name: string, edit: Omit<TagEditOutcome, 'project'>): string {
  const done = [edit.added.length > 0 ? `added ${edit.added.join(', ')}` : '', edit.removed.length > 0 ? `removed ${edit.removed.join(', ')}` : ''].filter(Boolean);
  const skipped = [
    edit.had.length > 0 ? `${name} already has ${list(edit.had)}` : '',
    edit.lacked.length > 0 ? `${edit.had.length > 0 ? 'it' : name} does not have ${list(edit.lacked)}` : '',
  ].filter(Boolean).join(' and ');
  if (done.length === 0) return `Nothing to change${skipped ? `: ${skipped}` : ''}. Nothing was sent.`;
  return `${name}: ${done.join('; ')}.`;
}

/** A row of the primary-branch picker: `branch` undefined is the default branch; a separator has no choice. */
export interface BranchRow {
  readonly label: string;
  readonly description?: string;
  readonly separator?: true;
  readonly current?: true;
  readonly choice?: { readonly branch: string | undefined };
}

/**
 * The primary-branch picker's rows: the default branch, then the branches with scans (most
 * recent first; `undefined` while they load), the primary branch marked. A primary branch
 * without a recent scan is listed too. `typed`: a branch typed that the list lacks.
 */
export function branchRows(project: Project, scanned: readonly string[] | undefined, typed = ''): BranchRow[] {
  const primary = project.primaryBranch;
  const rows: BranchRow[] = [];
  const name = typed.trim();
  if (name !== '' && name !== 'default' && !scanned?.includes(name) && name !== primary) {
    const problem = checkBranchName(name);
    rows.push(problem ? { label: `$(error) ${name}`, description: problem } : { label: `$(edit) ${name}`, description: 'a branch typed', choice: { branch: name } });
  }
  rows.push({
    label: '$(home) The default branch',
    description: [project.defaultBranch ?? 'as the platform names it', primary === undefined ? 'primary now' : ''].filter(Boolean).join(' · '),
    choice: { branch: undefined }, ...(primary === undefined ? { current: true as const } : {}),
  });
  const branches = [...(scanned ?? [])];
  if (primary !== undefined && !branches.includes(primary)) branches.unshift(primary);
  if (branches.length > 0) rows.push({ label: scanned ? 'Branches with scans, most recent first' : 'Branches', separator: true });
  for (const branch of branches) {
    const notes = [branch === primary ? 'primary now' : '', branch === project.defaultBranch ? 'default branch' : '', scanned && !scanned.includes(branch) ? 'no recent scan' : ''];
    rows.push({ label: `$(git-branch) ${branch}`, description: notes.filter(Boolean).join(' · ') || undefined, choice: { branch }, ...(branch === primary ? { current: true as const } : {}) });
  }
  return rows;
}

/** "develop", or "the default branch (main)". */
export function primaryName(project: Project): string {
  return project.primaryBranch ?? `the default branch${primaryRef(project) ? ` (${primaryRef(project)})` : ''}`;
}

/** The two managed scans, in the words of the picker. */
export const MANAGED_SCANS = [
  { key: 'diffScanEnabled', label: 'Diff-aware scans of pull requests', detail: 'The platform scans the changes of each pull request.' },
  { key: 'fullScanEnabled', label: 'Full scans of the repository', detail: 'The platform scans the whole repository on its own.' },
] as const;

/** The confirmation of a change of managed scans: what changes, and what stays. */
export function managedScansChange(name: string, before: ManagedScans, after: ManagedScans): { readonly message: string; readonly detail: string } {
  const lines = MANAGED_SCANS.map(({ key, label }) => before[key] === after[key]
    ? `${label} stay ${after[key] ? 'on' : 'off'}.`
    : `${label} will be turned ${after[key] ? 'on' : 'off'}.`);
  const changed = MANAGED_SCANS.filter(({ key }) => before[key] !== after[key]).length;
  return { message: `Change ${plural(changed, 'managed scan setting', 'managed scan settings')} of ${name}?`, detail: `${lines.join('\n')}\nThis changes the project for everyone in the organization.` };
}

/** "diff-aware scans on, full scans off". */
export function managedScansText(scans: ManagedScans): string {
  return `diff-aware scans ${scans.diffScanEnabled ? 'on' : 'off'}, full scans ${scans.fullScanEnabled ? 'on' : 'off'}`;
}
