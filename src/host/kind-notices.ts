/**
 * What a refresh tells the user when some kinds of findings could not be loaded: one warning per
 * refresh, naming them, with the way to see why and to try again. A kind the deployment lacks is
 * a state shown in the views, never a warning.
 */
import * as vscode from 'vscode';
import { showWarning } from './notify';
import { t } from '../core/l10n';
import { failureNotice, type KindGap } from '../core/services/kind-gaps';
import { KIND_PRODUCTS, unavailableText, type KindAvailability } from '../core/services/kind-availability';
import type { Logger } from './logger';

/** One line in the log when the deployment is found to lack a kind, or to have it again: never a toast. */
export function logKindAvailability(availability: Pick<KindAvailability, 'onDidChange'>, log: Pick<Logger, 'info'>): { dispose(): void } {
  return availability.onDidChange((change) => {
    if (!change) return;
    const product = KIND_PRODUCTS[change.kind];
    if (change.unavailable) log.info(`${product}: ${unavailableText(change.unavailable, 'english')}. ${change.unavailable.detail}`);
    else log.info(`${product}: the deployment answers for it again.`);
  }, 'the log of what the deployment has');
}

/** The refresh's one notification when kinds failed, with the way to see why and to try again. */
export async function announceKindsFailed(gaps: readonly KindGap[]): Promise<void> {
  const text = failureNotice(gaps);
  if (!text) return;
  const retry = t('Retry');
  const showLogs = t('Show Logs');
  const picked = await showWarning(t('AppSec: {0}', text), retry, showLogs);
  if (picked === retry) await vscode.commands.executeCommand('appsecFindings.refresh');
  if (picked === showLogs) await vscode.commands.executeCommand('appsecFindings.showLogs');
}
