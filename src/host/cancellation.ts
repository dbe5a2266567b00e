/**
 * VS Code cancellation → an AbortSignal for the core, for as long as the work runs: the
 * listener on the token is removed when the work ends, so a long-lived token (a progress
 * notification's) does not keep one listener per call.
 */
import type * as vscode from 'vscode';

export async function withAbortSignal<T>(token: vscode.CancellationToken, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  try {
    return await work(controller.signal);
  } finally {
    listener.dispose();
  }
}
