/**
 * The session and the connection it talks over: the token store, a platform client made for the
 * session's token, the connection pool made for the first request (reading the CA bundles takes
 * milliseconds) and replaced when a setting that decides the network changes, and the log's
 * redaction of every token this window has used, the earlier origin's after a change too.
 */
import * as vscode from 'vscode';
import { parseBaseUrl } from '../core/api/baseUrl';
import { PlatformClient } from '../core/api/client';
import type { NetworkDispatcher } from '../core/net/dispatcher';
import { Session } from '../core/services/session';
import { deploymentMemory } from './deployment-memory';
import type { ExtensionLog } from './logger';
import { createHostDispatcher } from './network';
import { SecretTokenStore } from './secrets';
import { affectsConnection, settings } from './settings';
import { errorMessage, warnIfUnusableBaseUrl } from './user-errors';

export interface SessionConnection {
  readonly tokens: SecretTokenStore;
  readonly session: Session;
  /** Adds the session's current token to what the log redacts. */
  readonly rememberToken: () => Promise<void>;
}

export function registerSession(context: vscode.ExtensionContext, log: ExtensionLog, version: string): SessionConnection {
  const push = <T extends vscode.Disposable>(d: T): T => (context.subscriptions.push(d), d);
  const netLog = log.for('Network');
  let dispatcher: NetworkDispatcher | undefined;
  const connections = (): NetworkDispatcher => (dispatcher ??= createHostDispatcher(netLog));
  push({ dispose: () => void dispatcher?.close().catch(() => undefined) });
  const tokens = new SecretTokenStore(context.secrets);
  const session = push(
    new Session(
      tokens,
      (getToken) =>
        new PlatformClient({
          baseUrl: settings.baseUrl(),
          extensionVersion: version,
          getToken,
          dispatcher: connections,
          onRetry: (r) =>
            netLog.warn(`${r.what}: ${r.method} attempt ${r.attempt} of ${r.maxAttempts} failed (${r.error.message}); trying again in ${r.delayMs} ms.`),
        }),
      () => ({ deploymentId: settings.deploymentId(), deploymentSlug: settings.deploymentSlug() }),
      deploymentMemory(context.globalState, () => settings.baseUrl()),
      () => parseBaseUrl(settings.baseUrl()).origin,
    ),
  );
  const usedTokens = new Set<string>();
  const rememberToken = async (): Promise<void> => {
    const token = await session.token().catch(() => undefined);
    if (token) usedTokens.add(token);
    log.setSecrets([...usedTokens]);
  };
  push(
    session.onDidChange((state) => {
      void vscode.commands.executeCommand('setContext', 'appsecFindings.signedIn', state.kind === 'signedIn');
      void rememberToken();
    }),
  );
  push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!affectsConnection(e)) return;
      const replaced = dispatcher;
      dispatcher = createHostDispatcher(netLog);
      session.resetApi();
      // Requests already on the old connections finish; then its sockets are released.
      replaced?.close().catch((error: unknown) => netLog.warn(`Closing the previous connections failed: ${errorMessage(error)}`));
      warnIfUnusableBaseUrl(settings.baseUrl());
    }),
  );
  return { tokens, session, rememberToken };
}
