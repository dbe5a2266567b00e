import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { PlatformError } from './errors';

/** Default cap of a success body: far above any real page, far below what would hurt the host. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** An error body is only read this far: enough for a snippet, never a whole HTML page. */
export const ERROR_BODY_PREFIX_BYTES = 8 * 1024;

/**
 * Reads a whole body, but stops (and drops the connection) as soon as it exceeds `maxBytes`, so
 * a runaway response never gets buffered. A Content-Length above the cap fails before reading.
 */
export async function readCappedBody(body: Readable, headers: IncomingHttpHeaders, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw tooLarge(what, maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw tooLarge(what, maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The first bytes of an error body as text; the rest is discarded with the connection. */
export async function readBodyPrefix(body: Readable, maxBytes = ERROR_BODY_PREFIX_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= maxBytes) {
        break;
      }
    }
  } catch {
    // The status already says what went wrong; a broken error body only loses the snippet.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks, size).subarray(0, maxBytes).toString('utf8');
}

/**
 * Parses a success body as JSON. A declared non-JSON type (a proxy's or login page's HTML sent
 * with 200) and text that does not parse (a cut-off body) are both `invalidResponse`.
 */
export function parseJsonBody(bytes: Buffer, headers: IncomingHttpHeaders, what: string): unknown {
  const contentType = headerValue(headers['content-type']);
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    const hint = contentType.toLowerCase().includes('html')
      ? ' A proxy or sign-in page may be answering instead of the platform: check the base URL and proxy settings.'
      : '';
    throw new PlatformError('invalidResponse', `The platform answered ${what} with ${contentType} instead of JSON.${hint}`);
  }
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (e) {
    throw new PlatformError('invalidResponse', `The platform's answer for ${what} is not valid JSON (${bytes.length} bytes; it may be cut off). Try again.`, { cause: e });
  }
}

function isJsonContentType(value: string): boolean {
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(what: string, maxBytes: number): PlatformError {
  const size = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / (1024 * 1024))} MiB` : `${maxBytes} bytes`;
  return new PlatformError('invalidResponse', `The platform's answer for ${what} is larger than ${size}, so it was not read. Narrow the request with filters.`);
}
