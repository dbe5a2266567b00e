/**
 * The steps of "Check Connection", in the order a request meets them. Each returns ok, failed
 * (with the fix) or skipped (saying why); check-connection.ts runs them and stops at a failure.
 */
import { isIP, type Socket } from 'node:net';
import { parseBaseUrl } from './baseUrl';
import { PlatformClient } from './client';
import { WEB_API_SCOPE_HINT, PlatformError } from '../model/errors';
import { errorCode, errorFromTransport } from './transportErrors';
import { explainCertificate } from '../net/certificate-problems';
import { createDispatcher, type NetworkDispatcher } from '../net/dispatcher';
import { openTunnel, ProbeError, resolveHost, tcpConnect, tlsHandshake } from '../net/probes';
import { proxyFor, type Env, type NetworkSettings, type ProxyChoice } from '../net/proxy-config';
import { proxyRefusal } from '../net/proxy-error';
import { loadTrust, type Trust } from '../net/trust';

export type StepStatus = 'ok' | 'failed' | 'skipped';
export interface Outcome {
  readonly status: StepStatus;
  readonly detail: string;
  readonly fix?: string;
}

export interface StepContext {
  readonly baseUrl: string;
  readonly network: NetworkSettings;
  readonly env: Env;
  readonly token: string | undefined;
  readonly extensionVersion: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly warnings: string[];
  url?: URL;
  trust?: Trust;
  proxy?: ProxyChoice;
  tunnel?: Socket;
  dispatcher?: NetworkDispatcher;
}

const ok = (detail: string): Outcome => ({ status: 'ok', detail });
const skipped = (detail: string): Outcome => ({ status: 'skipped', detail });
const failed = (detail: string, fix?: string): Outcome => ({ status: 'failed', detail, ...(fix ? { fix } : {}) });

function portOf(url: URL): number {
  return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
}

function codeOf(e: unknown): string {
  return errorCode(e) ?? (e instanceof Error ? e.message : String(e));
}

export function configuration(ctx: StepContext): Outcome {
  let base;
  try {
    base = parseBaseUrl(ctx.baseUrl);
  } catch (e) {
    return failed(e instanceof Error ? e.message : String(e), 'Correct appsecFindings.baseUrl in the user settings.');
  }
  ctx.url = new URL(`${base.origin}${base.pathPrefix}`);
  const trust = loadTrust(ctx.network, ctx.env);
  ctx.trust = trust;
  ctx.warnings.push(...trust.warnings);
  if (!ctx.network.strictSSL) ctx.warnings.push('http.proxyStrictSSL is false: certificates are NOT verified. Set it to true and trust your CA with appsecFindings.caBundlePath.');
  if (trust.problems.length > 0) return failed(trust.problems.join(' '), 'Fix or clear appsecFindings.caBundlePath.');
  const secure = ctx.url.protocol === 'https:' ? 'https' : 'plain http (accepted for loopback only)';
  const extras = trust.extras.length > 0 ? ` and ${trust.extras.join(' and ')}` : '';
  return ok(`${ctx.url.href.replace(/\/$/, '')} over ${secure}; trusting Node's certificate authorities${extras}.`);
}

export function proxy(ctx: StepContext, url: URL): Outcome {
  const decision = proxyFor(url, ctx.network, ctx.env);
  if (decision.kind === 'invalid') return failed(decision.message);
  if (decision.kind === 'direct') return ok(`None, direct connection: ${decision.reason}.`);
  ctx.proxy = decision.proxy;
  return ok(`${decision.proxy.display} (from ${decision.proxy.source})${decision.proxy.hasCredentials ? ', with credentials' : ''}.`);
}

export async function dns(ctx: StepContext, url: URL): Promise<Outcome> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ctx.proxy) return skipped(`The proxy resolves ${host}; nothing to look up here.`);
  if (isIP(host)) return ok(`${host} is an IP address: no lookup needed.`);
  try {
    return ok(`${host} → ${(await resolveHost(host, ctx.timeoutMs)).join(', ')}`);
  } catch (e) {
    const code = codeOf(e);
    return failed(`${host} could not be looked up (${code}).`, code === 'ENOTFOUND'
      ? 'Check the host name in appsecFindings.baseUrl. On a network that reaches the internet only through a proxy, set http.proxy.'
      : 'Check this computer\'s DNS settings and network connection.');
  }
}

export async function tcp(ctx: StepContext, url: URL): Promise<Outcome> {
  const host = ctx.proxy ? ctx.proxy.url.hostname : url.hostname;
  const port = ctx.proxy ? portOf(ctx.proxy.url) : portOf(url);
  const what = ctx.proxy ? `the proxy ${ctx.proxy.display}` : `${host}:${port}`;
  const started = Date.now();
  try {
    const peer = await tcpConnect(host, port, ctx.timeoutMs);
    return ok(`Connected to ${what} (${peer}) in ${Date.now() - started} ms.`);
  } catch (e) {
    const code = codeOf(e);
    const fix = ctx.proxy
      ? `Check that the proxy runs and that ${ctx.proxy.source} names its host and port.`
      : code === 'ECONNREFUSED' ? 'Check the port in appsecFindings.baseUrl and that the platform is up.' : 'A firewall may block the connection; on a network that needs a proxy, set http.proxy.';
    const why = code === 'ECONNREFUSED' ? 'nothing accepts connections there' : code === 'ENOTFOUND' ? 'the host name does not resolve' : 'no connection';
    return failed(`Could not connect to ${what}: ${why} (${code}).`, fix);
  }
}

