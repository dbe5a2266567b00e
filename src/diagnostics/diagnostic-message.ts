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
import { t } from '../core/l10n';

/**
 * The source of every diagnostic of ours, AI findings and secrets too: it names the extension, so
 * filtering Problems by it shows all of our findings, and the records a cached start draws from
 * (core/services/shown-snapshot.ts) keep the message but not the source.
 */
export const DIAGNOSTIC_SOURCE = 'AppSec';

/** How the message marks an AI finding, in English: the word the tree's description uses, first. */
export const AI_PREFIX = 'AI: ';

/** Added when the finding's own code changed since the scan, in English: the diagnostic is at the closest place. */
export const CHANGED_SUFFIX = ' (the code here changed since the scan)';

/**
 * "AI: The route returns …", "AWS secret committed in the repository (valid secret)",
 * "lodash 4.17.20 — CVE-2021-23337 (unreachable from your code): … Fixed in 4.17.21.", or the
 * rule's message as sent.
 */
export function messageOf(finding: Finding): string {
  const text = finding.message.trim() || finding.ruleName;
  // The platform's text stays as sent; only our words around it follow the display language.
  if (finding.secret) return t('{0} ({1})', text, secretValidationLabel(finding.secret.validation));
  if (finding.ai) return t('AI: {0}', text);
  if (!finding.sca) return text;
  const { fixVersions } = finding.sca;
  const withFix = fixVersions && fixVersions.length > 0 ? t('{0} Fixed in {1}.', text, fixVersions.join(', ')) : text;
  const name = supplyChainName(finding) ?? finding.sca.advisory;
  if (!name) return withFix;
  // Reachability changes what a supply-chain finding means: say it up front.
  if (finding.sca.reachability === 'unreachable') return t('{0} (unreachable from your code): {1}', name, withFix);
  if (finding.sca.isMalicious) return t('{0} (malicious package): {1}', name, withFix);
  return `${name}: ${withFix}`;
}

/** The diagnostic's whole message: {@link messageOf}, and whether the code here changed since the scan. */
export function diagnosticMessage(finding: Finding, changed = false): string {
  return changed ? t('{0} (the code here changed since the scan)', messageOf(finding)) : messageOf(finding);
}
