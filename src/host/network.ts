/**
 * Reads VS Code's proxy settings and ours; everything else (routing, trust, warnings) is in the
 * vscode-free src/core/net, where it is tested in plain Node against a real proxy.
 */
import * as vscode from 'vscode';
import { createDispatcher, type NetworkDispatcher } from '../core/net/dispatcher';
import type { NetworkSettings } from '../core/net/proxy-config';
import type { Logger } from './logger';
import { settings } from './settings';

export function readNetworkSettings(): NetworkSettings {
  const http = vscode.workspace.getConfiguration('http');
  const proxy = http.get<unknown>('proxy');
  const noProxy = http.get<unknown>('noProxy');
  const caBundlePath = settings.caBundlePath();
  return {
    ...(typeof proxy === 'string' && proxy.trim() ? { proxy: proxy.trim() } : {}),
    // Anything but an explicit false keeps verification on.
    strictSSL: http.get<unknown>('proxyStrictSSL', true) !== false,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((n): n is string => typeof n === 'string') : [],
    ...(caBundlePath ? { caBundlePath } : {}),
  };
}

/** The dispatcher for the current settings and the extension host's environment. */
export function createHostDispatcher(log: Logger): NetworkDispatcher {
  return createDispatcher(readNetworkSettings(), process.env, log);
}
