/** Opening findings (in the editor or the platform) and copying their ids. */
import * as vscode from 'vscode';
import { showInformation, showWarning } from '../host/notify';
import { t } from '../core/l10n';
import type { Finding } from '../core/model/types';
import { distinctName } from '../core/model/finding-names';
import { confinePath, reportedLocationsOf, toPlannedRange, type ReportedLocation } from '../core/workspace/diagnostic-plan';
import { isFindingDiagnostic, safeLink, toRange, type KnownFindingDiagnostic } from '../diagnostics/finding-diagnostic';
import { codeColumn } from '../webviews/details-code';
import type { CommandDeps } from './command-deps';
import type { CommandItem } from './command-item';
import { fixSaving } from '../host/fix-saving';
import { branchName } from '../core/model/refs';
import { scannedFileUri } from '../code-places/scanned-files';
import { showCode } from '../code-places/show-code';
import { kindOf } from '../core/model/finding-kinds';

/** Opening and copying findings needs the workspace folders, the platform link and the clipboard. */
export type FindingCommandsDeps = Pick<CommandDeps, 'repos' | 'findingUrl' | 'projectUrl' | 'clipboard' | 'places'>;

/** The file of a finding's place inside a workspace folder matched to its project, if it exists there. */
async function workspaceFile(app: FindingCommandsDeps, finding: Finding, place: ReportedLocation | undefined): Promise<vscode.Uri | undefined> {
  const relative = place && confinePath(place.path);
  if (!relative) return undefined;
  for (const repo of app.repos.repos()) {
    if (finding.repositoryName && repo.projectName !== finding.repositoryName) continue;
    const uri = await existing(vscode.Uri.joinPath(repo.folder.uri, relative));
    if (uri) return uri;
  }
  return undefined;
}

/** The URI when a file is there, else undefined. */
async function existing(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
  try {
    await vscode.workspace.fs.stat(uri);
    return uri;
  } catch {
    return undefined;
  }
}

/** Opens the file at the finding's range, or the platform's line link when the file is not here. */
export async function openFinding(app: FindingCommandsDeps, item?: CommandItem): Promise<'editor' | 'browser' | undefined> {
  const finding = item?.finding;
  if (!finding) return undefined;
  // The same place as its diagnostic: a supply-chain finding's usage, else its lockfile line,
  // where that code is today when the copy moved on since the scan.
  const today = app.places.place(finding);
  const place = reportedLocationsOf(finding)[0];
  const todayUri = today && today.kind !== 'deleted' ? await existing(today.uri) : undefined;
  const uri = todayUri ?? (await workspaceFile(app, finding, place));
  const planned = todayUri && today && today.kind !== 'deleted' ? today.range : place && toPlannedRange(place);
  const repo = app.places.repoOf(finding);
  const relative = place && confinePath(place.path);
  if (today?.kind === 'deleted' && today.onlyAt !== undefined && repo && relative) {
    // Its code is on a branch this checkout does not include: that file, as it is there.
    const branch = finding.ref ? branchName(finding.ref) : today.onlyAt.slice(0, 7);
    void showInformation(t("AppSec: this finding's code is not in this copy yet (it is on {0}): showing the file as it is there, read-only.", branch));
    const selection = planned ? toRange(planned.wholeLine ? { ...planned, endCharacter: 0 } : planned) : undefined;
    await showCode(scannedFileUri(repo.folder, today.onlyAt, relative), selection, { preview: true, viewColumn: codeColumn() });
    return 'editor';
  }
  if (today?.kind === 'deleted' && uri) {
    void showInformation(t('AppSec: the code of this finding is no longer in this copy (deleted since the scan); opening the file instead.'));
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: codeColumn() });
    return 'editor';
  }
  if (uri) {
    const selection = planned ? toRange(planned.wholeLine ? { ...planned, endCharacter: 0 } : planned) : undefined;
    await showCode(uri, selection, { preview: true, viewColumn: codeColumn() });
    return 'editor';
  }
  const link = safeLink(finding.lineOfCodeUrl) ?? safeLink(app.findingUrl(finding));
  if (link) {
    await vscode.env.openExternal(link);
    return 'browser';
  }
  void showWarning(t('AppSec: {0} is not in the workspace, and the platform sent no link to it.', finding.location?.filePath ?? t("this finding's file")));
  return undefined;
}

/**
 * Opens the platform's own page of a finding or project (never the code host's: that is
 * "Open on GitHub/GitLab"), or a rule's page (http/https links only).
 */
export async function openInPlatform(app: FindingCommandsDeps, item?: CommandItem): Promise<boolean> {
  const finding = item?.finding;
  const project = finding ? undefined : item?.project;
  const url = finding ? app.findingUrl(finding) : project ? app.projectUrl(project) : item?.rule?.url;
  return openLink(url, t('AppSec: there is no platform page for this item (sign in to open findings and projects in the platform).'));
}

/** Opens the scanned code of a finding, or a project's repository, on its code host (GitHub, GitLab, …). */
export async function openOnCodeHost(item?: CommandItem): Promise<boolean> {
  const finding = item?.finding;
  return openLink(finding ? finding.lineOfCodeUrl : item?.url, t('AppSec: the platform sent no link to the code for this item.'));
}

