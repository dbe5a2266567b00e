/**
 * A local, real HTTP implementation of the platform API (docs/platform-api.md) for tests, the
 * benchmark and the demo. Node's `http` only. It answers in the real service's shapes by
 * default (`shape: 'spec'` gives the spec's), and can cap page sizes as some servers do.
 *
 * Each request is: read the body, record it, pick an injected fault, wait the configured
 * latency, then (unless the fault replaces the answer) check the token and route it.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { FindingsIndex } from './findings-query';
import { Faults, type FaultController } from './faults';
import { error, send, sendMangled, standaloneFaultResponse, streamHugeBody, type PlatformResponse } from './respond';
import { defaultMissingStatus, handleApi, type ApiState, type Product, type ProductsState } from './routes';
import type { AnswerShape } from './service-shape';
import { AutofixDesk, type AutofixOutcomeSetting } from './autofix';
import type { StoryKnobs, StoryMember } from './issue-story';
import { RoundTrips } from './round-trips';
import { SbomJobs } from './sbom';
import type { PlatformData } from './types';

export interface PlatformServerOptions {
  data: PlatformData;
  token?: string;
  host?: string;
  port?: number;
  latencyMs?: number;
  sbomPollsUntilDone?: number;
  /** Serve https with this key and certificate (PEM), e.g. from test/platform/tls-certs.ts. */
  tls?: { key: string; cert: string };
  /** How answers are spelt: the real service's (default) or the spec's. */
  shape?: AnswerShape;
  /** At most this many items per findings or projects page, whatever `page_size` asks. */
  maxPageSize?: number;
  /** Whether a ticketing (Jira) integration is configured (default true). */
  ticketing?: boolean;
  /** Products the deployment lacks, each with the status its endpoints answer (default: see `defaultMissingStatus`). */
  without?: ReadonlyMap<Product, number | undefined> | readonly Product[];
  /** The token's role may not write: triage, tickets, changes to projects and policy rules, SBOM exports and fix requests answer 403. */
  readOnly?: boolean;
  /** How long after an accepted fix request its pull request opens (default 3 s). */
  autofixDelayMs?: number;
}

export interface RecordedRequest {
  method: string;
  /** Path as received (percent-encoding intact), without the query. */
  path: string;
  rawUrl: string;
  headers: Record<string, string | string[] | undefined>;
  body?: string;
}

export interface RunningPlatform {
  url: string;
  token: string;
  data: PlatformData;
  faults: FaultController;
  requests: RecordedRequest[];
  /** The longest chain of requests that waited for each other since its mark (for the benchmark). */
  roundTrips: RoundTrips;
  setLatency(ms: number): void;
  setShape(shape: AnswerShape): void;
  /** Caps pages (undefined: no cap); the offset is then `page` × the capped size. */
  setMaxPageSize(size: number | undefined): void;
  /** Refuses a projects `page_size` above `limit` with 400, as a deployment may (undefined: up to 10 000). */
  setProjectsPageLimit(limit: number | undefined): void;
  /** Switches the ticketing integration on or off (creating tickets is refused without it). */
  setTicketing(on: boolean): void;
  /** Takes a product away (its endpoints answer `status`, by default 404, or 400 for `ai`), or gives it back (`undefined`). */
  setProduct(product: Product, missingStatus: number | undefined | 'default'): void;
  /** Gives every product back and lets the role write again. */
  restoreProducts(): void;
  /** Lets the token's role write, or not (every write then answers 403). */
  setReadOnly(on: boolean): void;
  /** What the next fix requests answer (`issue-story.ts`, `autofix.ts`): the platform's own decision by default. */
  setAutofixOutcome(outcome: AutofixOutcomeSetting): void;
  setAutofixDelay(ms: number): void;
  /** Members every v2 story leaves out (none by default), and its spelling (camelCase by default). */
  setIssueStory(shape: { omit?: readonly StoryMember[]; spelling?: StoryKnobs['spelling'] }): void;
  /** The second origin that serves finished SBOMs, like object storage behind pre-signed links. */
  storageUrl: string;
  /** Requests the storage origin received (it refuses any that carries an Authorization header). */
  storageRequests: RecordedRequest[];
  close(): Promise<void>;
}

function isProductList(given: ReadonlyMap<Product, number | undefined> | readonly Product[]): given is readonly Product[] {
  return Array.isArray(given);
}

/** Request bodies here are tiny JSON documents; anything bigger is a client bug. */
const MAX_BODY_BYTES = 1024 * 1024;

interface ReadBody {
  text: string | undefined;
  tooLarge: boolean;
}

function readBody(req: IncomingMessage): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve({ text: size === 0 ? undefined : Buffer.concat(chunks).toString('utf8'), tooLarge: size > MAX_BODY_BYTES }));
    req.on('error', reject);
  });
}

