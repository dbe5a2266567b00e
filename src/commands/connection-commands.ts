/** "AppSec: Check Connection": the step-by-step report of src/core/api/check-connection.ts. */
import * as vscode from 'vscode';
import { showInformation, showWarning, withProgress } from '../host/notify';
import { t } from '../core/l10n';
import { unavailableText } from '../core/services/kind-availability';
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
  const { report, products } = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('AppSec: checking the connection…'), cancellable: true },
    (_progress, cancel) =>
      withAbortSignal(cancel, async (signal) => {
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
  const summary = t('AppSec: {0}', summarize(report));
  const message = products && products.length > 0 ? `${summary} ${productsText(products)}` : summary;
  const showLogs = t('Show Logs');
  const shown = report.ok ? showInformation(message, showLogs) : showWarning(message, showLogs);
  // Not awaited: the notification stays until dismissed, and the command returns the report now.
  void Promise.resolve(shown).then((picked) => {
    if (picked) app.log.show();
  });
  return { ...report, ...(products ? { products } : {}) };
}

/**
 * Each product's result, in the notification as in the log: all of them named when every one
 * answers, else each one's own result, so "Connection OK" never stands for a product it did not try.
 */
function productsText(products: readonly ProductCheck[]): string {
  if (products.every((p) => p.state === 'available')) return t('Every product answers: {0}.', products.map((p) => p.product).join(', '));
  return `${products.map(productText).join('; ')}.`;
}

/** A product the deployment does not answer for, as the notification says it (the log keeps `productLine`'s English). */
function productText(check: ProductCheck): string {
  switch (check.state) {
    case 'available':
      return t('{0}: available', check.product);
    case 'unavailable':
      return `${check.product}: ${unavailableText(check.unavailable)}`;
    case 'failed':
      return t('{0}: failed ({1})', check.product, check.reason);
  }
}
