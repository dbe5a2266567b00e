/**
 * Quick fixes on the extension's diagnostics: the assistant's suggested fix and a dependency
 * upgrade (each carries its edit, applied at once; the editor's Undo takes it back), then Fix
 * with Agent, Open a Fix Pull Request… (code and supply chain), Show Trace (code), Ignore…
 * (not where the finding's story says the user may only request an exception), Ignore all of
 * the rule in this file…, Show Details, Open in Platform, Copy Rule ID.
 * Where findings share a line, every title names its finding (`AWS secret`, `… (AI)`) and an
 * identical fix is offered once, so no two entries read the same.
 * The suggested fix is built for the scanned code: where that code changed since, it is offered
 * disabled, with the reason. The whole finding (with the fix) is asked of the platform only when
 * the user opens the quick-fix menu, once per finding.
 */
import { formatCount, t } from '../core/l10n';
import * as vscode from 'vscode';
import { distinctName } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import type { FindingDetails } from '../core/services/finding-details';
import type { FindingStories } from '../core/services/finding-stories';
import { mayIgnore } from '../core/services/story-words';
import { fixPullRequestOf } from '../core/model/finding-story';
import { manifestKindOf, upgradeReplacement } from '../core/workspace/dependency-upgrade';
import { autofixEdit } from '../code-places/autofix-edit';
import { FINDINGS_PER_PLACE, isFindingDiagnostic, type KnownFindingDiagnostic } from '../diagnostics/finding-diagnostic';
import type { WorkspaceRepos } from '../host/workspace-repos';
import { kindOf } from '../core/model/finding-kinds';

/** How long the quick-fix menu waits for the platform's detail before showing without the fix. */
const DETAIL_WAIT_MS = 3000;

export interface FindingActionsDeps {
  readonly collection: vscode.DiagnosticCollection;
  readonly details: FindingDetails;
  /** Read only as far as already known: the menu never waits for a story. */
  readonly stories: Pick<FindingStories, 'peek'>;
  readonly repos: WorkspaceRepos;
  readonly signedIn: () => boolean;
}

export function registerFindingActions(deps: FindingActionsDeps): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new FindingActions(deps), {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
  });
}

class FindingActions implements vscode.CodeActionProvider {
  constructor(private readonly deps: FindingActionsDeps) {}

