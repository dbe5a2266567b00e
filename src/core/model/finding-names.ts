/** How people name a finding, for every place that shows one (tree, Problems, hovers, tools). */
import type { Finding } from './types';

/** `requests 2.19.0 — CVE-2018-18074`, or undefined when the finding names no package. */
export function supplyChainName(finding: Pick<Finding, 'sca'>): string | undefined {
  const sca = finding.sca;
  if (!sca?.package) return undefined;
  const pkg = sca.version ? `${sca.package} ${sca.version}` : sca.package;
  return sca.advisory ? `${pkg} — ${sca.advisory}` : pkg;
}
