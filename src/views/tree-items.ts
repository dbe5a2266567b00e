/**
 * Maps nodes to TreeItems. All wording and flags come from the pure `*-presentation.ts` files;
 * this file only chooses VS Code types (icons, collapsible states, commands, markdown).
 */
import * as vscode from 'vscode';
import {
  findingAccessibilityLabel,
  findingContextValue,
  findingDescription,
  findingLabel,
  findingTooltip,
  GROUP_NOUNS,
  groupDescription,
  groupIcon,
  groupLabel,
  findingIcon,
  type IconSpec,
} from './finding-presentation';
import { projectAccessibilityLabel, projectContextValue, projectDescription, projectTooltip } from './project-presentation';
import {
  policyDescription,
  policyTooltip,
  ruleAccessibilityLabel,
  ruleContextValue,
  ruleDescription,
  ruleLabel,
  ruleModeIcon,
  ruleModeTitle,
  ruleTooltip,
} from './rule-presentation';
import {
  lockfileDescription,
  packageAccessibilityLabel,
  packageContextValue,
  packageDescription,
  packageIcon,
  packageLabel,
  packageTooltip,
} from './dependency-presentation';
import type { PlanOptions, SeverityMapping } from '../core/workspace/diagnostic-plan';
import { withAbortSignal } from '../host/cancellation';
import type { Finding } from '../core/model/types';
import type { TodayPlace } from '../core/workspace/today-place';
import { EXTENSION_COMMANDS } from './tree-commands';
import { pageLabel, type MessageNode, type Node, type NodeAction } from './tree-nodes';
import { formatCount, t } from '../core/l10n';
import { kindOf } from '../core/model/finding-kinds';

const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;

/** Server text rendered as markdown: never trusted, never HTML; the text was escaped when built. */
export function inertMarkdown(text: string): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString(text, false);
  markdown.isTrusted = false;
  markdown.supportHtml = false;
  return markdown;
}

const themeIcon = (icon: IconSpec): vscode.ThemeIcon => new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);

const TONE_ICONS: Record<MessageNode['tone'], IconSpec> = {
  loading: { id: 'loading~spin' },
  info: { id: 'info' },
  warning: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  error: { id: 'error', color: 'problemsErrorIcon.foreground' },
};

const toCommand = (action: NodeAction): vscode.Command => ({
  title: action.title,
  command: action.command,
  arguments: action.args ? [...action.args] : undefined,
});

function item(node: Node, label: string, collapsible: vscode.TreeItemCollapsibleState, fields: Partial<vscode.TreeItem>): vscode.TreeItem {
  const result = new vscode.TreeItem(label, collapsible);
  result.id = node.id;
  return Object.assign(result, fields);
}

/** What the tree item of an issue-type node shows that depends on its slot's live state. */
export interface TreeItemContext {
  issueTypeDescription(node: Extract<Node, { kind: 'issueType' }>): string | undefined;
  /** What the node's state adds to its tooltip (a kind not available, stale findings), if anything. */
  issueTypeTooltip?(node: Extract<Node, { kind: 'issueType' }>): string | undefined;
  /** The user's severity → level mapping, so severity icons match Problems. */
  readonly severityMapping?: SeverityMapping;
  /** How Problems levels unreachable supply-chain findings: the tree's icon agrees. */
  readonly levels?: PlanOptions;
  /** Where a finding is in today's code (drift), so the tree shows the line Problems shows. */
  todayPlace?(finding: Finding): TodayPlace | undefined;
  /** Whether the finding is new on its branch (its primary branch does not have it). */
  isNew?(finding: Finding): boolean;
  /** Whether the finding blocks pull requests, as its story says once read. */
  blocking?(finding: Finding): boolean;
  /** Whether the user opened this node before (a group drawn anew opens as it was). */
  wasOpened?(node: Node): boolean;
  /** How many of a loaded lockfile's packages the dependency filter leaves. */
  lockfileShown?(node: Extract<Node, { kind: 'lockfile' }>): number | undefined;
}

