/**
 * The one undici dispatcher of the extension, built from plain inputs (the host reads VS Code's
 * settings). VS Code patches Node's http/https for proxies and certificates but not a bundled
 * undici (measured in the extension host; see README.md, "Proxies and certificates"), so proxy routing and trust are done here explicitly.
 */
import { Agent, Dispatcher, ProxyAgent } from 'undici';
import { PlatformError } from '../model/errors';
import { proxyFor, type Env, type NetworkSettings, type ProxyChoice, type ProxyDecision } from './proxy-config';
import { ViaProxyError } from './proxy-error';
import { loadTrust, type Trust } from './trust';

/** The part of the host's logger this needs (src/core cannot import the host's). */
export interface NetLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface DispatcherOptions {
  /** TCP (and, direct, TLS) set-up; to the proxy when there is one. */
  readonly connectTimeoutMs?: number;
}

/**
 * A refresh's first wave asks every page it expects of every kind, the project list and the
 * workspace's projects at once; with fewer connections the
 * rest queue for a whole round trip (docs/performance.md, "Round trips").
 */
const POOL = { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 300_000, connections: 20 };

export function createDispatcher(net: NetworkSettings, env: Env, log: NetLog, options: DispatcherOptions = {}): NetworkDispatcher {
  const trust = loadTrust(net, env);
  for (const problem of trust.problems) log.error(problem.english);
  for (const warning of trust.warnings) log.warn(warning.english);
  if (trust.extras.length > 0) log.info(`Trusting Node's certificate authorities and ${trust.extras.join(' and ')}`);
  if (!net.strictSSL) {
    log.warn(
      'http.proxyStrictSSL is false: TLS certificates of the platform and the proxy are NOT verified, so anyone on the network path could read the API token. Set it back to true and trust your CA with appsecFindings.caBundlePath instead.',
    );
  }
  return new NetworkDispatcher(net, env, log, trust, options.connectTimeoutMs ?? 15_000);
}

/**
 * Routes each origin direct or through its proxy, as {@link proxyFor} decides. Proxy agents
 * forward plain-http requests as proxies expect (absolute URL, no tunnel: proxies commonly allow
 * CONNECT only to port 443) and tunnel https with CONNECT.
 */
export class NetworkDispatcher extends Dispatcher {
  private readonly direct: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly routes = new Map<string, ProxyDecision>();
  private readonly tls: { ca?: string[]; rejectUnauthorized: boolean; timeout: number };

  constructor(
    private readonly net: NetworkSettings,
    private readonly env: Env,
    private readonly log: NetLog,
    readonly trust: Trust,
    connectTimeoutMs: number,
  ) {
    super();
    this.tls = { ...(trust.ca ? { ca: [...trust.ca] } : {}), rejectUnauthorized: net.strictSSL, timeout: connectTimeoutMs };
    this.direct = new Agent({ ...POOL, connect: this.tls });
  }

  /** How requests to `origin` travel; logged once per origin, credentials redacted. */
  route(origin: string): ProxyDecision {
    const known = this.routes.get(origin);
    if (known) return known;
    const decision = proxyFor(new URL(origin), this.net, this.env);
    this.routes.set(origin, decision);
    if (decision.kind === 'proxy') this.log.info(`Requests to ${origin} go through the proxy ${decision.proxy.display} (from ${decision.proxy.source})`);
    else if (decision.kind === 'direct') this.log.info(`Requests to ${origin} go direct: ${decision.reason.english}`);
    else this.log.error(decision.message.english);
    return decision;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const route = this.route(new URL(String(options.origin)).origin);
    // Thrown here, request() rejects with it as is; 'invalidUrl' is never retried.
    if (route.kind === 'invalid') throw new PlatformError('invalidUrl', route.message, { setting: 'http.proxy' });
    if (route.kind === 'direct') return this.direct.dispatch(options, handler);
    return this.agentFor(route.proxy).dispatch(options, namingProxy(handler, route.proxy));
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const done = Promise.all([this.direct.close(), ...[...this.proxies.values()].map((p) => p.close())]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const done = Promise.all([this.direct.destroy(err), ...[...this.proxies.values()].map((p) => p.destroy(err))]).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  private agentFor(proxy: ProxyChoice): ProxyAgent {
    let agent = this.proxies.get(proxy.url.href);
    if (!agent) {
      // undici takes the credentials from the URL and sends them as Proxy-Authorization.
      agent = new ProxyAgent({ ...POOL, uri: proxy.url.href, proxyTunnel: false, requestTls: this.tls, proxyTls: this.tls });
      this.proxies.set(proxy.url.href, agent);
    }
    return agent;
  }
}

/**
 * The same handler, except that errors arrive as {@link ViaProxyError}, so the message can name
 * the proxy. A Proxy object keeps every other method (old and new handler styles) untouched.
 */
function namingProxy(handler: Dispatcher.DispatchHandler, proxy: ProxyChoice): Dispatcher.DispatchHandler {
  const wrap = (e: Error): Error => (e instanceof ViaProxyError ? e : new ViaProxyError(proxy, e));
  return new Proxy(handler, {
    get(target, key) {
      if (key === 'onError' && target.onError) return (e: Error) => target.onError?.(wrap(e));
      if (key === 'onResponseError' && target.onResponseError) {
        return (controller: Dispatcher.DispatchController, e: Error) => target.onResponseError?.(controller, wrap(e));
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
