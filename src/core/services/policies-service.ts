/**
 * Policies and their rules. The set of policies is the union of what the platform lists, what
 * findings name in `sourcing_policy`, and ids from a setting (the list endpoint is not in the
 * spec, so any of the three may be all there is). Rules are cursor-paged and loaded per policy.
 */
import { Emitter, type Disposable } from '../events';
import { unavailableOf, type Unavailable } from './kind-availability';
import type { Finding } from '../model/types';
import type { Policy, PolicyRule } from '../model/policy';
import type { PlatformApi } from './platform-api';

export interface PolicyEntry {
  readonly policy: Policy;
  /** Where we learnt of it, for the tooltip. */
  readonly origin: 'platform' | 'findings' | 'settings';
}

export interface PolicyRules {
  readonly policy: Policy;
  readonly rules: readonly PolicyRule[];
  readonly skipped: number;
}

export function mergePolicies(listed: readonly Policy[], fromFindings: Iterable<Finding>, fromSettings: readonly string[]): PolicyEntry[] {
  const byId = new Map<string, PolicyEntry>();
  for (const policy of listed) byId.set(policy.id, { policy, origin: 'platform' });
  for (const finding of fromFindings) {
    const p = finding.policy;
    if (p && !byId.has(String(p.id))) {
      byId.set(String(p.id), { policy: { id: String(p.id), name: p.name, slug: p.slug, isDefault: false }, origin: 'findings' });
    }
  }
  for (const id of fromSettings) {
    if (/^\d+$/.test(id) && !byId.has(id)) byId.set(id, { policy: { id, name: `Policy ${id}`, slug: id, isDefault: false }, origin: 'settings' });
  }
  return [...byId.values()].sort((a, b) => Number(b.policy.isDefault) - Number(a.policy.isDefault) || a.policy.name.localeCompare(b.policy.name));
}

/** The label for a rule mode; values the spec does not list are shown as they came. */
export function modeLabel(mode: string): string {
  switch (mode) {
    case 'MODE_MONITOR': return 'monitor';
    case 'MODE_COMMENT': return 'comment';
    case 'MODE_BLOCK': return 'block';
    case 'MODE_DISABLED': return 'disabled';
    default: return mode || 'unknown mode';
  }
}

/** The listed policies, and why they may be the list from before (a later load failed). */
export interface ListedPolicies {
  readonly policies: readonly Policy[];
  readonly staleBecause?: unknown;
  /** The deployment does not list policies (no such product, or a role that may not read them). */
  readonly unavailable?: Unavailable;
}

export class PoliciesService implements Disposable {
  private listed: Promise<readonly Policy[]> | undefined;
  /** The last list the platform gave, kept through an outage (shown marked stale). */
  private lastListed: readonly Policy[] | undefined;
  private readonly rules = new Map<string, Promise<PolicyRules>>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly api: () => PlatformApi, private readonly deploymentId: () => string | undefined) {}

  /**
   * Listed policies. When the list cannot be loaded, the last list is kept, with the reason
   * (the view marks it stale); without one, the error is thrown so the view can say so.
   */
  async listPolicies(signal?: AbortSignal): Promise<ListedPolicies> {
    const id = this.deploymentId();
    if (!id) return { policies: [] };
    if (!this.listed) {
      this.listed = this.api().listPolicies(id, { signal });
      this.listed.then((policies) => (this.lastListed = policies), () => (this.listed = undefined));
    }
    try {
      return { policies: await this.listed };
    } catch (error) {
      // Not having policies is a state: the policies findings name are still shown.
      const unavailable = unavailableOf(error);
      if (unavailable) return { policies: [], unavailable };
      if (this.lastListed) return { policies: this.lastListed, staleBecause: error };
      throw error;
    }
  }

  /** Asks the platform again on the next look, keeping what was listed until then (a refresh). */
  expire(): void {
    this.listed = undefined;
    this.rules.clear();
    this.changed.fire();
  }

  /** Every rule of a policy, all cursor pages. */
  loadRules(policy: Policy, signal?: AbortSignal): Promise<PolicyRules> {
    const id = this.deploymentId();
    if (!id) return Promise.reject(new Error('Not signed in.'));
    let pending = this.rules.get(policy.id);
    if (!pending) {
      pending = this.collect(id, policy, signal);
      pending.catch(() => this.rules.delete(policy.id));
      this.rules.set(policy.id, pending);
    }
    return pending;
  }

  private async collect(deploymentId: string, policy: Policy, signal?: AbortSignal): Promise<PolicyRules> {
    const rules: PolicyRule[] = [];
    let skipped = 0;
    let described = policy;
    for await (const page of this.api().policyRules(deploymentId, policy.id, { signal, limit: 500 })) {
      if (page.policy) described = page.policy;
      rules.push(...page.rules);
      skipped += page.skipped;
    }
    return { policy: described, rules, skipped };
  }

  /** Forgets everything (sign-out, another deployment). */
  clear(): void {
    this.listed = undefined;
    this.lastListed = undefined;
    this.rules.clear();
    this.changed.fire();
  }

  dispose(): void {
    this.rules.clear();
    this.changed.dispose();
  }
}
