/**
 * A project's settings on the platform: its tags (added and removed), its primary branch (what
 * "new on this branch" compares with) and its managed scans. Each change shows at once and is
 * rolled back when refused (`ProjectsService.changes`); automation that gives the change runs
 * it without prompts. A refusal is reported here, with what stayed as it was.
 */
import * as vscode from 'vscode';
import { showError, showInformation, showWarning, withProgress } from '../host/notify';
import { primaryRef } from '../core/model/refs';
import type { ManagedScans, Project } from '../core/model/types';
import { managedScansOf, sameScans, TagsNotRemoved } from '../core/services/project-changes';
import { pickPrimaryBranch } from '../host/branch-picker';
import { pickManagedScans } from '../host/managed-scans-picker';
import { managedScansChange, managedScansText, primaryName, tagEditText, type TagDraft } from '../host/project-settings-text';
import { boolean, listOf, noSuchOption, object, optional, text, type Infer } from '../host/schema';
import { pickTagEdit } from '../host/tag-editor';
import { errorText, isCancellation, reportError } from '../host/user-errors';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { resolveProject } from './project-commands';
import { said, t } from '../core/l10n';

export type ProjectSettingsDeps = Pick<CommandDeps, 'projects' | 'repos' | 'session' | 'baselines' | 'logger' | 'scans'>;

export const TAG_CHANGES = object(
  {
    add: optional(listOf(text('Each tag to add is text.'), 'add is a list of tags.')),
    remove: optional(listOf(text('Each tag to remove is text.'), 'remove is a list of tags.')),
  },
  'editTags takes { add?: string[], remove?: string[] }.',
  noSuchOption('editTags'),
);
export type TagChanges = Infer<typeof TAG_CHANGES>;

export const MANAGED_SCANS_CHANGE = object(
  {
    diffScan: optional(boolean('diffScan must be true or false.')),
    fullScan: optional(boolean('fullScan must be true or false.')),
  },
  'setManagedScans takes { diffScan?: boolean, fullScan?: boolean }.',
  noSuchOption('setManagedScans'),
);
export type ManagedScansChange = Infer<typeof MANAGED_SCANS_CHANGE>;

/** The project named by the item as the service holds it now; without one, picked from the list. */
async function projectOf(app: ProjectSettingsDeps, item: CommandItem | undefined): Promise<Project | undefined> {
  const name = item?.project?.name ?? item?.text;
  if (name === undefined) return resolveProject(app, item);
  const held = app.projects.find(name) ?? item?.project;
  if (held) return held;
  await app.projects.load();
  const listed = app.projects.find(name);
  if (!listed) throw new Error(t('The deployment has no project named "{0}".', name));
  return listed;
}

/** Shown in the status bar while the platform is asked: the change itself is shown already. */
function asking<T>(title: string, work: Promise<T>): Promise<T> {
  return Promise.resolve(withProgress({ location: vscode.ProgressLocation.Window, title }, () => work));
}

const inform = (message: string): void => void showInformation(t('AppSec: {0}', message));

/**
 * `editTags(project?, { add?, remove? })`: without changes, the tags picker. Refused, it resolves
 * with undefined at once; the message offers to edit again from what was asked (the ticks and
 * the text), so nothing typed is lost.
 */
export async function editTags(app: ProjectSettingsDeps, item?: CommandItem, changes?: TagChanges): Promise<Project | undefined> {
  const project = await projectOf(app, item);
  if (!project) return undefined;
  if (!changes) return editInPicker(app, project, undefined);
  // Automation's tags are taken one by one (a comma in one is refused); the picker's text is split.
  const draft = { unchecked: changes.remove ?? [], typed: (changes.add ?? []).join(', ') };
  return applyTags(app, project, { add: changes.add ?? [], remove: changes.remove ?? [] }, draft);
}

/** The picker on the project as it is shown now, opened from `draft` when given. */
async function editInPicker(app: ProjectSettingsDeps, project: Project, draft: TagDraft | undefined): Promise<Project | undefined> {
  const accepted = await pickTagEdit(app.projects.find(project.name) ?? project, draft);
  if (!accepted) return undefined;
  const add = accepted.typed
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  return applyTags(app, project, { add, remove: accepted.unchecked }, accepted);
}

async function applyTags(
  app: ProjectSettingsDeps,
  project: Project,
  request: { readonly add: readonly string[]; readonly remove: readonly string[] },
  draft: TagDraft,
): Promise<Project | undefined> {
  const { name } = project;
  try {
    const outcome = await asking(t('AppSec: changing the tags of {0}…', name), app.projects.changes.editTags(name, request));
    inform(tagEditText(name, outcome));
    return outcome.project;
  } catch (error) {
    // Added already: only what was not removed is asked again.
    offerToEditAgain(app, project, error, error instanceof TagsNotRemoved ? { unchecked: error.notRemoved, typed: '' } : draft);
    return undefined;
  }
}

