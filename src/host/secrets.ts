/**
 * The API token lives only in VS Code's SecretStorage, under one key. Nothing else in the
 * extension holds it longer than a request.
 */
import * as vscode from 'vscode';
import { t } from '../core/l10n';
import type { TokenStore } from '../core/services/session';

export const TOKEN_KEY = 'appsecFindings.apiToken';

export class SecretTokenStore implements TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(TOKEN_KEY)) || undefined;
  }

  store(token: string): Promise<void> {
    return Promise.resolve(this.secrets.store(TOKEN_KEY, token));
  }

  delete(): Promise<void> {
    return Promise.resolve(this.secrets.delete(TOKEN_KEY));
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === TOKEN_KEY) listener();
    });
  }
}

/**
 * On Linux, desktop VS Code needs a keyring (Secret Service over D-Bus) to encrypt secrets;
 * without one it falls back to a weaker store or keeps them only in memory. There is no API to
 * ask, so this reads the same signal VS Code does: no D-Bus session bus, no keyring.
 */
export function keyringProbablyMissing(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, uiKind: vscode.UIKind): boolean {
  return platform === 'linux' && uiKind === vscode.UIKind.Desktop && !env.DBUS_SESSION_BUS_ADDRESS;
}

const WARNED_KEY = 'appsecFindings.keyringWarningShown';

/** Says once per installation what a missing keyring means for the token. */
export async function warnOnceIfNoKeyring(state: vscode.Memento, show = vscode.window.showWarningMessage): Promise<void> {
  if (!keyringProbablyMissing(process.env, process.platform, vscode.env.uiKind) || state.get<boolean>(WARNED_KEY)) return;
  await state.update(WARNED_KEY, true);
  void show(
    t('AppSec Findings: no system keyring was found, so VS Code may keep your API token only for this session or with weak protection. Install and unlock a keyring (e.g. {0}) to keep it safely across restarts.', 'gnome-keyring'),
  );
}
