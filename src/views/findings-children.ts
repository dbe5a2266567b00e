/**
 * The children of an issue-type node ("Code findings", "Supply-chain findings", "Secrets") for each state of
 * its slot, and the levels below it: groups, pages of at most PAGE_SIZE, findings. Pure (no
 * `vscode`): the provider works out the slot's state and hands it in.
 */
import type { LocalFilter } from '../core/services/project-view';
import type { SlotView } from '../core/services/place-loads';
import type { PlaceSnapshot } from '../core/services/projects-model';

/** What an issue-type node is drawn from: its place's snapshot (the version aside). */
export type PlaceShown = Omit<PlaceSnapshot, 'version'>;
import type { Finding } from '../core/model/types';
import { t } from '../core/l10n';
import type { FilterSelection } from '../core/services/filters';
import type { FindingsResult } from '../core/services/findings-query';
import { groupFindings, type FindingGroup, type GroupBy } from '../core/services/grouping';
import { KIND_PRODUCTS, unavailableAdvice, unavailableText } from '../core/services/kind-availability';
import { kindOf } from '../core/model/finding-kinds';
import {
  aiFailed,
  checkingScan,
  cancelledFindings,
  clockTime,
  loadFailed,
  notAvailable,
  notAvailableBelow,
  loadingFindings,
  message,
  noFindings,
  nothingNew,
  skippedFindings,
  staleFindings,
} from './state-messages';
import { nodeIds, PAGE_SIZE, pageRanges, uniqueBy, type FindingNode, type GroupNode, type IssueTypeNode, type Node, type PageNode } from './tree-nodes';

export interface FindingsChildrenContext {
  readonly groupBy: GroupBy;
  readonly selection: FilterSelection;
  /** The default filters: with only these on, an empty list has nothing to clear. */
  readonly defaults?: FilterSelection;
  /** Groups of a result, computed once per result and grouping (see `FindingGroupsCache`). */
  readonly groupsOf: (result: FindingsResult) => readonly FindingGroup[];
  readonly errorMessage: (error: unknown) => string;
  readonly now?: Date;
}

/**
 * Findings grouped for the tree. Duplicate ids are dropped first: offset paging over a list that
 * changes while it is read can return a finding twice, and two tree items with one id would make
 * VS Code reject the whole level.
 */
export function groupForTree(findings: readonly Finding[], groupBy: GroupBy): FindingGroup[] {
  return groupFindings(
    uniqueBy(findings, (f) => f.id),
    groupBy,
  );
}

/** A local filter of the findings an answer holds (e.g. only new on this branch), with its cache key. */

/** Groups each result once per grouping (and local filter); a new result (a new load) is a new key. */
export class FindingGroupsCache {
  private readonly cache = new WeakMap<FindingsResult, Map<string, readonly FindingGroup[]>>();

  get(result: FindingsResult, groupBy: GroupBy, only?: LocalFilter): readonly FindingGroup[] {
    let byGrouping = this.cache.get(result);
    if (!byGrouping) this.cache.set(result, (byGrouping = new Map<string, readonly FindingGroup[]>()));
    const key = only ? `${groupBy}|${only.key}` : groupBy;
    let groups = byGrouping.get(key);
    if (!groups) byGrouping.set(key, (groups = groupForTree(only ? result.findings.filter((f) => only.keep(f)) : result.findings, groupBy)));
    return groups;
  }

  /** Findings the tree shows for a result (duplicates dropped), without another pass over them. */
  count(result: FindingsResult, groupBy: GroupBy, only?: LocalFilter): number {
    return this.get(result, groupBy, only).reduce((sum, group) => sum + group.findings.length, 0);
  }
}

export function issueTypeChildren(node: IssueTypeNode, view: PlaceShown, context: FindingsChildrenContext): Node[] {
  const say = (spec: Parameters<typeof message>[2]): Node => message(node, node.id, spec);
  const { issueType, slot } = node;
  const result = view.result;
  if (!result) {
    if (view.cancelled) return [say(cancelledFindings(issueType, slot))];
    if (view.error !== undefined && !view.loading) {
      return [say(loadFailed(kindOf(issueType).noun, context.errorMessage(view.error), { view: 'projects', slot }))];
    }
    // Loading, or about to: the provider starts the load as it asks for these children.
    return [say(loadingFindings(issueType, slot, view.arrived))];
  }
  const head: Node[] = [];
  if (result.unavailable && !view.loading) return [say(notAvailableBelow(KIND_PRODUCTS[issueType], result.unavailable))];
  if (view.loading && !view.cancelled) head.push(say(loadingFindings(issueType, slot, view.arrived)));
  else if (result.staleBecause !== undefined) {
    head.push(say(staleFindings(result.loadedAt, context.errorMessage(result.staleBecause), { view: 'projects', slot }, context.now)));
  }
  const ai = result.ai;
  if (ai && 'unavailable' in ai) head.push(say(notAvailable(KIND_PRODUCTS.ai, ai.unavailable)));
  else if (ai) head.push(say(aiFailed(context.errorMessage(ai.failedBecause), ai.since, { view: 'projects', slot }, context.now)));
  if (result.skipped > 0) head.push(say(skippedFindings(result.skipped)));
  const groups = context.groupsOf(result);
  if (groups.length === 0) {
    if (view.checkingScan) return [...head, say(checkingScan(issueType, node.parent.ref))];
    if (context.selection.newOnBranch && !view.unscanned) {
      return [...head, say(nothingNew(issueType, context.selection, node.parent.ref, view.comparedWith, view.primary))];
    }
    return [...head, say(noFindings(issueType, context.selection, node.parent.ref, view.unscanned, context.defaults))];
  }
  return [...head, ...groupLevel(node, groups, context.groupBy)];
}

