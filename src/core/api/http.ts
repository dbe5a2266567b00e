import { Agent, type Dispatcher } from 'undici';
import { parseBaseUrl, type BaseUrl } from './baseUrl';
import { REDIRECT_STATUSES, redirectTarget, refuseInsecure } from './redirects';
import { PlatformError, cancelledError } from '../model/errors';
import { SAME_BODY, type BodyIdentity } from './body-identity';
import {
  checkJsonType,
  DEFAULT_MAX_BODY_BYTES,
  parseJsonBody,
  readBodyPrefix,
  readCappedBody,
  readCappedText,
  headerValue,
  type ReadText,
} from './responseBody';
import { DEFAULT_RETRY_POLICY, withRetries, type HttpMethod, type RetryEnvironment, type RetryInfo, type RetryPolicy } from './retry';
import { capitalized, errorForStatus, parseRetryAfter, type EndpointAccess } from './statusErrors';
import { errorFromTransport } from './transportErrors';
import { nextTurn } from '../slices';
import { said, type Said } from '../l10n';

/**
 * A body's arrays longer than this (in characters) are parsed a slice of elements at a time, each
 * slice on a turn of its own (`json-in-slices.ts`); smaller bodies are parsed at once.
 */
const PARSE_SLICE_CHARS = 256 * 1024;

let lastTurn: Promise<void> = Promise.resolve();
/**
 * Resolves on a turn of the event loop that no other caller shares: turns are handed out one
 * after another, each asked for only once the one before began, so timers and I/O run between
 * them (several immediates queued at once would all run in one turn).
 */
export function ownTurn(): Promise<void> {
  const turn = lastTurn.then(nextTurn);
  lastTurn = turn;
  return turn;
}

export interface HttpTimeouts {
  /** TCP and TLS set-up; only applies to the default agent (an injected one brings its own). */
  readonly connectMs: number;
  /** Until the response headers arrive. */
  readonly headersMs: number;
  /** Longest silence while the body streams in. */
  readonly bodyMs: number;
}

export const DEFAULT_TIMEOUTS: HttpTimeouts = { connectMs: 15_000, headersMs: 60_000, bodyMs: 60_000 };

export interface PlatformHttpOptions {
  /** The base URL setting; refused when plain http to a non-loopback host. */
  readonly baseUrl: string;
  /** Goes into the User-Agent as `appsec-findings/<version>`. */
  readonly extensionVersion: string;
  /** Asked before every call, so a token changed by signing in again is used at once. */
  readonly getToken: () => Promise<string | undefined>;
  /**
   * The host passes its dispatcher built from the proxy and CA settings, as a function asked at
   * each request: when those settings change, the host closes the old dispatcher, and a load
   * already under way must send its next page or retry through the new one, not the closed one.
   */
  readonly dispatcher?: Dispatcher | (() => Dispatcher);
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly retryPolicy?: Partial<RetryPolicy>;
  readonly random?: () => number;
  readonly now?: () => number;
  readonly maxBodyBytes?: number;
  readonly maxRedirects?: number;
  /** Told of each retry (what failed and the wait), so the log says why a load took long. */
  readonly onRetry?: (info: RetryInfo & { readonly what: string }) => void;
}

export interface JsonRequest {
  readonly method: HttpMethod;
  /** Below the base URL, already percent-encoded, starting with `/api/`. */
  readonly path: string;
  /** Already encoded, without `?`. */
  readonly query?: string;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Names the resource in error messages, in English (the log) and the display language: "project acme/api". */
  readonly what: Said;
  /** Whose refusal a 403 or 404 is (see {@link EndpointAccess}); the token's own by default. */
  readonly access?: EndpointAccess;
  /**
   * The request only reads, so it is retried like a GET (429, 5xx, timeouts, a cut-off answer)
   * whatever its method: a POST whose body is a query, as the inventory's lists are. Without it a
   * POST is never repeated, since it may create something twice.
   */
  readonly idempotent?: boolean;
  readonly signal?: AbortSignal;
  /** What a success body's bytes hashed to last time (`BodyIdentity`): the same bytes are not parsed again. */
  readonly identity?: BodyIdentity;
}

/**
 * The only place that talks HTTP. Every call goes through {@link requestJson}: token, retries,
 * redirects, size cap and error mapping are decided here once, not per endpoint.
 */
export class PlatformHttp {
  private readonly base: BaseUrl;
  private readonly dispatcher: () => Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeouts: HttpTimeouts;
  private readonly retry: RetryEnvironment;
  private readonly onRetry: PlatformHttpOptions['onRetry'];
  private readonly userAgent: string;
  private readonly maxBodyBytes: number;
  private readonly maxRedirects: number;

  constructor(private readonly options: PlatformHttpOptions) {
    this.base = parseBaseUrl(options.baseUrl);
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.ownsDispatcher = options.dispatcher === undefined;
    const own =
      options.dispatcher ??
      new Agent({
        connect: { timeout: this.timeouts.connectMs },
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
        keepAliveTimeout: 30_000,
      });
    this.dispatcher = typeof own === 'function' ? own : () => own;
    this.retry = {
      policy: { ...DEFAULT_RETRY_POLICY, ...options.retryPolicy },
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
    };
    this.onRetry = options.onRetry;
    this.userAgent = `appsec-findings/${options.extensionVersion}`;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxRedirects = options.maxRedirects ?? 5;
  }

