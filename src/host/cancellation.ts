/**
 * VS Code cancellation → an AbortSignal for the core, for as long as the work runs: the
 * listener on the token is removed when the work ends, so a long-lived token (a progress
 * notification's) does not keep one listener per call. The one adapter: every cancellable
 * command, tooltip and agent tool goes through it. No `vscode` import: it takes any token of
 * this shape (a `vscode.CancellationToken` fits), so it is tested in Node.
 */

/** What the adapter needs of a cancellation token. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => unknown): { dispose(): unknown };
}

/**
 * Runs `work` with a signal that aborts when the token is cancelled (already aborted when it
 * was before), or when `also` aborts (`AbortSignal.any`); the token's listener is disposed when
 * the work settles.
 */
export async function withAbortSignal<T>(token: CancellationTokenLike, work: (signal: AbortSignal) => Promise<T>, also?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  const listener = token.onCancellationRequested(() => controller.abort());
  try {
    return await work(also ? AbortSignal.any([controller.signal, also]) : controller.signal);
  } finally {
    listener.dispose();
  }
}