/** The groups, split into pages when there are more than PAGE_SIZE (thousands of files or rules). */
function groupLevel(node: IssueTypeNode, groups: readonly FindingGroup[], groupBy: GroupBy): Node[] {
  if (groups.length <= PAGE_SIZE) return groups.map((group) => groupNode(node, node, group, groupBy));
  return pageRanges(groups.length).map(({ start, end }): PageNode => ({
    kind: 'page',
    of: 'groups',
    id: nodeIds.groupPage(node.id, groupBy, start),
    parent: node,
    groupBy,
    start,
    end,
    items: groups.slice(start, end),
  }));
}

function groupNode(parent: IssueTypeNode | PageNode, issueTypeNode: IssueTypeNode, group: FindingGroup, groupBy: GroupBy): GroupNode {
  // The group's id hangs off the issue type, not the page, so paging never changes it.
  return { kind: 'group', id: nodeIds.group(issueTypeNode.id, groupBy, group.key), parent, issueTypeNode, groupBy, group };
}

export function groupChildren(node: GroupNode): Node[] {
  const findings = node.group.findings;
  if (findings.length <= PAGE_SIZE) return findings.map((finding) => findingNode(node, node, finding));
  return pageRanges(findings.length).map(({ start, end }): PageNode => ({
    kind: 'page',
    of: 'findings',
    id: nodeIds.page(node.id, start),
    parent: node,
    start,
    end,
    items: findings.slice(start, end),
  }));
}

function findingNode(parent: GroupNode | PageNode, group: GroupNode, finding: Finding): FindingNode {
  return { kind: 'finding', id: nodeIds.finding(group.id, finding.id), parent, finding };
}

/** Children of a page of groups or of findings (rule pages belong to the policies tree, package pages to the inventory's). */
export function findingPageChildren(page: PageNode): Node[] {
  switch (page.of) {
    case 'groups':
      return page.items.map((group) => groupNode(page, page.parent, group, page.groupBy));
    case 'findings':
      return page.items.map((finding) => findingNode(page, page.parent, finding));
    case 'rules':
    case 'packages':
      return [];
  }
}

/** Count for the issue-type node's description: "42", with the state when it is not plain. */
export function issueTypeDescription(view: SlotView, countOf: (result: FindingsResult) => number): string | undefined {
  if (view.result?.unavailable) return view.loading && !view.cancelled ? t('asking again…') : unavailableText(view.result.unavailable);
  if (view.result) {
    const count = String(countOf(view.result));
    if (view.loading && !view.cancelled) return `${count} · ${t('refreshing…')}`;
    return view.result.staleBecause !== undefined ? `${count} · ${t('stale')}` : count;
  }
  if (view.cancelled) return t('cancelled');
  if (view.loading) return t('loading…');
  return view.error !== undefined ? t('failed') : undefined;
}

/** The issue-type node's tooltip when its state needs more than its name: what is missing or stale, and why. */
export function issueTypeTooltip(node: IssueTypeNode, view: SlotView, now = new Date()): string | undefined {
  const result = view.result;
  if (!result) return undefined;
  const lines: string[] = [];
  if (result.unavailable)
    lines.push(
      `${KIND_PRODUCTS[node.issueType]} — ${unavailableText(result.unavailable)}. ${unavailableAdvice(KIND_PRODUCTS[node.issueType], result.unavailable)}`,
    );
  else if (result.staleBecause !== undefined) lines.push(t('Showing findings from {0}: the last refresh failed.', clockTime(result.loadedAt, now)));
  const ai = result.ai;
  if (ai && 'unavailable' in ai) lines.push(`${KIND_PRODUCTS.ai} — ${unavailableText(ai.unavailable)}. ${unavailableAdvice(KIND_PRODUCTS.ai, ai.unavailable)}`);
  else if (ai)
    lines.push(
      ai.since ? t("AI findings from {0}: the AI analysis's list failed.", clockTime(ai.since, now)) : t("No AI findings: the AI analysis's list failed."),
    );
  return lines.length > 0 ? lines.join('\n\n') : undefined;
}

/**
 * One finding per distinct `sourcing_policy`: all the Policy Rules view needs to learn of the
 * policies findings name, so it never walks every finding on a refresh.
 */
export function onePerPolicy(findings: readonly Finding[]): Finding[] {
  const byPolicy = new Map<number, Finding>();
  for (const finding of findings) {
    if (finding.policy && !byPolicy.has(finding.policy.id)) byPolicy.set(finding.policy.id, finding);
  }
  return [...byPolicy.values()];
}
