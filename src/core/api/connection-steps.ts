/**
 * The steps of "Check Connection", in the order a request meets them. Each returns ok, failed
 * (with the fix) or skipped (saying why); check-connection.ts runs them and stops at a failure.
 */
import { isIP, type Socket } from 'node:net';
import { parseBaseUrl } from './baseUrl';
import { PlatformClient } from './client';
import { PlatformError, webApiScopeHint } from '../model/errors';
import { formatDay, said, type Said } from '../l10n';
import { errorCode, errorFromTransport } from './transportErrors';
import { explainCertificate } from '../net/certificate-problems';
import { createDispatcher, type NetworkDispatcher } from '../net/dispatcher';
import { openTunnel, ProbeError, resolveHost, tcpConnect, tlsHandshake } from '../net/probes';
import { proxyFor, type Env, type NetworkSettings, type ProxyChoice } from '../net/proxy-config';
import { proxyRefusal } from '../net/proxy-error';
import { loadTrust, type Trust } from '../net/trust';

export type StepStatus = 'ok' | 'failed' | 'skipped';
/** What a step found and what fixes it, each in English (the log, the report) and in the display language. */
export interface Outcome {
  readonly status: StepStatus;
  readonly detail: Said;
  readonly fix?: Said;
}

export interface StepContext {
  readonly baseUrl: string;
  readonly network: NetworkSettings;
  readonly env: Env;
  readonly token: string | undefined;
  readonly extensionVersion: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly warnings: Said[];
  url?: URL;
  trust?: Trust;
  proxy?: ProxyChoice;
  tunnel?: Socket;
  dispatcher?: NetworkDispatcher;
}

const ok = (detail: Said): Outcome => ({ status: 'ok', detail });
const skipped = (detail: Said): Outcome => ({ status: 'skipped', detail });
const failed = (detail: Said, fix?: Said): Outcome => ({ status: 'failed', detail, ...(fix ? { fix } : {}) });
/** Text from elsewhere (an error's message, a setting's problem) that has only its English. */
const asSaid = (text: string): Said => ({ english: text, text });
const errorSaid = (e: unknown): Said =>
  e instanceof PlatformError ? { english: e.message, text: e.text } : asSaid(e instanceof Error ? e.message : String(e));

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
    return failed(errorSaid(e), said('Correct {0} in the user settings.', 'appsecFindings.baseUrl'));
  }
  ctx.url = new URL(`${base.origin}${base.pathPrefix}`);
  const trust = loadTrust(ctx.network, ctx.env);
  ctx.trust = trust;
  ctx.warnings.push(...trust.warnings);
  if (!ctx.network.strictSSL)
    ctx.warnings.push(
      said('{0} is false: certificates are NOT verified. Set it to true and trust your CA with {1}.', 'http.proxyStrictSSL', 'appsecFindings.caBundlePath'),
    );
  if (trust.problems.length > 0)
    return failed(
      { english: trust.problems.map((p) => p.english).join(' '), text: trust.problems.map((p) => p.text).join(' ') },
      said('Fix or clear {0}.', 'appsecFindings.caBundlePath'),
    );
  const where = ctx.url.href.replace(/\/$/, '');
  const secure = ctx.url.protocol === 'https:';
  if (trust.extras.length > 0) {
    const extras = trust.extras.join(' and ');
    return ok(
      secure
        ? said("{0} over https; trusting Node's certificate authorities and {1}.", where, extras)
        : said("{0} over plain http (accepted for loopback only); trusting Node's certificate authorities and {1}.", where, extras),
    );
  }
  return ok(
    secure
      ? said("{0} over https; trusting Node's certificate authorities.", where)
      : said("{0} over plain http (accepted for loopback only); trusting Node's certificate authorities.", where),
  );
}

export function proxy(ctx: StepContext, url: URL): Outcome {
  const decision = proxyFor(url, ctx.network, ctx.env);
  if (decision.kind === 'invalid') return failed(decision.message);
  if (decision.kind === 'direct') return ok(said('None, direct connection: {0}.', decision.reason));
  ctx.proxy = decision.proxy;
  return ok(
    decision.proxy.hasCredentials
      ? said('{0} (from {1}), with credentials.', decision.proxy.display, decision.proxy.source)
      : said('{0} (from {1}).', decision.proxy.display, decision.proxy.source),
  );
}

