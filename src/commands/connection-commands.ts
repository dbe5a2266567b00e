/** "AppSec: Check Connection": the step-by-step report of src/core/api/check-connection.ts. */
import * as vscode from 'vscode';
import { checkConnection as runCheck, formatReport, summarize, type ConnectionReport } from '../core/api/check-connection';
import { readNetworkSettings } from '../host/network';
import { settings } from '../host/settings';
import { withAbortSignal } from '../host/cancellation';
import { checkProducts, productLine, type ProductCheck } from '../core/services/product-check';
import type { CommandDeps } from './command-deps';

/** Check Connection needs the log and the stored token (never shown). */
export type ConnectionCommandsDeps = Pick<CommandDeps, 'logger' | 'log' | 'currentToken' | 'version' | 'session'>;

/**
 * Writes the report to the output channel, shows a one-line summary with "Show Logs", and
 * returns the report (tests and automation read it). Runs with the settings as they are now,
 * on fresh connections, so a pooled connection cannot hide a problem.
 */
export async function checkConnection(app: ConnectionCommandsDeps): Promise<ConnectionReport & { readonly products?: readonly ProductCheck[] }> {
  const log = app.logger('Connection');
  const { report, products } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'AppSec: checking the connection…', cancellable: true },
    (_progress, cancel) => withAbortSignal(cancel, async (signal) => {
      const checked = await runCheck({
        baseUrl: settings.baseUrl(),
        network: readNetworkSettings(),
        env: process.env,
        getToken: () => app.currentToken(),
        extensionVersion: app.version,
        signal,
      });
      // Once the token works: what the deployment has, product by product.
      const deployment = app.session.deployment;
      return { report: checked, products: checked.ok && deployment ? await checkProducts(app.session.api, deployment, signal) : undefined };
    }),
  );
  for (const line of [...formatReport(report), ...(products ? ['Products:', ...products.map((p) => `  ${productLine(p)}`)] : [])]) {
    if (report.ok) log.info(line);
    else log.warn(line);
  }
  const missing = products?.filter((p) => p.state !== 'available') ?? [];
  const message = `AppSec: ${summarize(report)}${missing.length > 0 ? ` ${missing.map(productLine).join('; ')}.` : ''}`;
  const shown = report.ok ? vscode.window.showInformationMessage(message, 'Show Logs') : vscode.window.showWarningMessage(message, 'Show Logs');
  // Not awaited: the notification stays until dismissed, and the command returns the report now.
  void Promise.resolve(shown).then((picked) => {
    if (picked) app.log.show();
  });
  return { ...report, ...(products ? { products } : {}) };
}
