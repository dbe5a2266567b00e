/**
 * The API token lives only in VS Code's SecretStorage, one per origin it was given for. Nothing
 * else in the extension holds it longer than a request.
 */
import * as vscode from 'vscode';
import { showWarning } from './notify';
import { t } from '../core/l10n';
import type { TokenStore } from '../core/services/session';
import { adoptLegacyToken, isTokenKey, tokenKey } from './token-keys';

export class SecretTokenStore implements TokenStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(origin: string): Promise<string | undefined> {
    return (await this.secrets.get(tokenKey(origin))) || undefined;
  }

  store(origin: string, token: string): Promise<void> {
    return Promise.resolve(this.secrets.store(tokenKey(origin), token));
  }

  delete(origin: string): Promise<void> {
    return Promise.resolve(this.secrets.delete(tokenKey(origin)));
  }

  /** The one token of an earlier release, given to `origin` (`token-keys.ts`). */
  adoptLegacyToken(origin: string): Promise<boolean> {
    return adoptLegacyToken(this.secrets, origin);
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (isTokenKey(e.key)) listener();
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
export async function warnOnceIfNoKeyring(state: vscode.Memento, show = showWarning): Promise<void> {
  if (!keyringProbablyMissing(process.env, process.platform, vscode.env.uiKind) || state.get<boolean>(WARNED_KEY)) return;
  await state.update(WARNED_KEY, true);
  void show(
    t(
      'AppSec Findings: no system keyring was found, so VS Code may keep your API token only for this session or with weak protection. Install and unlock a keyring (e.g. {0}) to keep it safely across restarts.',
      'gnome-keyring',
    ),
  );
}
