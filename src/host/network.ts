/**
 * Builds the one undici dispatcher from VS Code's proxy settings, the proxy environment
 * variables and an optional CA bundle. VS Code patches Node's http/https for proxies but not a
 * bundled undici (see shared/vscode-network.md), so this is done here explicitly.
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import * as vscode from 'vscode';
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import type { Logger } from './logger';
import { settings } from './settings';

export interface NetworkSettings {
  readonly proxy?: string;
  readonly strictSSL: boolean;
  readonly noProxy: readonly string[];
  readonly caBundlePath?: string;
}

export function readNetworkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = (http.get<string>('proxy') ?? '').trim();
  const noProxy = http.get<unknown>('noProxy');
  return {
    ...(proxy ? { proxy } : {}),
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    noProxy: Array.isArray(noProxy) ? noProxy.filter((n): n is string => typeof n === 'string') : [],
    ...(settings.caBundlePath() ? { caBundlePath: settings.caBundlePath() } : {}),
  };
}

const KEEP_ALIVE = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000, connections: 8, connect: { timeout: 15_000 } };

/** A proxy URL with its credentials hidden, for the log. */
export function redactProxy(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username || parsed.password) {
      parsed.username = '***';
      parsed.password = '';
    }
    return parsed.toString();
  } catch {
    return '(unparseable proxy URL)';
  }
}

export function createDispatcher(net: NetworkSettings, env: NodeJS.ProcessEnv, log: Logger): Dispatcher {
  // Extra CAs add to the public ones (and to NODE_EXTRA_CA_CERTS, which Node's defaults include).
  let ca: string[] | undefined;
  if (net.caBundlePath) {
    try {
      ca = [...rootCertificates, readFileSync(net.caBundlePath, 'utf8')];
    } catch (error) {
      log.error(`Could not read the CA bundle ${net.caBundlePath} (appsecFindings.caBundlePath)`, error);
    }
  }
  if (!net.strictSSL) log.warn('http.proxyStrictSSL is off: certificates of the proxy and the platform are NOT verified.');
  const tls = { ...(ca ? { ca } : {}), rejectUnauthorized: net.strictSSL };
  const proxy = net.proxy ?? env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy;
  if (!proxy) return new Agent({ ...KEEP_ALIVE, connect: { ...KEEP_ALIVE.connect, ...tls } });
  const noProxy = [...net.noProxy, env.NO_PROXY ?? env.no_proxy ?? ''].filter(Boolean).join(',');
  log.info(`Using proxy ${redactProxy(proxy)}${noProxy ? ` (not for: ${noProxy})` : ''}`);
  return new EnvHttpProxyAgent({
    ...KEEP_ALIVE,
    httpProxy: proxy,
    httpsProxy: proxy,
    noProxy,
    connect: { ...KEEP_ALIVE.connect, ...tls },
    requestTls: tls,
    proxyTls: tls,
  });
}
