/**
 * The inventory in the workspace's manifests and lockfiles: a hover on every line it knows, an
 * inlay hint at the line's end (`2 vulnerable · MIT`, off with a setting), and "Where else is
 * this package used?" as a code action on the line. The lines come from `DependencyLines`.
 */
import { t } from '../core/l10n';
import * as vscode from 'vscode';
import type { CommandId } from '../core/model/command-ids';
import { withAbortSignal } from '../host/cancellation';
import { dependencyHint, dependencyHoverMarkdown } from '../core/workspace/dependency-facts';
import { declaredVersion, manifestKindOf } from '../core/workspace/dependency-upgrade';
import { escapeMarkdown } from '../views/markdown';
import { INVENTORY_SELECTOR, type DependencyLines } from './dependency-lines';

const WHERE_USED = 'appsecFindings.whereUsed' satisfies CommandId;

export interface DependencyEditorDeps {
  readonly lines: DependencyLines;
  /** `appsecFindings.dependencies.inlayHints`. */
  readonly hintsEnabled: () => boolean;
}

/** A command link the hover may run: only this command, with the package as its argument. */
function whereUsedLink(name: string, ecosystem: string): string {
  const args = encodeURIComponent(JSON.stringify([{ package: name, ecosystem }]));
  return `[${t('Where else is it used?')}](command:${WHERE_USED}?${args} "${t('List every repository of the deployment that uses {0}', escapeMarkdown(name)).replace(/"/g, "'")}")`;
}

class DependencyHover implements vscode.HoverProvider {
  constructor(private readonly lines: DependencyLines) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    const located = await this.lines.at(document, position.line);
    if (!located || token.isCancellationRequested) return undefined;
    // How many others use it costs a request; a failure leaves the count out, not the hover.
    const others = await withAbortSignal(token, (signal) => this.lines.otherRepositories(located.item, signal)).catch(() => undefined);
    const facts = others === undefined ? located.item : { ...located.item, otherRepositories: others };
    const { dependency } = facts;
    const markdown = new vscode.MarkdownString(`${dependencyHoverMarkdown(facts, escapeMarkdown)}\n\n${whereUsedLink(dependency.name, dependency.ecosystem)}`);
    markdown.isTrusted = { enabledCommands: [WHERE_USED] };
    markdown.supportHtml = false;
    return new vscode.Hover(markdown, new vscode.Range(located.line, located.start, located.line, located.end));
  }
}

class DependencyHints implements vscode.InlayHintsProvider {
  readonly onDidChangeInlayHints: vscode.Event<void>;

  constructor(
    private readonly deps: DependencyEditorDeps,
    changed: vscode.Event<void>,
  ) {
    this.onDidChangeInlayHints = changed;
  }

  async provideInlayHints(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.InlayHint[]> {
    if (!this.deps.hintsEnabled()) return [];
    const hints: vscode.InlayHint[] = [];
    const manifest = manifestKindOf(document.fileName.replace(/\\/g, '/'));
    const text = manifest ? document.getText() : '';
    for (const located of await this.deps.lines.linesOf(document)) {
      if (located.line < range.start.line || located.line > range.end.line) continue;
      // On a manifest, what its line pins today (an upgrade written, the lockfile not yet changed).
      const declared = manifest ? declaredVersion(manifest, text, located.item.dependency.name) : undefined;
      const label = dependencyHint(located.item, declared?.line === located.line ? declared.version : undefined);
      if (label === '') continue;
      const hint = new vscode.InlayHint(document.lineAt(located.line).range.end, label);
      hint.paddingLeft = true;
      hints.push(hint);
    }
    return hints;
  }
}

class WhereUsedAction implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.Empty];

  constructor(private readonly lines: DependencyLines) {}

  async provideCodeActions(document: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
    const located = await this.lines.at(document, range.start.line);
    if (!located) return [];
    const { dependency } = located.item;
    const action = new vscode.CodeAction(t('Where else is {0} used?', dependency.name), vscode.CodeActionKind.Empty);
    action.command = { title: action.title, command: WHERE_USED, arguments: [{ package: dependency.name, ecosystem: dependency.ecosystem }] };
    return [action];
  }
}

export function registerDependencyEditor(deps: DependencyEditorDeps): vscode.Disposable[] {
  const hintsChanged = new vscode.EventEmitter<void>();
  return [
    hintsChanged,
    deps.lines.onDidChange(() => hintsChanged.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('appsecFindings.dependencies.inlayHints')) hintsChanged.fire();
    }),
    vscode.languages.registerHoverProvider(INVENTORY_SELECTOR, new DependencyHover(deps.lines)),
    vscode.languages.registerInlayHintsProvider(INVENTORY_SELECTOR, new DependencyHints(deps, hintsChanged.event)),
    vscode.languages.registerCodeActionsProvider(INVENTORY_SELECTOR, new WhereUsedAction(deps.lines), { providedCodeActionKinds: WhereUsedAction.kinds }),
  ];
}
