/**
 * Policies and their rule lists. Code findings are later drawn from the SAST policies' rules
 * (same `rule_name`, `sourcing_policy` pointing here) so the `policies` filter, which maps a
 * finding to the mode of its rule in its sourcing policy, has something real to work on. The
 * deployment also has a Secrets policy, as real ones do, so a list of policies holds more than
 * one product; no code finding comes from it.
 */
import type { WirePolicy, WireRule } from './wire';
import type { Rng } from './prng';
import { formatTimestamp } from './timestamps';
import type { PlatformData } from './types';
import { RULE_CATALOG, type Language, type RuleTemplate } from './vocab';

export interface GeneratedPolicy {
  policy: WirePolicy;
  /** Numeric form of `policy.id`, as findings carry it in `sourcing_policy.id`. */
  numericId: number;
  rules: WireRule[];
  /** The rule templates of this policy for each language (generic rules included in each). */
  templatesByLanguage: Map<Language, RuleTemplate[]>;
}

const POLICY_NAMES = ['Default Policy', 'Strict PR Gate', 'Legacy Audit', 'Secrets Only'];
const MODES_IN_ORDER = ['MODE_MONITOR', 'MODE_COMMENT', 'MODE_BLOCK', 'MODE_DISABLED'] as const;
const LANGUAGES: Language[] = ['python', 'javascript', 'java', 'go'];
export const FIRST_POLICY_ID = 7;
const FIRST_RULE_ID = 480_001;

function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The k-th rule template of a policy: catalog entries rotated per policy, then numbered variants. */
function templateFor(policyIndex: number, k: number): RuleTemplate {
  const n = RULE_CATALOG.length;
  const base = RULE_CATALOG[(k + policyIndex * 7) % n];
  const round = Math.floor(k / n);
  return round === 0 ? base : { ...base, path: `${base.path}-${round + 1}` };
}

function customTemplate(base: RuleTemplate, slug: string): RuleTemplate {
  const tail = base.path.split('.').slice(-1)[0] ?? 'rule';
  return { ...base, path: `${slug}.custom.${base.language}.${tail}-in-handlers`, message: `${base.message} (Acme house rule)` };
}

export interface RuleChoices {
  mode: string;
  source: 'SOURCE_COMMUNITY' | 'SOURCE_PRO' | 'SOURCE_CUSTOM';
  confidence: string;
  changedAt: string;
}

/** A policy rule (spec 2.2) from a template; custom rules name who changed them last. */
export function makeRule(template: RuleTemplate, id: string, c: RuleChoices): WireRule {
  const custom = c.source === 'SOURCE_CUSTOM';
  const rule: WireRule = {
    id,
    path: template.path,
    category: template.category,
    confidence: c.confidence,
    severity: `SEVERITY_${template.severity.toUpperCase()}`,
    source: c.source,
    policyMode: c.mode,
    cweCategories: [...template.cwe],
    owaspCategories: [...template.owasp],
    vulnerabilityClass: [...template.vulnClass],
    languages: [template.language],
    technologies: [...template.technologies],
    rulesets: custom ? [] : ['p/default', `p/${template.language}`],
    registryMaintainer: custom ? 'Acme AppSec' : 'Semgrep',
    url: `https://semgrep.dev/r/${template.path}`,
    lastChangeAt: c.changedAt,
  };
  if (custom) rule.lastChangeBy = 'alice.nguyen@acme.example';
  return rule;
}