export async function dns(ctx: StepContext, url: URL): Promise<Outcome> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ctx.proxy) return skipped(said('The proxy resolves {0}; nothing to look up here.', host));
  if (isIP(host)) return ok(said('{0} is an IP address: no lookup needed.', host));
  try {
    return ok(asSaid(`${host} → ${(await resolveHost(host, ctx.timeoutMs)).join(', ')}`));
  } catch (e) {
    const code = codeOf(e);
    return failed(
      said('{0} could not be looked up ({1}).', host, code),
      code === 'ENOTFOUND'
        ? said('Check the host name in {0}. On a network that reaches the internet only through a proxy, set {1}.', 'appsecFindings.baseUrl', 'http.proxy')
        : said("Check this computer's DNS settings and network connection."),
    );
  }
}

export async function tcp(ctx: StepContext, url: URL): Promise<Outcome> {
  const host = ctx.proxy ? ctx.proxy.url.hostname : url.hostname;
  const port = ctx.proxy ? portOf(ctx.proxy.url) : portOf(url);
  const what = ctx.proxy ? said('the proxy {0}', ctx.proxy.display) : asSaid(`${host}:${port}`);
  const started = Date.now();
  try {
    const peer = await tcpConnect(host, port, ctx.timeoutMs);
    return ok(said('Connected to {0} ({1}) in {2} ms.', what, peer, Date.now() - started));
  } catch (e) {
    const code = codeOf(e);
    const fix = ctx.proxy
      ? said('Check that the proxy runs and that {0} names its host and port.', ctx.proxy.source)
      : code === 'ECONNREFUSED'
        ? said('Check the port in {0} and that the platform is up.', 'appsecFindings.baseUrl')
        : said('A firewall may block the connection; on a network that needs a proxy, set {0}.', 'http.proxy');
    const why =
      code === 'ECONNREFUSED'
        ? said('nothing accepts connections there')
        : code === 'ENOTFOUND'
          ? said('the host name does not resolve')
          : said('no connection');
    return failed(said('Could not connect to {0}: {1} ({2}).', what, why, code), fix);
  }
}

export async function tunnel(ctx: StepContext, url: URL): Promise<Outcome> {
  if (!ctx.proxy) return skipped(said('No proxy, so no tunnel.'));
  if (url.protocol !== 'https:') return skipped(said('Plain http is forwarded by the proxy without a tunnel.'));
  const target = `${url.hostname}:${portOf(url)}`;
  try {
    ctx.tunnel = await openTunnel({ proxy: ctx.proxy.url, target, ca: ctx.trust?.ca, rejectUnauthorized: ctx.network.strictSSL, timeoutMs: ctx.timeoutMs });
    return ok(said('The proxy opened a tunnel to {0} (CONNECT answered 200).', target));
  } catch (e) {
    if (e instanceof ProbeError && e.status !== undefined)
      return failed(proxyRefusal(e.status, { proxy: ctx.proxy.display, source: ctx.proxy.source, hasCredentials: ctx.proxy.hasCredentials }, url.origin));
    return failed(said('CONNECT to {0} through the proxy failed ({1}).', target, codeOf(e)), said('Check the proxy and its settings.'));
  }
}