export async function startPlatformServer(opts: PlatformServerOptions): Promise<RunningPlatform> {
  const token = opts.token ?? 'test-token';
  const faults = new Faults();
  const requests: RecordedRequest[] = [];
  const roundTrips = new RoundTrips();
  const index = new FindingsIndex();
  const sbom = new SbomJobs(opts.sbomPollsUntilDone ?? 2);
  // Aborted by close(): ends pending latency waits so nothing keeps the process alive.
  const closing = new AbortController();
  // Every request waiting out the latency listens to it: dozens at once are expected, not a leak.
  setMaxListeners(0, closing.signal);
  let latencyMs = opts.latencyMs ?? 0;
  const answers: ApiState['answers'] = { shape: opts.shape ?? 'service', maxPageSize: opts.maxPageSize };
  const integrations: ApiState['integrations'] = { ticketing: opts.ticketing ?? true };
  const products: ProductsState = { missing: new Map(), readOnly: opts.readOnly ?? false };
  const issues: ApiState['issues'] = { story: { omit: new Set(), spelling: 'camel' }, autofix: new AutofixDesk(opts.autofixDelayMs ?? 3000) };
  const given = opts.without ?? [];
  const without: [Product, number | undefined][] = isProductList(given) ? given.map((p) => [p, undefined]) : [...given.entries()];
  for (const [product, status] of without) products.missing.set(product, status ?? defaultMissingStatus(product));
  // Sort once up front so even the first findings request of a big data set is fast.
  index.sorted('sast', opts.data.sast);
  index.sorted('sca', opts.data.sca);

  /** Waits, unless the server closes meanwhile; false when it did. */
  async function wait(ms: number): Promise<boolean> {
    if (ms <= 0) return !closing.signal.aborted;
    try {
      await sleep(ms, undefined, { signal: closing.signal });
      return true;
    } catch {
      return false;
    }
  }

  function answer(method: string, rawPath: string, rawQuery: string, headers: IncomingMessage['headers'], body: ReadBody): PlatformResponse {
    if (body.tooLarge) return error(413, 'request body too large');
    if (!rawPath.startsWith('/api/')) return error(404, 'no such route');
    // Never echo the token back: the message says only what is wrong with it.
    // The auth scheme is case-insensitive (RFC 9110); the token is not.
    const given = /^bearer (.*)$/i.exec(headers.authorization ?? '')?.[1];
    if (given !== token) return error(401, headers.authorization ? 'invalid API token' : 'missing Authorization: Bearer <token> header');
    return handleApi(
      { method, rawPath, rawQuery, body: body.text },
      { data: running.data, baseUrl: running.url, storageUrl: running.storageUrl, index, sbom, answers, integrations, products, issues },
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? '' : rawUrl.slice(q + 1);
    requests.push({ method, path: rawPath, rawUrl, headers: { ...req.headers }, ...(body.text === undefined ? {} : { body: body.text }) });
    res.once('finish', roundTrips.arrived(method, rawUrl));

    const fault = faults.take(method, rawUrl);
    if (fault?.kind === 'hang') return; // the socket stays open until the client gives up or close()
    if (!(await wait(latencyMs + (fault?.kind === 'delay' ? fault.ms : 0)))) return;
    if (fault?.kind === 'hugeBody') return streamHugeBody(res, fault.bytes);
    const replaced = fault && standaloneFaultResponse(fault);
    if (replaced) return send(res, replaced);
    let response: PlatformResponse;
    try {
      response = answer(method, rawPath, rawQuery, req.headers, body);
    } catch (e) {
      response = error(500, `internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (fault) sendMangled(res, response, fault);
    else send(res, response);
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch(() => res.destroy());
  };
  const server = opts.tls ? createTlsServer({ key: opts.tls.key, cert: opts.tls.cert }, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const storage = await startStorage(sbom, () => running.data, closing.signal);

  const running: RunningPlatform = {
    url: `${opts.tls ? 'https' : 'http'}://${host}:${address.port}`,
    token,
    data: opts.data,
    faults,
    requests,
    roundTrips,
    setLatency(ms: number) {
      latencyMs = ms;
    },
    setShape(shape) {
      answers.shape = shape;
    },
    setMaxPageSize(size) {
      answers.maxPageSize = size;
    },
    setProjectsPageLimit(limit) {
      answers.projectsPageLimit = limit;
    },
    setTicketing(on) {
      integrations.ticketing = on;
    },
    setProduct(product, missingStatus) {
      if (missingStatus === undefined) products.missing.delete(product);
      else products.missing.set(product, missingStatus === 'default' ? defaultMissingStatus(product) : missingStatus);
    },
    restoreProducts() {
      products.missing.clear();
      products.readOnly = false;
    },
    setReadOnly(on) {
      products.readOnly = on;
    },
    setAutofixOutcome(outcome) {
      issues.autofix.outcome = outcome;
    },
    setAutofixDelay(ms) {
      issues.autofix.delayMs = ms;
    },
    setIssueStory(shape) {
      issues.story.omit = new Set(shape.omit ?? []);
      issues.story.spelling = shape.spelling ?? 'camel';
    },
    storageUrl: storage.url,
    storageRequests: storage.requests,
    close() {
      closing.abort();
      issues.autofix.close();
      return new Promise<void>((resolve) => {
        storage.server.closeAllConnections();
        storage.server.close();
        server.close(() => resolve());
        // Hung requests and idle keep-alive sockets would otherwise hold close() open forever.
        server.closeAllConnections();
      });
    },
  };
  return running;
}

/**
 * The storage origin of finished SBOMs. Pre-signed links carry their own authorisation (here a
 * `signature` parameter), and storage services refuse a request that also brings an
 * Authorization header; so does this one, which catches a client leaking the token.
 */
async function startStorage(
  sbom: SbomJobs,
  data: () => PlatformData,
  closing: AbortSignal,
): Promise<{ server: ReturnType<typeof createServer>; url: string; requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const rawUrl = req.url ?? '/';
    const url = new URL(rawUrl, 'http://storage.invalid');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, rawUrl, headers: { ...req.headers } });
    const match = /^\/downloads\/sbom\/([^/]+)$/.exec(url.pathname);
    let response: PlatformResponse;
    if (req.headers.authorization !== undefined)
      response = error(400, 'Only one auth mechanism allowed: the link is pre-signed, an Authorization header is refused');
    else if (!match || req.method !== 'GET') response = error(404, 'no such object');
    else if (url.searchParams.get('signature') !== 'local-test') response = error(403, 'signature missing or expired');
    else response = sbom.download(decodeURIComponent(match[1]), data());
    if (!closing.aborted) send(res, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, requests };
}