async function openLink(url: string | undefined, missing: string): Promise<boolean> {
  const link = safeLink(url);
  if (!link) {
    void showWarning(missing);
    return false;
  }
  return vscode.env.openExternal(link);
}

/** Copies the platform's link of a finding or project, to paste in a ticket or a chat. */
export async function copyLink(app: FindingCommandsDeps, item?: CommandItem): Promise<string | undefined> {
  const finding = item?.finding;
  const project = finding ? undefined : item?.project;
  const url = finding ? app.findingUrl(finding) : project ? app.projectUrl(project) : undefined;
  if (!url) {
    void showWarning(t('AppSec: sign in to copy the platform link of a finding or project.'));
    return undefined;
  }
  await app.clipboard.writeText(url);
  return url;
}

export async function copyFindingId(app: FindingCommandsDeps, item?: CommandItem): Promise<string | undefined> {
  const finding = item?.finding;
  if (!finding) return undefined;
  await app.clipboard.writeText(String(finding.id));
  return String(finding.id);
}

export async function copyRuleId(app: FindingCommandsDeps, item?: CommandItem): Promise<string | undefined> {
  const rule = item?.finding?.ruleName ?? item?.rule?.path;
  if (!rule) return undefined;
  await app.clipboard.writeText(rule);
  return rule;
}

/**
 * Opens the Finding Details panel: for a finding node, diagnostic or finding; without one (the
 * palette, a key binding), for the finding under the cursor, else the tree's selected finding.
 * The cursor comes first: the tree keeps its selection while the user works in the editor.
 */
export async function showDetails(app: Pick<CommandDeps, 'showDetails'>, item?: CommandItem, selected?: () => CommandItem | undefined): Promise<boolean> {
  const finding = item?.finding ?? findingAtCursor() ?? selected?.()?.finding;
  if (!finding) {
    void showInformation(t('AppSec: select a finding in the tree, or put the cursor on a finding in the editor, to see its details.'));
    return false;
  }
  await app.showDetails(finding);
  return true;
}

/**
 * Run by VS Code right after the quick fix's edit: says what changed (whether the file still waits
 * to be saved, from its real state and auto-save, and that the platform lists the finding until a
 * scan no longer finds it), with Undo, and Save where it waits. Returns at
 * once; the message stays until it is answered.
 */
export function fixApplied(app: Pick<CommandDeps, 'places'>, item?: CommandItem): boolean {
  const finding = item?.finding;
  if (!finding) return false;
  const place = app.places.place(finding);
  const uri = place && place.kind !== 'deleted' ? place.uri : vscode.window.activeTextEditor?.document.uri;
  const document = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const fixedVersion = document?.version;
  const undo = t('Undo');
  const save = t('Save');
  const saving = document ? fixSaving(document) : 'unsaved';
  const name = distinctName(finding);
  const said =
    saving === 'saved'
      ? t('AppSec: Applied the suggested fix for {0}; the file is saved. The platform lists the finding until a scan no longer finds it.', name)
      : saving === 'autoSave'
        ? t('AppSec: Applied the suggested fix for {0}; auto-save saves the file. The platform lists the finding until a scan no longer finds it.', name)
        : t('AppSec: Applied the suggested fix for {0}, not saved yet. The platform lists the finding until a scan no longer finds it.', name);
  void showInformation(said, ...(document ? (saving === 'unsaved' ? [undo, save] : [undo]) : [])).then(async (picked) => {
    if (!document) return;
    if (picked === save) await document.save();
    if (picked === undo) {
      // Undo takes back the last edit: only the fix's while nothing was typed after it.
      if (document.version !== fixedVersion) {
        void showWarning(t('AppSec: the file changed after the fix, so Undo here would take back your later edits. Use Undo in the editor, step by step.'));
        return;
      }
      await vscode.window.showTextDocument(document, { viewColumn: codeColumn() });
      await vscode.commands.executeCommand('undo');
    }
  });
  return true;
}

/** The first of our findings whose diagnostic covers the cursor in the active editor. */
export function findingAtCursor(): Finding | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const at = editor.selection.active;
  const diagnostic = vscode.languages.getDiagnostics(editor.document.uri).find((d) => isFindingDiagnostic(d) && d.range.contains(at)) as
    KnownFindingDiagnostic | undefined;
  return diagnostic?.finding;
}

/**
 * Shows a code finding's rule in the Policy Rules view (which policy has it, in which mode), or
 * says that none of the policies shown there has it.
 */
export async function showRule(app: Pick<CommandDeps, 'revealRule'>, item?: CommandItem): Promise<boolean> {
  const finding = item?.finding;
  const rule = item?.text ?? (finding && kindOf(finding).ruled ? finding.ruleName : item?.rule?.path);
  if (!rule) return false;
  if (await app.revealRule(rule)) return true;
  void showInformation(
    t(
      'AppSec: no policy in the Policy Rules view has the rule {0}. Policies listed there: those of the deployment and of {1}.',
      rule,
      'appsecFindings.policyIds',
    ),
  );
  return false;
}