/**
 * The TreeItem for a node. Tooltips that need a fetch (projects) or are long (findings, rules)
 * are left out here and filled in by `resolveTooltip` when the user hovers.
 */
type NodeOf<K extends Node['kind']> = Extract<Node, { kind: K }>;

/** How each kind of node becomes a tree item: one small function per kind, so each reads alone. */
const ITEMS: { readonly [K in Node['kind']]: (node: NodeOf<K>, context: TreeItemContext) => vscode.TreeItem } = {
  message: (node) =>
    item(node, node.text, node.actions.length === 0 ? None : node.collapsed ? Collapsed : Expanded, {
      iconPath: themeIcon(node.icon ? { id: node.icon } : TONE_ICONS[node.tone]),
      tooltip: node.tooltip ?? (node.action ? t('{0}. Click: {1}.', node.text, node.action.title) : node.text),
      command: node.action ? toCommand(node.action) : undefined,
      contextValue: `message ${node.tone}`,
    }),
  action: (node) =>
    item(node, node.action.title, None, {
      iconPath: new vscode.ThemeIcon(node.action.icon ?? 'run'),
      command: toCommand(node.action),
      contextValue: 'action',
    }),
  project: (node) => {
    const { project, inWorkspace, ref } = node;
    return item(node, project.name, inWorkspace ? Expanded : Collapsed, {
      description: projectDescription(project, ref, node.otherThanCheckedOut),
      iconPath: new vscode.ThemeIcon(inWorkspace ? 'repo' : 'folder-library'),
      contextValue: projectContextValue(project, inWorkspace),
      accessibilityInformation: { label: projectAccessibilityLabel(project, inWorkspace, ref) },
    });
  },
  issueType: (node, context) => {
    const kind = kindOf(node);
    const { project, ref } = node.parent;
    return item(node, kind.label, Collapsed, {
      description: context.issueTypeDescription(node),
      iconPath: new vscode.ThemeIcon(kind.icon),
      contextValue: `issueType ${node.issueType}`,
      tooltip: [ref ? t('{0} of {1} on {2}', kind.label, project.name, ref) : t('{0} of {1}', kind.label, project.name), context.issueTypeTooltip?.(node)]
        .filter(Boolean)
        .join('\n\n'),
    });
  },
  group: (node, context) => {
    const { groupBy, group } = node;
    const count = group.findings.length;
    return item(node, groupLabel(groupBy, group), context.wasOpened?.(node) ? Expanded : Collapsed, {
      description: groupDescription(groupBy, group, count),
      iconPath: themeIcon(groupIcon(groupBy, group.key, context.severityMapping)),
      contextValue: `findingGroup by-${groupBy}`,
      tooltip: count === 1 ? t('{0}: {1} finding', group.label, formatCount(count)) : t('{0}: {1} findings', group.label, formatCount(count)),
      accessibilityInformation: {
        label: count === 1 ? t('{0}, {1} finding', group.label, formatCount(count)) : t('{0}, {1} findings', group.label, formatCount(count)),
      },
    });
  },
  page: (node) => {
    const noun = node.of === 'groups' ? GROUP_NOUNS[node.groupBy] : node.of === 'rules' ? t('Rules') : node.of === 'packages' ? t('Packages') : t('Findings');
    return item(node, pageLabel(noun, node.start, node.end), Collapsed, { iconPath: new vscode.ThemeIcon('list-flat'), contextValue: 'page' });
  },
  finding: (node, context) => {
    const { finding } = node;
    const isNew = context.isNew?.(finding) ?? false;
    return item(node, findingLabel(finding), None, {
      description: findingDescription(finding, context.todayPlace?.(finding), isNew, context.blocking?.(finding) ?? false),
      iconPath: themeIcon(findingIcon(finding, context.severityMapping, context.levels)),
      contextValue: findingContextValue(finding),
      command: { title: t('Open Finding'), command: EXTENSION_COMMANDS.openFinding, arguments: [finding] },
      accessibilityInformation: { label: findingAccessibilityLabel(finding, isNew) },
    });
  },
  policy: (node) =>
    item(node, node.entry.policy.name, Collapsed, {
      description: policyDescription(node.entry),
      iconPath: new vscode.ThemeIcon('shield'),
      contextValue: 'policy',
      tooltip: inertMarkdown(policyTooltip(node.entry)),
    }),
  ruleMode: (node) => {
    const count = node.rules.length;
    const title = ruleModeTitle(node.mode);
    return item(node, title, Collapsed, {
      description: String(count),
      iconPath: themeIcon(ruleModeIcon(node.mode)),
      contextValue: 'ruleMode',
      accessibilityInformation: {
        label: count === 1 ? t('{0} mode, {1} rule', title, formatCount(count)) : t('{0} mode, {1} rules', title, formatCount(count)),
      },
    });
  },
  dependencies: (node) =>
    item(node, t('Dependencies'), Collapsed, {
      iconPath: new vscode.ThemeIcon('library'),
      contextValue: 'dependencies',
      tooltip: t("The dependencies the platform's supply-chain inventory holds for {0}, by lockfile", node.parent.project.name),
    }),
  lockfile: (node, context) => {
    const description = lockfileDescription(node.lockfile, context.lockfileShown?.(node));
    return item(node, node.lockfile.path, Collapsed, {
      description,
      iconPath: new vscode.ThemeIcon('file'),
      contextValue: 'lockfile',
      tooltip: `${node.lockfile.path}: ${description}`,
    });
  },
  package: (node, context) =>
    item(node, packageLabel(node.item), None, {
      description: packageDescription(node.item),
      iconPath: themeIcon(packageIcon(node.item, context.severityMapping, context.levels)),
      contextValue: packageContextValue(node.item),
      accessibilityInformation: { label: packageAccessibilityLabel(node.item) },
    }),
  rule: (node) =>
    item(node, ruleLabel(node.rule), None, {
      description: ruleDescription(node.rule),
      iconPath: themeIcon(ruleModeIcon(node.rule.mode)),
      contextValue: ruleContextValue(node.rule),
      accessibilityInformation: { label: ruleAccessibilityLabel(node.rule) },
    }),
};

