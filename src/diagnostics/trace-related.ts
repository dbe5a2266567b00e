/**
 * A finding's trace as the related information of its diagnostic, so Problems lists the path
 * under the finding, each step a link to where its code is today, in order. A step that has no
 * place here (deleted since the scan, or not in this workspace) is still listed, at the finding's
 * own place, saying why, so the count and order of the steps stay whole.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import { sayRoleMeaning, sayStepName, sayStepPlace, stepCode } from '../core/workspace/trace-places';
import { stepRange, type TraceStepToday } from '../code-places/trace-places';

export function traceRelatedInformation(steps: readonly TraceStepToday[], own: vscode.Location): vscode.DiagnosticRelatedInformation[] {
  return steps.map((step) => {
    const code = stepCode(step, 100);
    if (step.kind === 'here' && step.uri) {
      // The location is shown beside the message: the message says what happens there.
      return new vscode.DiagnosticRelatedInformation(
        new vscode.Location(step.uri, stepRange(step)),
        `${sayStepName(step, t)}: ${code ?? sayRoleMeaning(step.role, t)}${step.changed ? ` (${t('code changed since the scan')})` : ''}`,
      );
    }
    return new vscode.DiagnosticRelatedInformation(own, `${sayStepName(step, t)}: ${sayStepPlace(step, t)}${code ? ` — ${code}` : ''}`);
  });
}