export async function tls(ctx: StepContext, url: URL): Promise<Outcome> {
  if (url.protocol !== 'https:') return skipped(said('Plain http: no TLS (accepted only for loopback addresses).'));
  let facts;
  try {
    facts = await tlsHandshake({
      host: url.hostname,
      port: portOf(url),
      ...(ctx.tunnel ? { socket: ctx.tunnel } : {}),
      ...(ctx.trust?.ca ? { ca: ctx.trust.ca } : {}),
      timeoutMs: ctx.timeoutMs,
    });
  } catch (e) {
    return failed(
      said('The TLS handshake with {0} failed ({1}).', url.host, codeOf(e)),
      said("Check that the base URL's port speaks https; a plain-http server needs http:// (loopback only)."),
    );
  }
  const validTo = facts.validTo;
  const days = validTo ? Math.floor((validTo.getTime() - Date.now()) / 86_400_000) : 0;
  const subject = facts.subject ?? '?';
  const issuer = facts.issuer ?? '?';
  const cert = !validTo
    ? said('certificate of {0} (issuer {1})', subject, issuer)
    : days === 1
      ? said('certificate of {0} (issuer {1}, valid until {2}, 1 day left)', subject, issuer, formatDay(validTo))
      : said('certificate of {0} (issuer {1}, valid until {2}, {3} days left)', subject, issuer, formatDay(validTo), days);
  const protocol = facts.protocol ?? 'TLS';
  if (facts.authorized) return ok(said('{0}, {1}; trusted.', protocol, cert));
  const { problem, fix } = explainCertificate(facts.error ?? 'UNKNOWN').said;
  if (!ctx.network.strictSSL)
    return ok(said('{0}, {1}; NOT trusted: it {2}. Accepted only because {3} is false.', protocol, cert, problem, 'http.proxyStrictSSL'));
  if (ctx.proxy) {
    return failed(
      said(
        "The {0} {1}. The connection goes through {2}: if {3} is your proxy's CA, the proxy inspects TLS.",
        cert,
        problem,
        ctx.proxy.display,
        facts.issuer ?? said('the issuer'),
      ),
      fix,
    );
  }
  return failed(said('The {0} {1}.', cert, problem), fix);
}

export async function http(ctx: StepContext, url: URL): Promise<Outcome> {
  const collected: string[] = [];
  const note = (m: string): number => collected.push(m);
  ctx.dispatcher = createDispatcher(ctx.network, ctx.env, { info: () => undefined, warn: note, error: note }, { connectTimeoutMs: ctx.timeoutMs });
  const path = `${url.pathname.replace(/\/$/, '')}/`;
  try {
    const response = await ctx.dispatcher.request({
      origin: url.origin,
      path,
      method: 'GET',
      headers: { 'user-agent': `appsec-findings/${ctx.extensionVersion}` },
      headersTimeout: ctx.timeoutMs,
      bodyTimeout: ctx.timeoutMs,
      signal: ctx.signal,
    });
    await response.body.dump();
    return ok(said('HTTP {0} from {1} (any answer proves the platform is reachable).', response.statusCode, `${url.origin}${path}`));
  } catch (e) {
    return failed(errorSaid(errorFromTransport(e, url.origin, ctx.signal)));
  }
}

export async function auth(ctx: StepContext): Promise<Outcome> {
  // Tokens are kept per origin: the report names the one whose token it checked.
  const origin = ctx.url?.origin ?? ctx.baseUrl;
  if (!ctx.token) return skipped(said('Not signed in to {0}: run "{1}" with an API token.', origin, said('AppSec: Sign In')));
  const token = ctx.token;
  const client = new PlatformClient({
    baseUrl: ctx.baseUrl,
    extensionVersion: ctx.extensionVersion,
    getToken: () => Promise.resolve(token),
    dispatcher: ctx.dispatcher,
    retryPolicy: { maxRetries: 0 },
    timeouts: { headersMs: ctx.timeoutMs, bodyMs: ctx.timeoutMs },
  });
  try {
    const [first, ...more] = await client.listDeployments({ signal: ctx.signal });
    if (!first)
      return failed(
        said('The token is accepted but reaches no deployment.'),
        said('Create a token in the platform ({0}) with Web API access, then sign in again.', 'Settings → Tokens'),
      );
    return ok(
      more.length === 0
        ? said('The token of {0} is accepted: deployment {1} ({2}, id {3}).', origin, first.slug, first.name, first.id)
        : said('The token of {0} is accepted: deployment {1} ({2}, id {3}) and {4} more.', origin, first.slug, first.name, first.id, more.length),
    );
  } catch (e) {
    if (PlatformError.is(e, 'unauthorized'))
      return failed(said('The platform refused the stored token (401).'), said('Sign in again with a valid API token ("{0}").', said('AppSec: Sign In')));
    if (PlatformError.is(e, 'notFound'))
      return failed(said('The platform answered 404 to the deployment list.'), said('{0} Then sign in again.', webApiScopeHint()));
    return failed(errorSaid(e));
  } finally {
    await client.close();
  }
}