export function toTreeItem(node: Node, context: TreeItemContext): vscode.TreeItem {
  return (ITEMS[node.kind] as (node: Node, context: TreeItemContext) => vscode.TreeItem)(node, context);
}

/**
 * The tooltip filled in on hover. A project's comes with its details (managed scan settings),
 * which cost a request, so it is fetched only here.
 */
export async function resolveTooltip(
  node: Node,
  token: vscode.CancellationToken,
  loadDetails?: (projectName: string, signal: AbortSignal) => Promise<Parameters<typeof projectTooltip>[2]>,
  /** The primary branch a new finding is not on; undefined for a finding that is not new. */
  newAgainst?: (finding: Finding) => string | undefined,
  blocking?: (finding: Finding) => boolean,
): Promise<vscode.MarkdownString | undefined> {
  switch (node.kind) {
    case 'finding':
      return inertMarkdown(findingTooltip(node.finding, newAgainst?.(node.finding), blocking?.(node.finding) ?? false));
    case 'rule':
      return inertMarkdown(ruleTooltip(node.rule, node.policy.name));
    case 'package':
      return inertMarkdown(packageTooltip(node.item));
    case 'project': {
      if (!loadDetails) return inertMarkdown(projectTooltip(node.project, node.ref, { error: t('not loaded') }, node.inWorkspace));
      const details = await withAbortSignal(token, (signal) => loadDetails(node.project.name, signal));
      return inertMarkdown(projectTooltip(node.project, node.ref, details, node.inWorkspace));
    }
    default:
      return undefined;
  }
}