  async provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): Promise<vscode.CodeAction[]> {
    const ours = context.diagnostics.filter(isFindingDiagnostic).slice(0, FINDINGS_PER_PLACE);
    if (ours.length === 0 || !this.deps.signedIn()) return [];
    const edits: vscode.CodeAction[] = [];
    const perFinding: vscode.CodeAction[] = [];
    const generic: vscode.CodeAction[] = [];
    const fixes = new Set<string>();
    for (const diagnostic of ours) {
      const { finding } = diagnostic;
      const detail =
        this.deps.details.peek(finding) ??
        (context.triggerKind === vscode.CodeActionTriggerKind.Invoke && kindOf(finding).traced
          ? await this.deps.details.within(finding, DETAIL_WAIT_MS)
          : undefined);
      const code = detail?.assistant?.autofixCode;
      // The code rule and its AI twin may suggest the very same lines: one entry does.
      const fixKey = `${diagnostic.range.start.line}:${diagnostic.range.end.line}:${code ?? ''}`;
      if (code && !fixes.has(fixKey)) {
        fixes.add(fixKey);
        edits.push(this.fixAction(document, diagnostic, code));
      }
      const upgrade = finding.sca ? await this.upgradeAction(document, diagnostic) : undefined;
      if (upgrade) edits.push(upgrade);
      const commands = this.commandActions(document, diagnostic, finding, ours.length > 1);
      perFinding.push(...commands.own);
      generic.push(...commands.generic);
    }
    return [...edits, ...perFinding, ...generic];
  }

  private fixAction(document: vscode.TextDocument, diagnostic: KnownFindingDiagnostic, fixCode: string): vscode.CodeAction {
    const action = new vscode.CodeAction(
      t("Apply suggested fix for {0} (from the platform's assistant)", distinctName(diagnostic.finding)),
      vscode.CodeActionKind.QuickFix,
    );
    action.diagnostics = [diagnostic];
    if (diagnostic.drift?.changed) {
      action.disabled = {
        reason: t('The code here changed since the scan: the suggested fix was written for the scanned code. Refresh after the next scan, or fix it by hand.'),
      };
      return action;
    }
    action.isPreferred = true;
    action.edit = autofixEdit(document, diagnostic.range, fixCode);
    // Run once the edit is in: says so, with Undo and Save.
    action.command = { title: t('Suggested fix applied'), command: 'appsecFindings.fixApplied', arguments: [{ finding: diagnostic.finding }] };
    return action;
  }

  /** `Upgrade lodash to 4.17.21` where the manifest beside the lockfile pins the dependency directly. */
  private async upgradeAction(document: vscode.TextDocument, diagnostic: KnownFindingDiagnostic): Promise<vscode.CodeAction | undefined> {
    const sca = diagnostic.finding.sca;
    const version = sca?.fixVersions?.[0];
    if (!sca?.package || !version || sca.transitivity === 'transitive') return undefined;
    const repo = this.deps.repos.repos().find((r) => document.uri.toString().startsWith(`${r.folder.uri.toString()}/`));
    const lockfile = diagnostic.finding.location?.filePath;
    if (!repo || !lockfile) return undefined;
    const dir = lockfile.includes('/') ? lockfile.slice(0, lockfile.lastIndexOf('/') + 1) : '';
    for (const name of ['package.json', 'requirements.txt']) {
      const uri = vscode.Uri.joinPath(repo.folder.uri, `${dir}${name}`);
      const kind = manifestKindOf(name);
      const text = kind && (await readText(uri));
      const replacement = kind && text !== undefined ? upgradeReplacement(kind, text, sca.package, version) : undefined;
      if (!replacement) continue;
      const manifest = await vscode.workspace.openTextDocument(uri);
      const action = new vscode.CodeAction(t('Upgrade {0} to {1}', sca.package, version), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.edit = new vscode.WorkspaceEdit();
      const range = new vscode.Range(manifest.positionAt(replacement.start), manifest.positionAt(replacement.end));
      action.edit.replace(uri, range, replacement.text);
      // The manifest may not be the file in front of the user: show the change that was made.
      action.command = { title: t('Show {0}', name), command: 'vscode.open', arguments: [uri, { selection: range }] };
      return action;
    }
    return undefined;
  }

  /**
   * `own`: the actions that are about this finding by nature (Ignore…, Show details); `generic`:
   * Open in Platform and Copy Rule ID, named only when `several` findings share the menu.
   */
  private commandActions(
    document: vscode.TextDocument,
    diagnostic: KnownFindingDiagnostic,
    finding: Finding,
    several: boolean,
  ): { own: vscode.CodeAction[]; generic: vscode.CodeAction[] } {
    const arg = { finding };
    const name = distinctName(finding);
    const make = (title: string, command: string, args: unknown[]): vscode.CodeAction => {
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.diagnostics = [diagnostic];
      action.command = { title, command, arguments: args };
      return action;
    };
    const sameRule = (this.deps.collection.get(document.uri) ?? [])
      .filter((d) => isFindingDiagnostic(d) && d.finding.ruleName === finding.ruleName && d.finding.issueType === finding.issueType)
      .map((d) => ({ finding: (d as KnownFindingDiagnostic).finding }));
    const known = this.deps.stories.peek(finding);
    const story = known?.kind === 'story' ? known.story : undefined;
    const traced = kindOf(finding).traced && (story === undefined || (story.trace?.length ?? 0) > 0);
    const ignorable = mayIgnore(story?.triagePermission);
    // Not offered again while one is asked for or open (the details say where it stands).
    const prState = story ? fixPullRequestOf(story).state : 'none';
    const fixable = kindOf(finding).fixPullRequests && prState !== 'requested' && prState !== 'opened';
    return {
      own: [
        make(t('Fix {0} with Agent', name), 'appsecFindings.fixWithAgent', [arg]),
        ...(fixable ? [make(t('Open a Fix Pull Request for {0}…', name), 'appsecFindings.requestAutofix', [arg])] : []),
        ...(traced ? [make(t('Show Trace of {0}', name), 'appsecFindings.showTrace', [arg])] : []),
        ...(ignorable ? [make(t('Ignore {0}…', name), 'appsecFindings.ignore', [arg])] : []),
        ...(ignorable && sameRule.length > 1
          ? [make(t('Ignore all {0} findings of {1} in this file…', formatCount(sameRule.length), name), 'appsecFindings.ignore', [arg, sameRule])]
          : []),
        make(t('Show details of {0}', name), 'appsecFindings.showDetails', [arg]),
      ],
      generic: [
        make(several ? t('Open {0} in Platform', name) : t('Open in Platform'), 'appsecFindings.openInPlatform', [arg]),
        // A secret's rule id is an internal hash, of no use on a clipboard.
        ...(finding.secret ? [] : [make(several ? t('Copy Rule ID of {0}', name) : t('Copy Rule ID'), 'appsecFindings.copyRuleId', [arg])]),
      ],
    };
  }
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && d.isDirty);
  if (open) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
