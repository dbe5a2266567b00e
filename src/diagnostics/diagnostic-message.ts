/**
 * The words of a finding's diagnostic, without `vscode` (tested in plain Node). The Problems
 * panel's filter box matches a diagnostic's message, its source and its code, so what the tree
 * says of a finding beyond its rule (an AI finding, a secret's validation) is said in the message,
 * in the tree's words: typing "AI:" or "not validated" there finds those findings. A secret's
 * word is in parentheses, so "(valid secret" finds the secrets that work and not the invalid ones.
 */
import { supplyChainName } from '../core/model/finding-names';
import type { Finding } from '../core/model/types';
import { secretValidationLabel } from '../core/services/filters';

/**
 * The source of every diagnostic of ours, AI findings and secrets too: it names the extension, so
 * filtering Problems by it shows all of our findings, and the records a cached start draws from
 * (core/services/shown-snapshot.ts) keep the message but not the source.
 */
export const DIAGNOSTIC_SOURCE = 'AppSec';

/** How the message marks an AI finding: the word the tree's description uses, first. */
export const AI_PREFIX = 'AI: ';

/** Added when the finding's own code changed since the scan: the diagnostic is at the closest place. */
export const CHANGED_SUFFIX = ' (the code here changed since the scan)';

/**
 * "AI: The route returns …", "AWS secret committed in the repository (valid secret)",
 * "lodash 4.17.20 — CVE-2021-23337 (unreachable from your code): … Fixed in 4.17.21.", or the
 * rule's message as sent.
 */
export function messageOf(finding: Finding): string {
  const text = finding.message.trim() || finding.ruleName;
  if (finding.secret) return `${text} (${secretValidationLabel(finding.secret.validation)})`;
  if (finding.ai) return `${AI_PREFIX}${text}`;
  if (!finding.sca) return text;
  const { fixVersions } = finding.sca;
  const fix = fixVersions && fixVersions.length > 0 ? ` Fixed in ${fixVersions.join(', ')}.` : '';
  const name = supplyChainName(finding) ?? finding.sca.advisory;
  // Reachability changes what a supply-chain finding means: say it up front.
  const reach = finding.sca.reachability === 'unreachable' ? ' (unreachable from your code)' : finding.sca.isMalicious ? ' (malicious package)' : '';
  return `${name ? `${name}${reach}: ` : ''}${text}${fix}`;
}

/** The diagnostic's whole message: {@link messageOf}, and whether the code here changed since the scan. */
export function diagnosticMessage(finding: Finding, changed = false): string {
  return changed ? `${messageOf(finding)}${CHANGED_SUFFIX}` : messageOf(finding);
}