export async function tunnel(ctx: StepContext, url: URL): Promise<Outcome> {
  if (!ctx.proxy) return skipped('No proxy, so no tunnel.');
  if (url.protocol !== 'https:') return skipped('Plain http is forwarded by the proxy without a tunnel.');
  const target = `${url.hostname}:${portOf(url)}`;
  try {
    ctx.tunnel = await openTunnel({ proxy: ctx.proxy.url, target, ca: ctx.trust?.ca, rejectUnauthorized: ctx.network.strictSSL, timeoutMs: ctx.timeoutMs });
    return ok(`The proxy opened a tunnel to ${target} (CONNECT answered 200).`);
  } catch (e) {
    if (e instanceof ProbeError && e.status !== undefined) return failed(proxyRefusal(e.status, { proxy: ctx.proxy.display, source: ctx.proxy.source, hasCredentials: ctx.proxy.hasCredentials }, url.origin));
    return failed(`CONNECT to ${target} through the proxy failed (${codeOf(e)}).`, 'Check the proxy and its settings.');
  }
}

export async function tls(ctx: StepContext, url: URL): Promise<Outcome> {
  if (url.protocol !== 'https:') return skipped('Plain http: no TLS (accepted only for loopback addresses).');
  let facts;
  try {
    facts = await tlsHandshake({ host: url.hostname, port: portOf(url), ...(ctx.tunnel ? { socket: ctx.tunnel } : {}), ...(ctx.trust?.ca ? { ca: ctx.trust.ca } : {}), timeoutMs: ctx.timeoutMs });
  } catch (e) {
    return failed(`The TLS handshake with ${url.host} failed (${codeOf(e)}).`, 'Check that the base URL\'s port speaks https; a plain-http server needs http:// (loopback only).');
  }
  const days = facts.validTo ? Math.floor((facts.validTo.getTime() - Date.now()) / 86_400_000) : undefined;
  const validity = facts.validTo ? `, valid until ${facts.validTo.toISOString().slice(0, 10)}, ${days} day${days === 1 ? '' : 's'} left` : '';
  const cert = `certificate of ${facts.subject ?? '?'} (issuer ${facts.issuer ?? '?'}${validity})`;
  if (facts.authorized) return ok(`${facts.protocol ?? 'TLS'}, ${cert}; trusted.`);
  const { problem, fix } = explainCertificate(facts.error ?? 'UNKNOWN');
  const inspecting = ctx.proxy ? ` The connection goes through ${ctx.proxy.display}: if ${facts.issuer ?? 'the issuer'} is your proxy's CA, the proxy inspects TLS.` : '';
  if (!ctx.network.strictSSL) return ok(`${facts.protocol ?? 'TLS'}, ${cert}; NOT trusted: it ${problem}. Accepted only because http.proxyStrictSSL is false.`);
  return failed(`The ${cert} ${problem}.${inspecting}`, fix);
}

export async function http(ctx: StepContext, url: URL): Promise<Outcome> {
  const collected: string[] = [];
  const note = (m: string): number => collected.push(m);
  ctx.dispatcher = createDispatcher(ctx.network, ctx.env, { info: () => undefined, warn: note, error: note }, { connectTimeoutMs: ctx.timeoutMs });
  const path = `${url.pathname.replace(/\/$/, '')}/`;
  try {
    const response = await ctx.dispatcher.request({
      origin: url.origin, path, method: 'GET', headers: { 'user-agent': `appsec-findings/${ctx.extensionVersion}` },
      headersTimeout: ctx.timeoutMs, bodyTimeout: ctx.timeoutMs, signal: ctx.signal,
    });
    await response.body.dump();
    return ok(`HTTP ${response.statusCode} from ${url.origin}${path} (any answer proves the platform is reachable).`);
  } catch (e) {
    return failed(errorFromTransport(e, url.origin, ctx.signal).message);
  }
}

export async function auth(ctx: StepContext): Promise<Outcome> {
  if (!ctx.token) return skipped('Not signed in: run "AppSec: Sign In" with an API token.');
  const token = ctx.token;
  const client = new PlatformClient({
    baseUrl: ctx.baseUrl, extensionVersion: ctx.extensionVersion, getToken: () => Promise.resolve(token), dispatcher: ctx.dispatcher,
    retryPolicy: { maxRetries: 0 }, timeouts: { headersMs: ctx.timeoutMs, bodyMs: ctx.timeoutMs },
  });
  try {
    const [first, ...more] = await client.listDeployments({ signal: ctx.signal });
    if (!first) return failed('The token is accepted but reaches no deployment.', 'Create a token in the platform (Settings → Tokens) with Web API access, then sign in again.');
    return ok(`The token is accepted: deployment ${first.slug} (${first.name}, id ${first.id})${more.length ? ` and ${more.length} more` : ''}.`);
  } catch (e) {
    if (PlatformError.is(e, 'unauthorized')) return failed('The platform refused the stored token (401).', 'Sign in again with a valid API token ("AppSec: Sign In").');
    if (PlatformError.is(e, 'notFound')) return failed('The platform answered 404 to the deployment list.', `${WEB_API_SCOPE_HINT} Then sign in again.`);
    return failed(e instanceof Error ? e.message : String(e));
  } finally {
    await client.close();
  }
}
