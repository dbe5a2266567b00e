/**
 * What a refresh tells the user when some kinds of findings could not be loaded: one warning per
 * refresh, naming them, with the way to see why and to try again. A kind the deployment lacks is
 * a state shown in the views, never a warning.
 */
import * as vscode from 'vscode';
import { failureNotice, type KindGap } from '../core/services/kind-gaps';

/** The refresh's one notification when kinds failed, with the way to see why and to try again. */
export async function announceKindsFailed(gaps: readonly KindGap[]): Promise<void> {
  const text = failureNotice(gaps);
  if (!text) return;
  const picked = await vscode.window.showWarningMessage(`AppSec: ${text}`, 'Retry', 'Show Logs');
  if (picked === 'Retry') await vscode.commands.executeCommand('appsecFindings.refresh');
  if (picked === 'Show Logs') await vscode.commands.executeCommand('appsecFindings.showLogs');
}
