/**
 * What the pickers and messages of a project's settings say: the typed tags' row, the branches
 * to choose the primary branch from, and a change of managed scans in words. Pure (no `vscode`),
 * tested in Node, so each picker only wires these into VS Code.
 */
import { formatCount, t } from '../core/l10n';
import { primaryRef } from '../core/model/refs';
import type { ManagedScans, Project } from '../core/model/types';
import { checkBranchName, type TagEditOutcome } from '../core/services/project-changes';
import { typedTags } from '../core/services/project-tags';
import { inertIcons } from '../core/model/untrusted-text';
import { sameBranch } from '../core/model/refs';

const list = (items: readonly string[]): string =>
  items.length <= 1 ? items.join('') : t('{0} and {1}', items.slice(0, -1).join(', '), items[items.length - 1] ?? '');

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
export function typedRow(
  typed: string,
  current: readonly string[],
): { readonly label: string; readonly description: string; readonly detail?: string; readonly tags?: readonly string[] } {
  const tags = typedTags(typed);
  const text = typed.trim();
  if (typeof tags === 'string') return { label: `$(error) ${text}`, description: t('cannot be added'), detail: tags };
  if (tags.length === 0) return { label: `$(add) ${t('New tags')}`, description: t('type them, comma-separated'), tags };
  const had = tags.filter((tag) => current.includes(tag));
  const fresh = tags.filter((tag) => !current.includes(tag));
  const there = had.length === 1 ? t('{0} is there already', list(had)) : t('{0} are there already', list(had));
  const description =
    fresh.length === 0 ? t('Add: nothing new ({0})', there) : had.length > 0 ? t('Add: {0} ({1})', fresh.join(', '), there) : t('Add: {0}', fresh.join(', '));
  return { label: `$(add) ${text}`, description, tags };
}

/** What an edit of tags did, for the message after it. */
export function tagEditText(name: string, edit: Omit<TagEditOutcome, 'project'>): string {
  const done = [
    edit.added.length > 0 ? t('added {0}', edit.added.join(', ')) : '',
    edit.removed.length > 0 ? t('removed {0}', edit.removed.join(', ')) : '',
  ].filter(Boolean);
  if (done.length > 0) return t('{0}: {1}.', name, done.join('; '));
  const has = list(edit.had);
  const lacks = list(edit.lacked);
  if (edit.had.length > 0 && edit.lacked.length > 0)
    return t('Nothing to change: {0} already has {1} and it does not have {2}. Nothing was sent.', name, has, lacks);
  if (edit.had.length > 0) return t('Nothing to change: {0} already has {1}. Nothing was sent.', name, has);
  if (edit.lacked.length > 0) return t('Nothing to change: {0} does not have {1}. Nothing was sent.', name, lacks);
  return t('Nothing to change. Nothing was sent.');
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
  if (name !== '' && name !== 'default' && !scanned?.some((b) => sameBranch(b, name)) && !sameBranch(name, primary)) {
    const problem = checkBranchName(name);
    rows.push(
      problem ? { label: `$(error) ${name}`, description: problem } : { label: `$(edit) ${name}`, description: t('a branch typed'), choice: { branch: name } },
    );
  }
  rows.push({
    label: `$(home) ${t('The default branch')}`,
    description: [project.defaultBranch ?? t('as the platform names it'), primary === undefined ? t('primary now') : ''].filter(Boolean).join(' · '),
    choice: { branch: undefined },
    ...(primary === undefined ? { current: true as const } : {}),
  });
  const branches = [...(scanned ?? [])];
  // The platform may spell the primary branch in full (refs/heads/main) and the scans short: it is one row.
  if (primary !== undefined && !branches.some((b) => sameBranch(b, primary))) branches.unshift(primary);
  if (branches.length > 0) rows.push({ label: scanned ? t('Branches with scans, most recent first') : t('Branches'), separator: true });
  for (const branch of branches) {
    const notes = [
      sameBranch(branch, primary) ? t('primary now') : '',
      sameBranch(branch, project.defaultBranch) ? t('default branch') : '',
      scanned && !scanned.some((b) => sameBranch(b, branch)) ? t('no recent scan') : '',
    ];
    rows.push({
      label: `$(git-branch) ${inertIcons(branch)}`,
      description: notes.filter(Boolean).join(' · ') || undefined,
      choice: { branch },
      ...(sameBranch(branch, primary) ? { current: true as const } : {}),
    });
  }
  return rows;
}

/** "develop", or "the default branch (main)". */
export function primaryName(project: Project): string {
  const ref = primaryRef(project);
  return project.primaryBranch ?? (ref ? t('the default branch ({0})', ref) : t('the default branch'));
}

export type ManagedScanKey = 'diffScanEnabled' | 'fullScanEnabled';

/** The two managed scans, in the words of the picker (in the display language: built when asked). */
export function managedScanRows(): readonly { readonly key: ManagedScanKey; readonly label: string; readonly detail: string }[] {
  return [
    { key: 'diffScanEnabled', label: t('Diff-aware scans of pull requests'), detail: t('The platform scans the changes of each pull request.') },
    { key: 'fullScanEnabled', label: t('Full scans of the repository'), detail: t('The platform scans the whole repository on its own.') },
  ];
}

/** "Diff-aware scans of pull requests will be turned off." */
function scanLine(key: ManagedScanKey, before: boolean, after: boolean): string {
  const diff = key === 'diffScanEnabled';
  if (before === after) {
    if (diff) return after ? t('Diff-aware scans of pull requests stay on.') : t('Diff-aware scans of pull requests stay off.');
    return after ? t('Full scans of the repository stay on.') : t('Full scans of the repository stay off.');
  }
  if (diff) return after ? t('Diff-aware scans of pull requests will be turned on.') : t('Diff-aware scans of pull requests will be turned off.');
  return after ? t('Full scans of the repository will be turned on.') : t('Full scans of the repository will be turned off.');
}

/** The confirmation of a change of managed scans: what changes, and what stays. */
export function managedScansChange(name: string, before: ManagedScans, after: ManagedScans): { readonly message: string; readonly detail: string } {
  const keys: readonly ManagedScanKey[] = ['diffScanEnabled', 'fullScanEnabled'];
  const lines = keys.map((key) => scanLine(key, before[key], after[key]));
  const changed = keys.filter((key) => before[key] !== after[key]).length;
  return {
    message: changed === 1 ? t('Change 1 managed scan setting of {0}?', name) : t('Change {0} managed scan settings of {1}?', formatCount(changed), name),
    detail: `${lines.join('\n')}\n${t('This changes the project for everyone in the organization.')}`,
  };
}

/** "diff-aware scans on, full scans off". */
export function managedScansText(scans: ManagedScans): string {
  const diff = scans.diffScanEnabled ? t('diff-aware scans on') : t('diff-aware scans off');
  const full = scans.fullScanEnabled ? t('full scans on') : t('full scans off');
  return `${diff}, ${full}`;
}
