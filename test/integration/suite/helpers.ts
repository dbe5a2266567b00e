// Helpers for integration tests. They must work under every launcher: code-server (which sets the
// APPSEC_TEST_* variables) and @vscode/test-electron (which does not).
import { existsSync, rmSync, writeFileSync } from 'node:fs';

/** Polls `predicate` every 100 ms until it is true; rejects with `message` after `timeoutMs`. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs: number,
  message: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Asks the launcher for a screenshot of the workbench as it is now, and waits until it is taken.
 * It has to happen mid-test: once the suite ends the extension host (and the page state) is gone.
 * The launcher saves `<host>.png`, or `<host>-<label>.png` when a label is given, so a test may
 * call this several times. A no-op where no launcher listens (test-electron, a plain desktop run).
 */
export async function screenshotHandshake(label = ''): Promise<void> {
  const ready = process.env.APPSEC_TEST_SCREENSHOT_READY;
  const done = process.env.APPSEC_TEST_SCREENSHOT_DONE;
  if (!ready || !done) return;
  rmSync(done, { force: true });
  writeFileSync(ready, label);
  await waitFor(() => existsSync(done), 30_000, `the launcher did not take screenshot "${label || 'default'}"`);
  rmSync(done, { force: true });
}
