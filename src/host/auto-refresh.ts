/**
 * Refreshes on the interval of `appsecFindings.autoRefreshMinutes` (0 = off), re-armed when the
 * setting changes. A tick that fails is logged, not shown: the views already mark stale data.
 */
import * as vscode from 'vscode';
import type { Logger } from './logger';

export function startAutoRefresh(minutes: () => number, refresh: () => Promise<void>, log: Logger): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    if (timer) clearInterval(timer);
    timer = undefined;
    const every = minutes();
    if (every > 0) {
      timer = setInterval(() => {
        if (!vscode.window.state.focused) return; // an unseen window need not poll the platform
        refresh().catch((e: unknown) => log.warn(`Automatic refresh failed: ${e instanceof Error ? e.message : String(e)}`));
      }, every * 60_000);
    }
  };
  arm();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration('appsecFindings.autoRefreshMinutes')) arm();
  });
  return {
    dispose: () => {
      if (timer) clearInterval(timer);
      listener.dispose();
    },
  };
}
