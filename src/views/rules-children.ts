/**
 * The levels of the Policy Rules tree: policies at the root, each with its rules grouped by mode
 * (Block, Comment, Monitor, Disabled, then any mode the service adds), long lists paged. Pure (no
 * `vscode`).
 */
import type { Policy } from '../core/model/policy';
import type { Unavailable } from '../core/services/kind-availability';
import type { PolicyEntry, PolicyRules } from '../core/services/policies-service';
import { groupRulesByMode } from './rule-presentation';
import { loadFailed, message, notAvailable, noPolicies, noRules, policyListFailed, skippedRules } from './state-messages';
import { t } from '../core/l10n';
import { nodeIds, PAGE_SIZE, pageRanges, uniqueBy, type Node, type PageNode, type PolicyNode, type RuleModeNode, type RuleNode } from './tree-nodes';

const ROOT_ID = nodeIds.root('policies');

/** The root: a warning when the list endpoint failed (the others are still shown), then the policies. */
export function policiesRoot(deploymentId: string, entries: readonly PolicyEntry[], listFailure: string | undefined, unavailable?: Unavailable): Node[] {
  const nodes: Node[] = [];
  if (listFailure !== undefined) nodes.push(message(undefined, ROOT_ID, policyListFailed(listFailure)));
  if (unavailable) nodes.push(message(undefined, ROOT_ID, notAvailable('Policies', unavailable)));
  for (const entry of entries) nodes.push({ kind: 'policy', id: nodeIds.policy(deploymentId, entry.policy.id), entry });
  if (entries.length === 0 && listFailure === undefined && !unavailable) nodes.push(message(undefined, ROOT_ID, noPolicies()));
  return nodes;
}

export function policyChildren(node: PolicyNode, loaded: PolicyRules): Node[] {
  const nodes: Node[] = [];
  if (loaded.skipped > 0) nodes.push(message(node, node.id, skippedRules(loaded.skipped)));
  // Two rules with one id would make VS Code reject the whole level.
  const rules = uniqueBy(loaded.rules, (r) => r.id || r.path);
  if (rules.length === 0) return [...nodes, message(node, node.id, noRules())];
  for (const { mode, rules: ofMode } of groupRulesByMode(rules)) {
    nodes.push({ kind: 'ruleMode', id: nodeIds.ruleMode(node.id, mode), parent: node, mode, rules: ofMode });
  }
  return nodes;
}

export function policyLoadFailed(node: PolicyNode, reason: string): Node[] {
  return [message(node, node.id, loadFailed(t('the rules'), reason, { view: 'policies', policyId: node.entry.policy.id }))];
}

export function ruleModeChildren(node: RuleModeNode): Node[] {
  const policy = node.parent.entry.policy;
  if (node.rules.length <= PAGE_SIZE) return node.rules.map((rule) => ruleNode(node, node, policy, rule));
  return pageRanges(node.rules.length).map(({ start, end }): PageNode => ({
    kind: 'page',
    of: 'rules',
    id: nodeIds.page(node.id, start),
    parent: node,
    start,
    end,
    items: node.rules.slice(start, end),
  }));
}

export function rulePageChildren(page: PageNode): Node[] {
  if (page.of !== 'rules') return [];
  const policy = page.parent.parent.entry.policy;
  return page.items.map((rule) => ruleNode(page, page.parent, policy, rule));
}

function ruleNode(parent: RuleModeNode | PageNode, modeNode: RuleModeNode, policy: Policy, rule: RuleNode['rule']): RuleNode {
  return { kind: 'rule', id: nodeIds.rule(modeNode.id, rule.id || rule.path), parent, policy, rule };
}
