/**
 * How policies and their rules read in the Policy Rules tree. Pure (no `vscode`). Rule modes are
 * an open enumeration: a value the spec does not list keeps its raw text and a question icon.
 */
import type { PolicyRule } from '../core/model/policy';
import { modeLabel, type PolicyEntry } from '../core/services/policies-service';
import { shortRuleName, type IconSpec } from './finding-presentation';
import { isHttpUrl, TooltipText } from './markdown';
import { formatDay, t } from '../core/l10n';

const KNOWN_MODES = ['MODE_BLOCK', 'MODE_COMMENT', 'MODE_MONITOR', 'MODE_DISABLED'];

export function ruleModeIcon(mode: string): IconSpec {
  switch (mode) {
    case 'MODE_BLOCK':
      return { id: 'circle-slash', color: 'problemsErrorIcon.foreground' };
    case 'MODE_COMMENT':
      return { id: 'comment' };
    case 'MODE_MONITOR':
      return { id: 'eye' };
    case 'MODE_DISABLED':
      return { id: 'circle-outline', color: 'disabledForeground' };
    default:
      return { id: 'question' };
  }
}

/** "Block", "Comment", …; an unknown mode is shown exactly as the service sent it. */
export function ruleModeTitle(mode: string): string {
  if (!KNOWN_MODES.includes(mode)) return modeLabel(mode);
  const label = modeLabel(mode);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export interface RulesOfMode {
  readonly mode: string;
  readonly rules: readonly PolicyRule[];
}

/** Rules grouped by mode, strictest first, then unknown modes by name; rules by path within. */
export function groupRulesByMode(rules: readonly PolicyRule[]): RulesOfMode[] {
  const byMode = new Map<string, PolicyRule[]>();
  for (const rule of rules) {
    let bucket = byMode.get(rule.mode);
    if (!bucket) byMode.set(rule.mode, (bucket = []));
    bucket.push(rule);
  }
  const rank = (mode: string): number => {
    const i = KNOWN_MODES.indexOf(mode);
    return i < 0 ? KNOWN_MODES.length : i;
  };
  return [...byMode]
    .map(([mode, items]) => ({ mode, rules: items.sort((a, b) => a.path.localeCompare(b.path)) }))
    .sort((a, b) => rank(a.mode) - rank(b.mode) || a.mode.localeCompare(b.mode));
}

export const ruleLabel = (rule: PolicyRule): string => shortRuleName(rule.path);

/**
 * `SEVERITY_HIGH` → `high`, `CONFIDENCE_MEDIUM` → `medium`, `SOURCE_PRO` → `pro`: the prefix
 * repeats the field's name and capitals shout. A value without a known prefix is shown as sent
 * (lower-cased words only when it is an upper-case identifier), so new values still read.
 */
export function enumWord(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const bare = value.replace(/^(SEVERITY|CONFIDENCE|SOURCE|CATEGORY)_/, '');
  return /^[A-Z][A-Z0-9_]*$/.test(bare) ? bare.toLowerCase().replace(/_/g, ' ') : bare;
}

/** "block · high"; an unknown mode shows its raw value. */
export function ruleDescription(rule: PolicyRule): string {
  return [modeLabel(rule.mode), severityWord(rule.severity)].filter((p): p is string => !!p).join(' · ');
}

/** `SEVERITY_HIGH` → `high` in the display language; a level without a known word reads as `enumWord` gives it. */
function severityWord(value: string | undefined): string | undefined {
  const word = enumWord(value);
  switch (word) {
    case 'critical':
      return t('critical');
    case 'high':
      return t('high');
    case 'medium':
      return t('medium');
    case 'low':
      return t('low');
    default:
      return word;
  }
}

/**
 * "rule MODE_BLOCK hasUrl": space-separated flags that menus match with `\bword\b`. The mode is
 * there so the Set Mode submenu greys out the rule's current one (an extension's menu entry cannot
 * carry a tick).
 */
export function ruleContextValue(rule: PolicyRule): string {
  return ['rule', ...(/^MODE_[A-Z_]+$/.test(rule.mode ?? '') ? [rule.mode] : []), ...(isHttpUrl(rule.url) ? ['hasUrl'] : [])].join(' ');
}

export function ruleAccessibilityLabel(rule: PolicyRule): string {
  return [t('rule {0}', rule.path), t('mode {0}', modeLabel(rule.mode)), rule.severity ? t('{0} severity', severityWord(rule.severity) ?? '') : undefined]
    .filter((p): p is string => !!p)
    .join(', ');
}

export function ruleTooltip(rule: PolicyRule, policyName: string): string {
  const list = (values: readonly string[]): string | undefined => (values.length > 0 ? values.join(', ') : undefined);
  return new TooltipText()
    .heading(rule.path)
    .separator()
    .field(t('Policy'), policyName)
    .field(t('Mode'), modeLabel(rule.mode))
    .field(t('Severity'), severityWord(rule.severity))
    .field(t('Confidence'), severityWord(rule.confidence))
    .field(t('Category'), rule.category)
    .field(t('Source'), enumWord(rule.source))
    .field(t('Languages'), list(rule.languages))
    .field('CWE', list(rule.cweCategories))
    .field('OWASP', list(rule.owaspCategories))
    .field(t('Last changed'), rule.lastChangeAt && formatDay(rule.lastChangeAt))
    .field(t('Changed by'), rule.lastChangeBy)
    .codeField(t('Rule id'), rule.id)
    .link(rule.url ?? '', rule.url)
    .toString();
}

/** "PRODUCT_TYPE_SAST" → "SAST": the prefix says nothing to a reader. */
export function productLabel(productType: string | undefined): string | undefined {
  return productType ? productType.replace(/^PRODUCT_TYPE_/, '') : undefined;
}

function originText(origin: PolicyEntry['origin']): string {
  switch (origin) {
    case 'platform':
      return t('listed by the platform');
    case 'findings':
      return t('named by findings');
    case 'settings':
      return t('from the {0} setting', 'appsecFindings.policyIds');
  }
}

/** "default · SAST", plus where the policy was learnt of when the platform did not list it. */
export function policyDescription(entry: PolicyEntry): string {
  const parts = [
    entry.policy.isDefault ? t('default') : undefined,
    productLabel(entry.policy.productType),
    entry.origin === 'platform' ? undefined : originText(entry.origin),
  ];
  return parts.filter((p): p is string => !!p).join(' · ');
}

export function policyTooltip(entry: PolicyEntry): string {
  return new TooltipText()
    .heading(entry.policy.name)
    .field(t('Slug'), entry.policy.slug)
    .field(t('Policy id'), entry.policy.id)
    .field(t('Product'), productLabel(entry.policy.productType))
    .field(t('Default policy'), entry.policy.isDefault ? t('yes') : undefined)
    .field(t('Source'), originText(entry.origin))
    .toString();
}
