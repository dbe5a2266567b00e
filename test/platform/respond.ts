/**
 * Writing responses, normally or as a fault says. Response bodies are small strings, except the
 * `hugeBody` fault, which streams its padding with backpressure instead of building it.
 */
import type { ServerResponse } from 'node:http';
import type { Fault } from './faults';

export interface PlatformResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): PlatformResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

/** The error body shape is undocumented; a small JSON object is what clients should expect. */
export function error(status: number, message: string, headers: Record<string, string> = {}): PlatformResponse {
  return json(status, { error: message }, headers);
}

export function send(res: ServerResponse, response: PlatformResponse): void {
  if (res.destroyed || res.headersSent) return;
  const body = Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, { ...response.headers, 'content-length': String(body.length) });
  res.end(body);
}

/** Faults that replace the response entirely: they need neither auth nor a route. */
export function standaloneFaultResponse(fault: Fault): PlatformResponse | undefined {
  switch (fault.kind) {
    case 'status':
      return {
        status: fault.status,
        headers: { 'content-type': 'application/json', ...fault.headers },
        body: fault.body ?? JSON.stringify({ error: 'injected fault' }),
      };
    case 'html200':
      // What a captive portal or a misconfigured proxy answers with.
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><p>nginx</p></body></html>',
      };
    case 'redirect':
      return { status: fault.status ?? 302, headers: { location: fault.location, 'content-type': 'text/plain' }, body: '' };
    default:
      return undefined;
  }
}

/** Faults that mangle the normal response on its way out. */
export function sendMangled(res: ServerResponse, response: PlatformResponse, fault: Fault): void {
  if (res.destroyed || res.headersSent) return;
  const body = Buffer.from(response.body, 'utf8');
  switch (fault.kind) {
    case 'reset': {
      // Promise the full length, deliver part of it, then drop the connection.
      res.writeHead(response.status, { ...response.headers, 'content-length': String(body.length) });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
      return;
    }
    case 'truncate': {
      // A complete HTTP message whose JSON stops halfway: the client's parser must cope.
      const half = body.subarray(0, Math.floor(body.length / 2));
      res.writeHead(200, { ...response.headers, 'content-length': String(half.length) });
      res.end(half);
      return;
    }
    case 'wrongContentType':
      send(res, { ...response, headers: { ...response.headers, 'content-type': 'text/plain; charset=utf-8' } });
      return;
    default:
      send(res, response);
  }
}

const PADDING_CHUNK = Buffer.alloc(64 * 1024, 0x20);

/** A 200 JSON body of `bytes` padding (whitespace, so it stays valid JSON), chunked and never held in memory. */
export async function streamHugeBody(res: ServerResponse, bytes: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"findings":[');
  let left = Math.max(0, Math.floor(bytes));
  while (left > 0 && !res.destroyed) {
    const chunk = left >= PADDING_CHUNK.length ? PADDING_CHUNK : PADDING_CHUNK.subarray(0, left);
    left -= chunk.length;
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  if (!res.destroyed) res.end(']}');
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
