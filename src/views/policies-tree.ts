/**
 * The Policy Rules view: the deployment's policies (listed, named by findings, or set in
 * settings), each with its rules grouped by mode. The list endpoint is not in the spec, so its
 * failure is shown as a warning above the policies known from elsewhere, never as an empty view.
 */
import * as vscode from 'vscode';
import type { Disposable } from '../core/events';
import type { Finding } from '../core/model/types';
import type { Policy } from '../core/model/policy';
import type { Unavailable } from '../core/services/kind-availability';
import { mergePolicies, type PoliciesService } from '../core/services/policies-service';
import type { TreeSession } from './projects-tree-deps';
import { policiesRoot, policyChildren, policyLoadFailed, ruleModeChildren, rulePageChildren } from './rules-children';
import { actionChildren, message, noDeployment } from './state-messages';
import { resolveTooltip, toTreeItem } from './tree-items';
import { nodeIds, type Node, type PolicyNode } from './tree-nodes';
import { t } from '../core/l10n';

export const POLICIES_VIEW_ID = 'appsecFindings.policies';

export interface PoliciesTreeDeps {
  readonly session: TreeSession;
  readonly policies: PoliciesService;
  /** Findings whose `sourcing_policy` names a policy (one per policy is enough). */
  policyFindings(): Iterable<Finding>;
  /** Policy ids from the `appsecFindings.policyIds` setting. */
  policyIds(): readonly string[];
  errorMessage(error: unknown): string;
}

export class PoliciesTreeProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** policy id → the node last handed to VS Code, which refreshes by object identity. */
  private readonly policyNodes = new Map<string, PolicyNode>();
  /** Ids of the policies learnt from findings and settings when the root was last drawn. */
  private shownSourceIds = '';
  private readonly subscriptions: Disposable[];

  constructor(private readonly deps: PoliciesTreeDeps) {
    this.subscriptions = [
      deps.policies.onDidChange(() => this.refresh()),
      ...(deps.session.onDidChange ? [deps.session.onDidChange(() => this.refresh())] : []),
    ];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /**
   * Called when findings or the setting changed: redraws only when they name a policy set other
   * than the one shown, so a findings refresh does not collapse this view's work.
   */
  onPolicySourcesChanged(): void {
    if (this.sourceIds() !== this.shownSourceIds) this.refresh();
  }

  /** Retry: the policy list (no id) or one policy's rules; the service forgets failures, so asking again refetches. */
  retry(policyId?: string): void {
    this.changed.fire(policyId === undefined ? undefined : this.policyNodes.get(policyId));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return toTreeItem(node, { issueTypeDescription: () => undefined });
  }

  async resolveTreeItem(item: vscode.TreeItem, node: Node, token: vscode.CancellationToken): Promise<vscode.TreeItem> {
    item.tooltip = (await resolveTooltip(node, token)) ?? item.tooltip;
    return item;
  }

  getParent(node: Node): Node | undefined {
    return node.parent;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.rootChildren();
    switch (node.kind) {
      case 'policy':
        try {
          return policyChildren(node, await this.deps.policies.loadRules(node.entry.policy));
        } catch (error) {
          return policyLoadFailed(node, this.deps.errorMessage(error));
        }
      case 'ruleMode':
        return ruleModeChildren(node);
      case 'page':
        return rulePageChildren(node);
      case 'message':
        return actionChildren(node);
      default:
        return [];
    }
  }

  /**
   * The node of a rule (by its dotted id) in the first policy that has it, loading policies'
   * rules as needed; undefined when no policy shown here has it.
   */
  async findRule(ruleName: string): Promise<Node | undefined> {
    const search = async (nodes: readonly Node[]): Promise<Node | undefined> => {
      for (const node of nodes) {
        if (node.kind === 'rule' && node.rule.path === ruleName) return node;
        if (node.kind === 'policy' || node.kind === 'ruleMode' || node.kind === 'page') {
          const found = await search(await this.getChildren(node));
          if (found) return found;
        }
      }
      return undefined;
    };
    return search(await this.getChildren());
  }

  private async rootChildren(): Promise<Node[]> {
    const session = this.deps.session.state;
    if (session.kind === 'signedOut') return [];
    if (session.kind === 'noDeployment') return [message(undefined, nodeIds.root('policies'), noDeployment(session.message))];
    let listed: readonly Policy[] = [];
    let listFailure: string | undefined;
    let unavailable: Unavailable | undefined;
    try {
      const answer = await this.deps.policies.listPolicies();
      listed = answer.policies;
      unavailable = answer.unavailable;
      // Kept through an outage: the last list stays, with the reason above it.
      if (answer.staleBecause !== undefined) listFailure = t('{0} (showing the policies listed before)', this.deps.errorMessage(answer.staleBecause));
    } catch (error) {
      listFailure = this.deps.errorMessage(error);
    }
    this.shownSourceIds = this.sourceIds();
    const nodes = policiesRoot(session.deployment.id, mergePolicies(listed, this.deps.policyFindings(), this.deps.policyIds()), listFailure, unavailable);
    this.policyNodes.clear();
    for (const child of nodes) if (child.kind === 'policy') this.policyNodes.set(child.entry.policy.id, child);
    return nodes;
  }

  private sourceIds(): string {
    const ids = new Set<string>(this.deps.policyIds());
    for (const finding of this.deps.policyFindings()) if (finding.policy) ids.add(String(finding.policy.id));
    return [...ids].sort().join(',');
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