  async requestJson(request: JsonRequest): Promise<unknown> {
    if (request.signal?.aborted) {
      throw cancelledError();
    }
    const token = await this.options.getToken();
    if (!token) {
      throw new PlatformError('unauthorized', said('Not signed in. Sign in with an API token of the platform.'));
    }
    if (request.signal?.aborted) {
      throw cancelledError();
    }
    const onRetry = this.onRetry;
    const retry = onRetry ? { ...this.retry, onRetry: (info: RetryInfo) => onRetry({ ...info, what: capitalized(request.what).english }) } : this.retry;
    return withRetries(request.method, retry, request.signal, () => this.exchange(request, token), request.idempotent === true);
  }

  /**
   * The bytes behind an absolute link the platform handed out (an SBOM download). The token goes
   * only to the platform's own origin: a link elsewhere is a pre-signed storage URL and is fetched,
   * and its redirects followed, without the Authorization header.
   */
  async download(link: string, what: Said, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new PlatformError('invalidResponse', said("The platform's link for {0} is not a valid URL.", what));
    }
    const token = url.origin === this.base.origin ? await this.options.getToken() : undefined;
    return withRetries('GET', this.retry, signal, async () => {
      let target = url;
      for (let hops = 0; ; hops++) {
        refuseInsecure(target, what);
        const response = await this.send(target, 'GET', undefined, target.origin === this.base.origin ? token : undefined, signal, '*/*');
        const status = response.statusCode;
        if (REDIRECT_STATUSES.has(status)) {
          await response.body.dump().catch(() => undefined);
          const location = headerValue(response.headers.location);
          if (!location || hops >= this.maxRedirects)
            throw new PlatformError('redirect', said('The download of {0} was redirected without end or without a target.', what));
          target = new URL(location, target);
          continue;
        }
        if (status >= 200 && status < 300) {
          try {
            return await readCappedBody(response.body, response.headers, maxBytes, what);
          } catch (e) {
            throw e instanceof PlatformError ? e : errorFromTransport(e, target.origin, signal);
          }
        }
        const text = await readBodyPrefix(response.body);
        throw errorForStatus(status, text, undefined, { what, token, access: 'product' });
      }
    });
  }

  /** Closes the connections of the agent this object made; an injected one belongs to the caller. */
  async close(): Promise<void> {
    if (this.ownsDispatcher) {
      await this.dispatcher().close();
    }
  }

  /** One attempt: the request and the redirects it leads to. */
  private async exchange(request: JsonRequest, token: string): Promise<unknown> {
    const search = request.query ? `?${request.query}` : '';
    let url = new URL(`${this.base.origin}${this.base.pathPrefix}${request.path}${search}`);
    let method: HttpMethod = request.method;
    let body = request.body === undefined ? undefined : JSON.stringify(request.body);
    for (let hops = 0; ; hops++) {
      const response = await this.send(url, method, body, token, request.signal);
      const status = response.statusCode;
      if (REDIRECT_STATUSES.has(status)) {
        await response.body.dump().catch(() => undefined);
        url = redirectTarget({ origin: this.base.origin, maxRedirects: this.maxRedirects }, url, headerValue(response.headers.location), hops, request.what);
        if (status === 303) {
          // 303 means "fetch the result with GET"; 301/302 of a non-GET are refused below.
          method = 'GET';
          body = undefined;
        } else if ((status === 301 || status === 302) && method !== 'GET') {
          throw new PlatformError(
            'redirect',
            said('The platform redirected a {0} for {1} ({2}); it was not repeated. Check the base URL setting.', method, request.what, status),
            { status },
          );
        }
        continue;
      }
      if (status >= 200 && status < 300) {
        return this.readJson(response, request, url.origin);
      }
      const text = await readBodyPrefix(response.body);
      const retryAfterMs = parseRetryAfter(response.headers['retry-after'], this.retry.now());
      throw errorForStatus(status, text, retryAfterMs, { what: request.what, token, access: request.access });
    }
  }

  /** `token` undefined: no Authorization header (a link on another origin). */
  private async send(
    url: URL,
    method: HttpMethod,
    body: string | undefined,
    token: string | undefined,
    signal: AbortSignal | undefined,
    accept = 'application/json',
  ): Promise<Dispatcher.ResponseData> {
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
    }
    try {
      return await this.dispatcher().request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        body,
        signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
    } catch (e) {
      throw errorFromTransport(e, url.origin, signal);
    }
  }

  private async readJson(response: Dispatcher.ResponseData, request: JsonRequest, origin: string): Promise<unknown> {
    let body: ReadText;
    try {
      body = await readCappedText(response.body, response.headers, this.maxBodyBytes, request.what);
    } catch (e) {
      // A reset or a stall mid-body is a network failure (retryable for a GET), not bad data.
      throw errorFromTransport(e, origin, request.signal);
    }
    request.identity?.seen(body.digest);
    if (request.identity?.unless === body.digest) {
      checkJsonType(response.headers, request.what);
      return SAME_BODY;
    }
    // Pages in flight together arrive together: each is parsed (and decoded by its caller) a
    // slice at a time on turns of its own, so the extension host answers between them.
    if (body.text.length > PARSE_SLICE_CHARS) await ownTurn();
    return parseJsonBody(body, response.headers, request.what, PARSE_SLICE_CHARS, ownTurn);
  }
}
