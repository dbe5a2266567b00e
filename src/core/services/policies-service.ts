/**
 * Policies and their rules. The set of policies is the union of what the platform lists, what
 * findings name in `sourcing_policy`, and ids from a setting (the list endpoint is not in the
 * spec, so any of the three may be all there is). Rules are cursor-paged and loaded per policy.
 * A rule's mode is changed here, as triage changes findings: checked first, shown at once,
 * rolled back to the very objects shown before when the platform refuses.
 */
import { Emitter, type Disposable } from '../events';
import { said } from '../l10n';
import { PlatformError } from '../model/errors';
import type { SettableRuleMode } from '../api/platform-changes';
import { unavailableOf, type Unavailable } from './kind-availability';
import type { Finding } from '../model/types';
import type { Policy, PolicyRule } from '../model/policy';
import type { PlatformApi } from './platform-api';
import { RuleModeInputError, ruleModeInputProblem } from './rule-modes';

export { modeLabel } from './rule-modes';

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

/** The listed policies, and why they may be the list from before (a later load failed). */
export interface ListedPolicies {
  readonly policies: readonly Policy[];
  readonly staleBecause?: unknown;
  /** The deployment does not list policies (no such product, or a role that may not read them). */
  readonly unavailable?: Unavailable;
}

/** A policy's rules as loading, and once loaded (what a change is made to, without waiting). */
interface RulesEntry {
  readonly pending: Promise<PolicyRules>;
  value?: PolicyRules;
}

/** A rule's mode change: the rule before and as shown now; `sent` false when it already had that mode. */
export interface RuleModeChange {
  readonly policy: Policy;
  readonly before: PolicyRule;
  readonly rule: PolicyRule;
  readonly sent: boolean;
}

/** The rules with `from` replaced by `to`, as a new object. */
function withRule(loaded: PolicyRules, from: PolicyRule, to: PolicyRule): PolicyRules {
  return { ...loaded, rules: loaded.rules.map((rule) => (rule === from ? to : rule)) };
}

export class PoliciesService implements Disposable {
  private listed: Promise<readonly Policy[]> | undefined;
  /** The last list the platform gave, kept through an outage (shown marked stale). */
  private lastListed: readonly Policy[] | undefined;
  private readonly rules = new Map<string, RulesEntry>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly api: () => PlatformApi,
    private readonly deploymentId: () => string | undefined,
  ) {}

  /**
   * Listed policies. When the list cannot be loaded, the last list is kept, with the reason
   * (the view marks it stale); without one, the error is thrown so the view can say so.
   */
  async listPolicies(signal?: AbortSignal): Promise<ListedPolicies> {
    const id = this.deploymentId();
    if (!id) return { policies: [] };
    if (!this.listed) {
      this.listed = this.api().listPolicies(id, { signal });
      this.listed.then(
        (policies) => (this.lastListed = policies),
        () => (this.listed = undefined),
      );
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
    let entry = this.rules.get(policy.id);
    if (!entry) {
      const made: RulesEntry = { pending: this.collect(id, policy, signal) };
      made.pending.then(
        (loaded) => (made.value = loaded),
        () => {
          if (this.rules.get(policy.id) === made) this.rules.delete(policy.id);
        },
      );
      this.rules.set(policy.id, (entry = made));
    }
    return entry.pending;
  }

  /**
   * A rule of a policy as shown now, loading the policy's rules when they are not (automation
   * may name a policy the view never opened). Unknown policies and rules are refused.
   */
  async findRule(policyId: string, rulePath: string): Promise<{ readonly rules: PolicyRules; readonly rule: PolicyRule }> {
    const problem = ruleModeInputProblem(policyId, rulePath);
    if (problem) throw new RuleModeInputError(problem);
    let loaded: PolicyRules;
    try {
      loaded = await this.loadRules(this.knownPolicy(policyId));
    } catch (error) {
      if (PlatformError.is(error, 'notFound')) throw new RuleModeInputError(said('The deployment has no policy {0} that this token may read.', policyId));
      throw error;
    }
    // A change made while the rules loaded is in the entry, not in the answer awaited.
    const rules = this.rules.get(policyId)?.value ?? loaded;
    const rule = rules.rules.find((r) => r.path === rulePath);
    if (!rule) throw new RuleModeInputError(said('{0} (policy {1}) has no rule {2}.', rules.policy.name, policyId, rulePath));
    return { rules, rule };
  }

  /**
   * Sets a rule's mode on the platform. Shown at once (one change event); the platform's rule is
   * kept when its answer has one; when refused, the rules shown before are put back (one more
   * event) and the error is thrown. The mode the rule already has sends nothing.
   */
  async setRuleMode(policyId: string, rulePath: string, mode: SettableRuleMode, signal?: AbortSignal): Promise<RuleModeChange> {
    const problem = ruleModeInputProblem(policyId, rulePath, mode);
    if (problem) throw new RuleModeInputError(problem);
    const deploymentId = this.deploymentId();
    if (!deploymentId) throw new RuleModeInputError(said("Sign in to change a rule's mode."));
    const { rules: before, rule } = await this.findRule(policyId, rulePath);
    if (rule.mode === mode) return { policy: before.policy, before: rule, rule, sent: false };
    const asked: PolicyRule = { ...rule, mode };
    const shown = withRule(before, rule, asked);
    this.show(policyId, shown);
    let answered: PolicyRule | undefined;
    try {
      answered = await this.api().setRuleMode(deploymentId, policyId, rulePath, mode, { signal });
    } catch (error) {
      this.replace(policyId, asked, rule, { shown, before });
      throw error;
    }
    const kept = answered?.path === rulePath ? answered : asked;
    if (kept !== asked) this.replace(policyId, asked, kept);
    return { policy: before.policy, before: rule, rule: kept, sent: true };
  }

  /** The listed policy of that id, else a stand-in the rules' answer names properly. */
  private knownPolicy(policyId: string): Policy {
    return this.lastListed?.find((p) => p.id === policyId) ?? { id: policyId, name: `Policy ${policyId}`, slug: policyId, isDefault: false };
  }

  private show(policyId: string, rules: PolicyRules): void {
    this.rules.set(policyId, { pending: Promise.resolve(rules), value: rules });
    this.changed.fire();
  }

  /**
   * Puts `to` where `from` is shown. When nothing else changed the rules since `undo.shown` was
   * shown, `undo.before` itself comes back; rules loaded again since no longer hold `from`, and
   * are left as they are.
   */
  private replace(policyId: string, from: PolicyRule, to: PolicyRule, undo?: { shown: PolicyRules; before: PolicyRules }): void {
    const now = this.rules.get(policyId)?.value;
    if (undo && now === undo.shown) this.show(policyId, undo.before);
    else if (now?.rules.includes(from)) this.show(policyId, withRule(now, from, to));
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
