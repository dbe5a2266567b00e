/**
 * Which proxy a request takes, decided from VS Code's settings and the usual environment
 * variables. Pure: the dispatcher routes by it, and "Check Connection" reports the same decision,
 * so what the report says is what requests do.
 *
 * Not undici's EnvHttpProxyAgent: its NO_PROXY matching honours `*` only as the whole value,
 * knows no CIDR ranges, takes `::1` for host ":" port 1, and cannot say which entry matched.
 */
import { BlockList, isIP } from 'node:net';
import { said, type Said } from '../l10n';

export interface NetworkSettings {
  /** `http.proxy`; empty or absent means "take it from the environment". */
  readonly proxy?: string;
  /** `http.proxyStrictSSL`: false turns certificate checks off, loudly. */
  readonly strictSSL: boolean;
  /** `http.noProxy`. */
  readonly noProxy: readonly string[];
  /** `appsecFindings.caBundlePath`. */
  readonly caBundlePath?: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface ProxyChoice {
  /** Credentials included: for the agent only, never for text. */
  readonly url: URL;
  /** Safe to show: credentials replaced by `***`. */
  readonly display: string;
  /** Where it was configured: `http.proxy`, `HTTPS_PROXY`, … */
  readonly source: string;
  readonly hasCredentials: boolean;
}

export type ProxyDecision =
  | { readonly kind: 'direct'; readonly reason: Said }
  | { readonly kind: 'proxy'; readonly proxy: ProxyChoice }
  | { readonly kind: 'invalid'; readonly message: Said };

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The proxy for `target`: the setting first, then the variables curl and undici read. */
export function proxyFor(target: URL, net: NetworkSettings, env: Env): ProxyDecision {
  const configured = configuredProxy(target.protocol, net, env);
  if (!configured) return { kind: 'direct', reason: said('no proxy is set ({0})', 'http.proxy, HTTPS_PROXY, HTTP_PROXY') };
  const bypass = matchNoProxy(target, noProxyRules(net, env));
  if (bypass) return { kind: 'direct', reason: said('{0} matches "{1}" in {2}', target.host, bypass.entry, bypass.source) };
  return parseProxy(configured.value, configured.source);
}

function configuredProxy(protocol: string, net: NetworkSettings, env: Env): { value: string; source: string } | undefined {
  const setting = net.proxy?.trim();
  if (setting) return { value: setting, source: 'http.proxy' };
  // Lower case first, as curl and undici do; an https request falls back to the http proxy.
  const names = protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] : ['http_proxy', 'HTTP_PROXY'];
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { value, source: name };
  }
  return undefined;
}

function parseProxy(raw: string, source: string): ProxyDecision {
  // Environment variables often omit the scheme ("proxy.corp:3128"); curl assumes http then.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return {
      kind: 'invalid',
      message: said('The proxy in {0} is not a valid URL. Use {1} (credentials as {2}).', source, 'http://host:port', 'http://user:password@host:port'),
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'invalid',
      message: said(
        'The proxy in {0} uses {1}, which this extension does not support. Use an {2} or {3} proxy.',
        source,
        `${url.protocol.slice(0, -1)}://`,
        'http://',
        'https://',
      ),
    };
  }
  const hasCredentials = url.username !== '' || url.password !== '';
  return { kind: 'proxy', proxy: { url, display: redactProxyUrl(url.href), source, hasCredentials } };
}

/** A proxy URL without its credentials, for logs and messages. Never throws. */
export function redactProxyUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username || url.password) {
      url.username = '***';
      url.password = '***';
    }
    return url.href.replace(/\/$/, '');
  } catch {
    return '(not a valid URL)';
  }
}

export interface NoProxyRule {
  readonly entry: string;
  readonly source: string;
  readonly host: string;
  /** 0: any port. */
  readonly port: number;
  /** Set for CIDR entries (`10.0.0.0/8`). */
  readonly subnet?: BlockList;
}

/** `http.noProxy` entries, then `NO_PROXY`/`no_proxy`; commas and white space separate entries. */
export function noProxyRules(net: NetworkSettings, env: Env): NoProxyRule[] {
  const envName = env.no_proxy !== undefined ? 'no_proxy' : 'NO_PROXY';
  const sources: [string, string][] = [...net.noProxy.map((e): [string, string] => [e, 'http.noProxy']), [env[envName] ?? '', envName]];
  return sources.flatMap(([value, source]) =>
    value
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((entry) => parseRule(entry, source)),
  );
}

function parseRule(entry: string, source: string): NoProxyRule {
  const lower = entry.toLowerCase();
  const cidr = /^([0-9a-f.:]+)\/(\d{1,3})$/.exec(lower);
  if (cidr && isIP(cidr[1])) {
    const subnet = new BlockList();
    const family = isIP(cidr[1]) === 4 ? 'ipv4' : 'ipv6';
    subnet.addSubnet(cidr[1], Number(cidr[2]), family);
    return { entry, source, host: '', port: 0, subnet };
  }
  // A bare IPv6 address has colons but no port; "[::1]:8080" and "host:8080" have one.
  let host = lower;
  let port = 0;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(lower);
  const hostPort = /^([^:]+):(\d+)$/.exec(lower);
  if (bracketed) {
    host = bracketed[1];
    port = Number(bracketed[2] ?? 0);
  } else if (hostPort) {
    host = hostPort[1];
    port = Number(hostPort[2]);
  }
  // ".corp.example" and "*.corp.example" both mean the domain and every host below it.
  host = host.replace(/^\*?\./, '').replace(/\.$/, '');
  return { entry, source, host, port };
}

/** The first rule that sends `target` direct, if any. */
export function matchNoProxy(target: URL, rules: readonly NoProxyRule[]): NoProxyRule | undefined {
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const port = Number(target.port) || DEFAULT_PORTS[target.protocol] || 0;
  const family = isIP(host);
  return rules.find((rule) => {
    if (rule.entry === '*') return true;
    if (rule.port && rule.port !== port) return false;
    if (rule.subnet) return family !== 0 && rule.subnet.check(host, family === 4 ? 'ipv4' : 'ipv6');
    return host === rule.host || (rule.host !== '' && family === 0 && host.endsWith(`.${rule.host}`));
  });
}
