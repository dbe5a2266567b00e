/** "AppSec: Check Connection": the step-by-step report of src/core/net/check-connection.ts. */
import * as vscode from 'vscode';
import type { App } from '../app';
import { checkConnection as runCheck, formatReport, summarize, type ConnectionReport } from '../core/net/check-connection';
import { readNetworkSettings } from '../host/network';
import { settings } from '../host/settings';
import { withAbortSignal } from '../host/cancellation';

/** Check Connection needs the log and the stored token (never shown). */
export type ConnectionCommandsDeps = Pick<App, 'logger' | 'log' | 'currentToken' | 'version'>;

/**
 * Writes the report to the output channel, shows a one-line summary with "Show Logs", and
 * returns the report (tests and automation read it). Runs with the settings as they are now,
 * on fresh connections, so a pooled connection cannot hide a problem.
 */
export async function checkConnection(app: ConnectionCommandsDeps): Promise<ConnectionReport> {
  const log = app.logger('Connection');
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'AppSec: checking the connection…', cancellable: true },
    (_progress, cancel) => withAbortSignal(cancel, (signal) => runCheck({
      baseUrl: settings.baseUrl(),
      network: readNetworkSettings(),
      env: process.env,
      getToken: () => app.currentToken(),
      extensionVersion: app.version,
      signal,
    })),
  );
  for (const line of formatReport(report)) {
    if (report.ok) log.info(line);
    else log.warn(line);
  }
  const message = `AppSec: ${summarize(report)}`;
  const shown = report.ok ? vscode.window.showInformationMessage(message, 'Show Logs') : vscode.window.showWarningMessage(message, 'Show Logs');
  // Not awaited: the notification stays until dismissed, and the command returns the report now.
  void Promise.resolve(shown).then((picked) => {
    if (picked) app.log.show();
  });
  return report;
}
