/**
 * The nodes of both trees as plain data, and their ids. Pure (no `vscode`): providers build
 * these, `tree-items.ts` maps them to TreeItems, and commands receive them as menu arguments.
 *
 * Ids are built from what a node stands for (deployment, project, issue type, grouping, group
 * key, finding id), never from its position, so VS Code keeps expansion and selection across
 * refreshes; every segment is encoded, since project names and group keys hold slashes.
 */
import type { Finding, IssueType, Project } from '../core/model/types';
import type { Policy, PolicyRule } from '../core/model/policy';
import type { FindingGroup, GroupBy } from '../core/services/grouping';
import type { PolicyEntry } from '../core/services/policies-service';
import type { Dependency, LockfileSummary } from '../core/model/dependency';

/** A command a message node runs, or offers as a child. */
export interface NodeAction {
  readonly title: string;
  readonly command: string;
  readonly args?: readonly unknown[];
  /** Codicon id. */
  readonly icon?: string;
}

export type MessageTone = 'loading' | 'info' | 'warning' | 'error';

/** A state the tree explains instead of showing data: loading, error, empty, stale, … */
export interface MessageNode {
  readonly kind: 'message';
  readonly id: string;
  readonly parent?: Node;
  readonly text: string;
  readonly tone: MessageTone;
  /** Codicon id; the tone's default when absent. */
  readonly icon?: string;
  readonly tooltip?: string;
  /** Runs when the node is clicked. */
  readonly action?: NodeAction;
  /** Offered as children, so each action is visible without a click. */
  readonly actions: readonly NodeAction[];
  /** Start with the actions folded away (a warning above data should not push the data down). */
  readonly collapsed?: boolean;
}

export interface ActionNode {
  readonly kind: 'action';
  readonly id: string;
  readonly parent: MessageNode;
  readonly action: NodeAction;
}

export interface ProjectNode {
  readonly kind: 'project';
  readonly id: string;
  readonly parent?: undefined;
  readonly deploymentSlug: string;
  readonly project: Project;
  readonly inWorkspace: boolean;
  /** The ref whose findings are shown (override, else primary, else default branch). */
  readonly ref?: string;
  /** The branch checked out in the workspace, when the tree shows another (Problems shows this one). */
  readonly otherThanCheckedOut?: string;
}

export interface IssueTypeNode {
  readonly kind: 'issueType';
  readonly id: string;
  readonly parent: ProjectNode;
  readonly issueType: IssueType;
  /** FindingsStore slot: `tree:<projectName>:<issueType>`. */
  readonly slot: string;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly id: string;
  readonly parent: IssueTypeNode | PageNode;
  readonly issueTypeNode: IssueTypeNode;
  readonly groupBy: GroupBy;
  readonly group: FindingGroup;
}

export interface FindingNode {
  readonly kind: 'finding';
  readonly id: string;
  readonly parent: GroupNode | PageNode;
  readonly finding: Finding;
}

/** One chunk of a long list: no level of the tree holds more than PAGE_SIZE siblings. */
export type PageNode = {
  readonly kind: 'page';
  readonly id: string;
  /** 0-based, end exclusive. */
  readonly start: number;
  readonly end: number;
} & (
  | { readonly of: 'groups'; readonly parent: IssueTypeNode; readonly groupBy: GroupBy; readonly items: readonly FindingGroup[] }
  | { readonly of: 'findings'; readonly parent: GroupNode; readonly items: readonly Finding[] }
  | { readonly of: 'rules'; readonly parent: RuleModeNode; readonly items: readonly PolicyRule[] }
  | { readonly of: 'packages'; readonly parent: LockfileNode; readonly items: readonly PackageItem[] }
);

/** A project's supply-chain inventory: its lockfiles, read when expanded. */
export interface DependenciesNode {
  readonly kind: 'dependencies';
  readonly id: string;
  readonly parent: ProjectNode;
  /** The inventory's repository id (the project's id). */
  readonly repositoryId: string;
}

export interface LockfileNode {
  readonly kind: 'lockfile';
  readonly id: string;
  readonly parent: DependenciesNode;
  readonly lockfile: LockfileSummary;
}

