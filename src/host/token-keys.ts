/**
 * Where each origin's token is kept in VS Code's SecretStorage, and the move of an earlier
 * release's one token to its origin. Free of `vscode` so the move is tested without a host.
 */

/** Where releases before tokens were kept per origin kept the one token. */
export const LEGACY_TOKEN_KEY = 'appsecFindings.apiToken';

/** The key of `origin`'s token: the origin is part of the key, never of a setting. */
export function tokenKey(origin: string): string {
  return `${LEGACY_TOKEN_KEY}:${origin}`;
}

/** Whether a changed secret's key is one of ours (a token of some origin). */
export function isTokenKey(key: string): boolean {
  return key.startsWith(`${LEGACY_TOKEN_KEY}:`);
}

/** SecretStorage as the move needs it. */
export interface KeyedSecrets {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/**
 * Gives the one token of an earlier release to `origin`, the base URL's at the first start after
 * the update (the origin it was given for, unless the setting changed while the older release
 * ran), unless that origin has a token of its own already. The old key is removed either way, so
 * the token is never read from it again.
 */
export async function adoptLegacyToken(secrets: KeyedSecrets, origin: string): Promise<boolean> {
  const legacy = await secrets.get(LEGACY_TOKEN_KEY);
  if (!legacy) return false;
  const adopted = !(await secrets.get(tokenKey(origin)));
  if (adopted) await secrets.store(tokenKey(origin), legacy);
  await secrets.delete(LEGACY_TOKEN_KEY);
  return adopted;
}
