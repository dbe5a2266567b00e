/** How people name a finding, for every place that shows one (tree, Problems, hovers, tools). */
import type { Finding, SecretFacts } from './types';

/** `requests 2.19.0 — CVE-2018-18074`, or undefined when the finding names no package. */
export function supplyChainName(finding: Pick<Finding, 'sca'>): string | undefined {
  const sca = finding.sca;
  if (!sca?.package) return undefined;
  const pkg = sca.version ? `${sca.package} ${sca.version}` : sca.package;
  return sca.advisory ? `${pkg} — ${sca.advisory}` : pkg;
}

/** The last dotted segment, which is what tells rules apart at a glance; the full id is shown elsewhere. */
export function shortRuleName(ruleName: string): string {
  const segments = ruleName.split('.').filter((s) => s.length > 0);
  return segments[segments.length - 1] ?? (ruleName || '(unnamed rule)');
}

/**
 * Supply-chain findings are named as people name them, package, version and advisory
 * (`requests 2.19.0 — CVE-2018-18074`), never by the rule's opaque `ssc-…` id; code findings by
 * their rule, secrets by the service whose secret it is (their `ruleName`).
 */
export function findingLabel(finding: Pick<Finding, 'sca' | 'ruleName'>): string {
  return supplyChainName(finding) ?? shortRuleName(finding.ruleName);
}

/** `AWS secret`: a secret named by the service it belongs to. */
export function secretName(secret: Pick<SecretFacts, 'service'>): string {
  return `${secret.service || 'unknown'} secret`;
}

/**
 * What a group of one rule's findings is called: a supply-chain rule by its package and advisory
 * (`lodash — CVE-2021-23337`; its `ssc-…` id means nothing to people), a secret rule by its
 * service, a code rule by its full id (two rules often share a last segment).
 */
export function ruleGroupName(finding: Pick<Finding, 'sca' | 'ruleName' | 'secret'>): string {
  const sca = finding.sca;
  if (sca?.package || sca?.advisory) return [sca.package, sca.advisory].filter(Boolean).join(' — ');
  if (finding.secret) return `${secretName(finding.secret)}s`;
  return finding.ruleName;
}

/**
 * A finding named so that findings sharing a line can be told apart in a menu: secrets by their
 * service (`AWS secret`), AI findings marked as such, the others as {@link findingLabel}.
 */
export function distinctName(finding: Pick<Finding, 'sca' | 'ruleName' | 'ai' | 'secret'>): string {
  if (finding.secret) return secretName(finding.secret);
  return finding.ai ? `${findingLabel(finding)} (AI)` : findingLabel(finding);
}