/** A dependency with what the tree shows beside it. */
export interface PackageItem {
  readonly dependency: Dependency;
  /** Open supply-chain findings of this package version in this repository. */
  readonly findings: readonly Finding[];
  readonly licensePolicy?: 'comment' | 'block';
}

export interface PackageNode {
  readonly kind: 'package';
  readonly id: string;
  readonly parent: LockfileNode | PageNode;
  readonly item: PackageItem;
}

export interface PolicyNode {
  readonly kind: 'policy';
  readonly id: string;
  readonly parent?: undefined;
  readonly entry: PolicyEntry;
}

export interface RuleModeNode {
  readonly kind: 'ruleMode';
  readonly id: string;
  readonly parent: PolicyNode;
  readonly mode: string;
  readonly rules: readonly PolicyRule[];
}

export interface RuleNode {
  readonly kind: 'rule';
  readonly id: string;
  readonly parent: RuleModeNode | PageNode;
  readonly policy: Policy;
  readonly rule: PolicyRule;
}

export type Node =
  | MessageNode
  | ActionNode
  | ProjectNode
  | IssueTypeNode
  | GroupNode
  | FindingNode
  | PageNode
  | PolicyNode
  | RuleModeNode
  | RuleNode
  | DependenciesNode
  | LockfileNode
  | PackageNode;

/** Most siblings one level may hold before it is split into pages. */
export const PAGE_SIZE = 500;

const seg = (value: string | number): string => encodeURIComponent(String(value));

export const nodeIds = {
  project: (deploymentSlug: string, projectName: string): string => `project/${seg(deploymentSlug)}/${seg(projectName)}`,
  issueType: (projectId: string, issueType: IssueType): string => `${projectId}/${issueType}`,
  group: (issueTypeId: string, groupBy: GroupBy, key: string): string => `${issueTypeId}/by-${groupBy}/${seg(key)}`,
  groupPage: (issueTypeId: string, groupBy: GroupBy, start: number): string => `${issueTypeId}/by-${groupBy}-page/${start}`,
  page: (parentId: string, start: number): string => `${parentId}/page/${start}`,
  // Under the group, not the page: a finding keeps its id when paging shifts it.
  finding: (groupId: string, findingId: number): string => `${groupId}/finding/${findingId}`,
  message: (parentId: string, state: string): string => `${parentId}/message/${seg(state)}`,
  action: (messageId: string, command: string): string => `${messageId}/action/${seg(command)}`,
  policy: (deploymentId: string, policyId: string): string => `policy/${seg(deploymentId)}/${seg(policyId)}`,
  ruleMode: (policyId: string, mode: string): string => `${policyId}/mode/${seg(mode)}`,
  rule: (ruleModeId: string, ruleId: string): string => `${ruleModeId}/rule/${seg(ruleId)}`,
  dependencies: (projectId: string): string => `${projectId}/dependencies`,
  lockfile: (dependenciesId: string, path: string): string => `${dependenciesId}/lockfile/${seg(path)}`,
  // Under the lockfile, not the page, as findings are.
  package: (lockfileId: string, d: Dependency): string =>
    `${lockfileId}/package/${seg(d.ecosystem)}/${seg(d.name)}/${seg(d.version)}/${d.definedAt?.line ?? ''}`,
  root: (view: 'projects' | 'policies'): string => `root/${view}`,
};

/** The FindingsStore slot the projects tree uses for one project's issue type. */

/** Half-open ranges of at most `size` items covering `total`. */
export function pageRanges(total: number, size = PAGE_SIZE): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (let start = 0; start < total; start += size) ranges.push({ start, end: Math.min(total, start + size) });
  return ranges;
}

/** "Findings 1–500", 1-based and inclusive as people count. */
export function pageLabel(noun: string, start: number, end: number): string {
  return `${noun} ${start + 1}–${end}`;
}

/** Keeps the first item of each key: a duplicate id would make VS Code reject the whole level. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => string | number): T[] {
  const seen = new Set<string | number>();
  const result: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    result.push(item);
  }
  return result;
}