/** Logs and shows a refused edit; "Edit Again" opens the picker from `draft`. */
function offerToEditAgain(app: ProjectSettingsDeps, project: Project, error: unknown, draft: TagDraft): void {
  if (isCancellation(error)) return;
  const { name } = project;
  const log = app.logger('Projects');
  const partial = error instanceof TagsNotRemoved;
  const context = partial
    ? said('Added {0} to {1}, but {2} could not be removed', error.added.join(', '), name, error.notRemoved.join(', '))
    : said('The tags of {0} are unchanged', name);
  log.error(context.english, partial ? error.reason : error);
  const editAgain = t('Edit Again');
  const showLogs = t('Show Logs');
  void showError(t('AppSec: {0}. {1}', context.text, errorText(partial ? error.reason : error)), editAgain, showLogs)
    .then(async (picked) => {
      if (picked === showLogs) await vscode.commands.executeCommand('appsecFindings.showLogs');
      if (picked === editAgain) await editInPicker(app, project, draft);
    })
    .then(undefined, (again: unknown) => log.error(`Editing the tags of ${name} again failed`, again));
}

/**
 * `setPrimaryBranch(project?, branch?)`: a branch name, or `default` for the default branch;
 * without one, the picker. Resolves once "new on this branch" compares with the new branch
 * (its findings are loaded).
 */
export async function setPrimaryBranch(app: ProjectSettingsDeps, item?: CommandItem, branch?: string): Promise<Project | undefined> {
  const project = await projectOf(app, item);
  if (!project) return undefined;
  const deployment = app.session.deployment;
  if (!deployment) throw new Error(t("Sign in to change a project's primary branch."));
  const chosen =
    branch !== undefined
      ? { branch: branch.trim() === 'default' ? undefined : branch.trim() }
      : await pickPrimaryBranch(project, async (signal) => (await app.scans.branches(deployment.slug, project.name, { force: true, signal })) ?? []);
  if (!chosen) return undefined;
  const making =
    chosen.branch === undefined
      ? t('AppSec: making the default branch the primary branch of {0}…', project.name)
      : t('AppSec: making {0} the primary branch of {1}…', chosen.branch, project.name);
  try {
    const { project: updated, changed } = await asking(making, app.projects.changes.setPrimaryBranch(project.name, chosen.branch));
    if (!changed) {
      inform(t('Nothing to change: the primary branch of {0} is {1} already. Nothing was sent.', project.name, primaryName(updated)));
      return updated;
    }
    // The project now names the new branch: its findings are what new findings are told apart from.
    await app.baselines.ensure(deployment.slug, project.name, true);
    const ref = primaryRef(updated);
    inform(
      ref
        ? t('The primary branch of {0} is now {1}: findings {2} does not have are new on their branch.', project.name, primaryName(updated), ref)
        : t('The primary branch of {0} is now {1}: findings it does not have are new on their branch.', project.name, primaryName(updated)),
    );
    return app.projects.find(project.name) ?? updated;
  } catch (error) {
    void reportError(said('The primary branch of {0} is still {1}', project.name, primaryName(project)), error, app.logger('Projects'));
    return undefined;
  }
}

/**
 * `setManagedScans(project?, { diffScan?, fullScan? })`: without a change, the picker and a
 * confirmation saying what changes; an omitted setting keeps its value.
 */
export async function setManagedScans(app: ProjectSettingsDeps, item?: CommandItem, change?: ManagedScansChange): Promise<ManagedScans | undefined> {
  const project = await projectOf(app, item);
  if (!project) return undefined;
  let wanted = change;
  try {
    if (!wanted) {
      const picked = await pickManagedScans(project, async (signal) => managedScansOf(await app.projects.loadDetails(project.name, signal)));
      if (!picked) return undefined;
      const { before, wanted: ticked } = picked;
      if (!sameScans(before, ticked)) {
        const { message, detail } = managedScansChange(project.name, before, ticked);
        const apply = t('Apply');
        if ((await showWarning(message, { modal: true, detail }, apply)) !== apply) return undefined;
      }
      wanted = { diffScan: ticked.diffScanEnabled, fullScan: ticked.fullScanEnabled };
    }
    const outcome = await asking(t('AppSec: changing the managed scans of {0}…', project.name), app.projects.changes.setManagedScans(project.name, wanted));
    inform(
      outcome.changed
        ? t('Managed scans of {0}: {1}.', project.name, managedScansText(outcome.scans))
        : t('Nothing to change: the managed scans of {0} are {1} already. Nothing was sent.', project.name, managedScansText(outcome.scans)),
    );
    return outcome.scans;
  } catch (error) {
    void reportError(said('The managed scans of {0} are unchanged', project.name), error, app.logger('Projects'));
    return undefined;
  }
}
