/**
 * The Assistant section of the Finding Details page: the fix the platform's assistant suggests,
 * beside today's code, with Apply only where the panel can apply it, and what the assistant
 * says of the finding (its verdict and why, the component, guidance, the rule explained). It
 * returns nothing for a finding the assistant has not looked at. Pure, like the other sections.
 */
import { valueLabel } from '../core/services/filters';
import type { TodayPlace } from '../core/workspace/today-place';
import type { DetailsInput } from './details-input';
import { t } from '../core/l10n';
import { button, EMPTY, fields, html, prose, section, type Html } from './html';

export function assistantSection({ detail, currentCode, place }: DetailsInput): Html {
  const a = detail?.assistant;
  if (!a) return EMPTY;
  return section(t('Assistant'), 'assistant', [
    suggestedFix(a.autofixCode, currentCode, place),
    fields([
      [t('About the fix'), prose(a.autofixExplanation)],
      [t('Verdict'), a.autotriageVerdict ? valueLabel(a.autotriageVerdict) : undefined],
      [t('Why'), prose(a.autotriageReason)],
      [t('Component'), a.componentTag],
      [t('Component risk'), a.componentRisk ? valueLabel(a.componentRisk) : undefined],
      [t('Guidance'), prose(a.guidanceSummary)],
      [t('Steps'), prose(a.guidanceInstructions)],
      [t('The rule explained'), prose(a.ruleExplanationSummary)],
    ]),
  ]);
}

/** Two pieces of code with the same lines, whatever their indentation and blank lines. */
function sameLines(a: string, b: string): boolean {
  const lines = (text: string): string =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
      .join('\n');
  return lines(a) === lines(b);
}

/**
 * The suggested fix beside today's code, and Apply only where the panel can apply it: the code is
 * here, has not changed since the scan (the fix was written for the scanned lines) and does not
 * already read as the fix.
 */

function suggestedFix(code: string | undefined, currentCode: string | undefined, place: TodayPlace | undefined): Html {
  if (!code || code.trim() === '') return EMPTY;
  const pane = (title: string, text: string): Html => html`<div class="code-pane"><h3>${title}</h3><pre><code>${text}</code></pre></div>`;
  // The code here already reads as the fix (applied from here or the quick fix, saved or not).
  const applied = currentCode !== undefined && sameLines(currentCode, code);
  const applicable = currentCode !== undefined && !applied && place?.kind !== 'deleted' && place?.kind !== 'changed';
  const why = applied
    ? t('The suggested fix is in the code here (unsaved edits included). Undo in the editor takes it back.')
    : place?.kind === 'deleted'
      ? place.onlyAt === undefined
        ? t('The finding is no longer in this copy, so the fix cannot be applied here.')
        : t("The finding's code is not in this copy yet, so the fix cannot be applied here.")
      : place?.kind === 'changed'
        ? t('The code here changed since the scan: compare, and apply the fix by hand.')
        : t("Open the finding's repository in this window to apply the fix here.");
  return html`<div class="fix-compare">${currentCode !== undefined ? pane(t("Today's code"), currentCode) : undefined}${pane(t('Suggested fix'), code)}</div>
${applicable ? html`<p>${button('applyFix', t('Apply suggested fix'), { primary: true })}</p>` : html`<p class="note">${why}</p>`}`;
}
