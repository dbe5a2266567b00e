/**
 * The low-level probes of "Check Connection": one DNS lookup, one TCP connect, one CONNECT
 * tunnel, one TLS handshake, each with its own timeout, so a failure is pinned to its layer.
 * They use Node's own modules directly: undici would hide which layer failed.
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** An error with a Node-style code, for failures the probes detect themselves. */
export class ProbeError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string, onTimeout: () => void = () => undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new ProbeError(`${what}: no answer within ${Math.round(ms / 1000)} s`, 'ETIMEDOUT'));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function resolveHost(host: string, timeoutMs: number): Promise<string[]> {
  const found = await withTimeout(lookup(host, { all: true }), timeoutMs, `looking up ${host}`);
  return found.map((a) => a.address);
}

/** Connects, notes the peer address, and closes again. */
export function tcpConnect(host: string, port: number, timeoutMs: number): Promise<string> {
  const socket = netConnect({ host: stripBrackets(host), port });
  const connected = new Promise<string>((resolve, reject) => {
    socket.once('connect', () => resolve(`${socket.remoteAddress ?? host}:${socket.remotePort ?? port}`));
    socket.once('error', reject);
  });
  return withTimeout(connected, timeoutMs, `connecting to ${host}:${port}`).finally(() => socket.destroy());
}

export interface TunnelOptions {
  readonly proxy: URL;
  /** `host:port` to reach through the proxy. */
  readonly target: string;
  /** For an https:// proxy. */
  readonly ca?: readonly string[];
  readonly rejectUnauthorized: boolean;
  readonly timeoutMs: number;
}

/** Asks the proxy for a CONNECT tunnel; resolves with the tunnel's socket on a 200. */
export function openTunnel(options: TunnelOptions): Promise<Socket> {
  const { proxy } = options;
  const headers: Record<string, string> = { host: options.target };
  if (proxy.username || proxy.password) {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const request = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
    host: stripBrackets(proxy.hostname),
    port: Number(proxy.port) || (proxy.protocol === 'https:' ? 443 : 80),
    method: 'CONNECT',
    path: options.target,
    headers,
    agent: false,
    ...(proxy.protocol === 'https:' ? { ca: options.ca ? [...options.ca] : undefined, rejectUnauthorized: options.rejectUnauthorized } : {}),
  });
  const tunnel = new Promise<Socket>((resolve, reject) => {
    request.once('connect', (response, socket) => {
      const status = response.statusCode ?? 0;
      if (status === 200) return resolve(socket);
      socket.destroy();
      reject(new ProbeError(`Proxy response (${status})`, 'EPROXYREFUSED', status));
    });
    // A proxy that answers CONNECT as an ordinary request (no tunnel support).
    request.once('response', (response) => {
      response.resume();
      reject(new ProbeError(`Proxy response (${response.statusCode ?? 0})`, 'EPROXYREFUSED', response.statusCode));
    });
    request.once('error', reject);
  });
  request.end();
  return withTimeout(tunnel, options.timeoutMs, `CONNECT through ${proxy.host}`, () => request.destroy());
}

export interface TlsFacts {
  readonly authorized: boolean;
  /** The verification error code when not authorized. */
  readonly error?: string;
  readonly protocol?: string;
  readonly subject?: string;
  readonly issuer?: string;
  readonly validTo?: Date;
}

export interface HandshakeOptions {
  readonly host: string;
  readonly port: number;
  /** A tunnel to run TLS over (through a proxy). */
  readonly socket?: Socket;
  readonly ca?: readonly string[];
  readonly timeoutMs: number;
}

/**
 * A handshake that does not abort on an untrusted certificate: verification runs all the same
 * (the result is `authorized` and `error`), but the certificate can still be shown, which is
 * what tells a TLS-inspecting proxy (its CA as the issuer) from an expired certificate.
 */
export function tlsHandshake(options: HandshakeOptions): Promise<TlsFacts> {
  const host = stripBrackets(options.host);
  const socket = tlsConnect({
    host,
    port: options.port,
    ...(options.socket ? { socket: options.socket } : {}),
    ...(isIP(host) ? {} : { servername: host }),
    ...(options.ca ? { ca: [...options.ca] } : {}),
    rejectUnauthorized: false,
  });
  const done = new Promise<TlsFacts>((resolve, reject) => {
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const error = socket.authorizationError as unknown;
      resolve({
        authorized: socket.authorized,
        ...(socket.authorized ? {} : { error: typeof error === 'string' ? error : ((error as { code?: string } | null)?.code ?? String(error)) }),
        protocol: socket.getProtocol() ?? undefined,
        subject: nameOf(cert.subject),
        issuer: nameOf(cert.issuer),
        ...(cert.valid_to ? { validTo: new Date(cert.valid_to) } : {}),
      });
    });
    socket.once('error', reject);
  });
  return withTimeout(done, options.timeoutMs, `TLS handshake with ${host}:${options.port}`).finally(() => {
    socket.destroy();
    options.socket?.destroy();
  });
}

function nameOf(name: { CN?: string | string[]; O?: string | string[] } | undefined): string | undefined {
  const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
  const cn = first(name?.CN);
  const o = first(name?.O);
  return cn ?? o;
}

export function stripBrackets(host: string): string {
  return host.replace(/^\[|\]$/g, '');
}