export function generatePolicies(rng: Rng, count: number, rulesPerPolicy: number, baseTime: number, deploymentSlug: string): GeneratedPolicy[] {
  const out: GeneratedPolicy[] = [];
  let ruleId = FIRST_RULE_ID;
  for (let p = 0; p < count; p++) {
    const name = POLICY_NAMES[p] ?? `Policy ${p + 1}`;
    const numericId = FIRST_POLICY_ID + p;
    const policy: WirePolicy = { id: String(numericId), isDefault: p === 0, name, productType: 'PRODUCT_TYPE_SAST', slug: slugify(name) };
    const rules: WireRule[] = [];
    const templatesByLanguage = new Map<Language, RuleTemplate[]>(LANGUAGES.map((l) => [l, []]));
    for (let k = 0; k < rulesPerPolicy; k++) {
      // The first policy carries one custom rule (the only kind with `lastChangeBy`).
      const custom = p === 0 && k === Math.min(4, rulesPerPolicy - 1);
      const template = custom ? customTemplate(templateFor(p, k), deploymentSlug) : templateFor(p, k);
      // Every policy shows each mode at least once, then mostly monitor, as real boards do.
      const mode =
        k < MODES_IN_ORDER.length
          ? MODES_IN_ORDER[(k + p) % MODES_IN_ORDER.length]
          : rng.weighted([
              ['MODE_MONITOR', 50],
              ['MODE_COMMENT', 25],
              ['MODE_BLOCK', 17],
              ['MODE_DISABLED', 8],
            ] as const);
      const source = custom ? 'SOURCE_CUSTOM' : rng.chance(0.4) ? 'SOURCE_PRO' : 'SOURCE_COMMUNITY';
      const changedAt = formatTimestamp(baseTime - rng.int(1, 400) * 86_400_000 - rng.int(0, 86_399_999), rng.chance(0.7) ? 'iso' : 'python');
      const confidence = rng.weighted([
        ['CONFIDENCE_HIGH', 6],
        ['CONFIDENCE_MEDIUM', 3],
        ['CONFIDENCE_LOW', 1],
      ] as const);
      const rule = makeRule(template, String(ruleId++), { mode, source, confidence, changedAt });
      rules.push(rule);
      const targets = template.language === 'generic' ? LANGUAGES : [template.language];
      for (const lang of targets) templatesByLanguage.get(lang)!.push(template);
    }
    out.push({ policy, numericId, rules, templatesByLanguage });
  }
  return out;
}

/** Secrets rules: generic (any file), each for one provider's credential. */
const SECRETS_TEMPLATES: readonly RuleTemplate[] = (
  [
    ['detected-aws-access-key', 'critical', 'aws', 'AWS Access Key ID detected.'],
    ['detected-aws-secret-access-key', 'critical', 'aws', 'AWS Secret Access Key detected.'],
    ['detected-github-token', 'high', 'github', 'GitHub personal access token detected.'],
    ['detected-stripe-api-key', 'high', 'stripe', 'Stripe secret API key detected.'],
    ['detected-slack-webhook', 'medium', 'slack', 'Slack incoming webhook URL detected.'],
    ['detected-private-key', 'high', 'secrets', 'Private key detected.'],
  ] as const
).map(([name, severity, technology, message]) => ({
  path: `generic.secrets.security.${name}`,
  language: 'generic',
  severity,
  category: 'security',
  cwe: ['CWE-798: Use of Hard-coded Credentials'],
  owasp: ['A07:2021 - Identification and Authentication Failures'],
  vulnClass: ['Hard-coded Secrets'],
  technologies: [technology],
  message,
}));

export const SECRETS_POLICY_NAME = 'Secrets Policy';

/**
 * The Secrets policy that follows the SAST policies: the next policy id and rule ids after theirs,
 * so theirs stay as they were. Made without the generator's random numbers, so adding it changes
 * nothing else that is generated. Its templates are left out of `templatesByLanguage`.
 */
export function secretsPolicy(sast: readonly GeneratedPolicy[], baseTime: number): GeneratedPolicy {
  const numericId = FIRST_POLICY_ID + sast.length;
  const firstRuleId = FIRST_RULE_ID + sast.reduce((sum, p) => sum + p.rules.length, 0);
  const policy: WirePolicy = {
    id: String(numericId),
    isDefault: false,
    name: SECRETS_POLICY_NAME,
    productType: 'PRODUCT_TYPE_SECRETS',
    slug: slugify(SECRETS_POLICY_NAME),
  };
  const rules = SECRETS_TEMPLATES.map((template, k) => {
    const changedAt = formatTimestamp(baseTime - (k + 1) * 9 * 86_400_000, 'iso');
    const rule = makeRule(template, String(firstRuleId + k), {
      mode: MODES_IN_ORDER[k % MODES_IN_ORDER.length],
      source: 'SOURCE_PRO',
      confidence: 'CONFIDENCE_HIGH',
      changedAt,
    });
    rule.rulesets = ['p/secrets'];
    return rule;
  });
  return { policy, numericId, rules, templatesByLanguage: new Map() };
}

/** The deployment's policies and rules: the SAST policies given, then the Secrets policy. */
export function deploymentPolicies(sast: readonly GeneratedPolicy[], baseTime: number): Pick<PlatformData, 'policies' | 'rulesByPolicyId'> {
  const all = [...sast, secretsPolicy(sast, baseTime)];
  return { policies: all.map((p) => p.policy), rulesByPolicyId: new Map(all.map((p) => [p.policy.id ?? '', p.rules])) };
}
