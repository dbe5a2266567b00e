import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { finished, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { PlatformError } from '../model/errors';
import { formatCount, said, type Said } from '../l10n';
import { parseInSlices, TextPieces } from './json-in-slices';
import { JsonLayoutScanner, type JsonLayout } from './json-layout';

/** Default cap of a success body: far above any real page, far below what would hurt the host. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** An error body is only read this far: enough for a snippet, never a whole HTML page. */
export const ERROR_BODY_PREFIX_BYTES = 8 * 1024;

/** Where the chunks of a body go while it is read, and what they make at the end. */
interface BodySink<T> {
  add(chunk: Buffer): void;
  done(): T;
}

/**
 * Reads a whole body, but stops (and drops the connection) as soon as it exceeds `maxBytes`, so
 * a runaway response never gets buffered. A Content-Length above the cap fails before reading.
 *
 * Chunks are taken from `data` events rather than an async iterator, which costs a promise per
 * chunk; `finished` reports the end, an error, or a close before the end (a cut-off body),
 * including one that happened before this was called.
 */
export function readCappedBody(body: Readable, headers: IncomingHttpHeaders, maxBytes: number, what: Said): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  return readCapped(body, headers, maxBytes, what, {
    add: (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
    },
    done: () => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)),
  });
}

/**
 * A body read as UTF-8 text, chunk by chunk as it arrives (within the same cap). Decoding each
 * chunk on arrival spreads the work: a page of findings is megabytes, and decoding and copying it
 * in one piece at the end is one long stall of the extension host.
 *
 * The one-piece way (keep the Buffers, decode once) does better in plain Node, as its text never
 * sits in the young generation, but worse inside VS Code, where its refreshes stall longer and
 * collect more: the host is what users feel (docs/performance.md, "Refresh"). Each piece is also
 * scanned for where its arrays' elements begin (`json-layout.ts`), so a large page can be parsed
 * a slice at a time. Its bytes are hashed as they come (natively, far cheaper than the parse), so
 * a page sent again byte for byte is told from a changed one without parsing it.
 */
export function readCappedText(body: Readable, headers: IncomingHttpHeaders, maxBytes: number, what: Said): Promise<ReadText> {
  const decoder = new StringDecoder('utf8');
  const text = new TextPieces();
  const scanner = new JsonLayoutScanner();
  const hash = createHash('sha256');
  let bytes = 0;
  const add = (piece: string): void => {
    text.add(piece);
    scanner.push(piece);
  };
  return readCapped(body, headers, maxBytes, what, {
    add: (chunk) => {
      add(decoder.write(chunk));
      hash.update(chunk);
      bytes += chunk.length;
    },
    done: () => {
      add(decoder.end());
      return { text, layout: scanner.end(), bytes, digest: hash.digest('base64') };
    },
  });
}

/** A body as read by `readCappedText`: its text in pieces, where its arrays' elements begin, the hash of its bytes. */
export interface ReadText {
  readonly text: TextPieces;
  readonly layout: JsonLayout | undefined;
  readonly bytes: number;
  readonly digest: string;
}

function readCapped<T>(body: Readable, headers: IncomingHttpHeaders, maxBytes: number, what: Said, sink: BodySink<T>): Promise<T> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    return Promise.reject(tooLarge(what, maxBytes));
  }
  return new Promise<T>((resolve, reject) => {
    let size = 0;
    let settled = false;
    const settle = (error: Error | undefined): void => {
      if (settled) {
        return;
      }
      settled = true;
      body.off('data', onData);
      if (error) {
        reject(error);
      } else {
        resolve(sink.done());
      }
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        settle(tooLarge(what, maxBytes));
        // The error this makes undici emit is taken by the `finished` listener, after settling.
        body.destroy();
        return;
      }
      sink.add(chunk);
    };
    finished(body, (error) => settle(error ?? undefined));
    body.on('data', onData);
  });
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
 * Refuses a success body declared as something other than JSON: a proxy's or login page's HTML
 * sent with 200 is `invalidResponse`, said as such.
 */
export function checkJsonType(headers: IncomingHttpHeaders, what: Said): void {
  const contentType = headerValue(headers['content-type']);
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    throw new PlatformError(
      'invalidResponse',
      contentType.toLowerCase().includes('html')
        ? said(
            'The platform answered {0} with {1} instead of JSON. A proxy or sign-in page may be answering instead of the platform: check the base URL and proxy settings.',
            what,
            contentType,
          )
        : said(
            'The platform answered {0} with {1} instead of JSON. Check that the base URL setting points at the platform, then try again.',
            what,
            contentType,
          ),
    );
  }
}

/**
 * Parses a success body (read by `readCappedText`) as JSON, a large one a slice at a time with
 * `turn` between slices (`json-in-slices.ts`). Text that does not parse (a cut-off body) is
 * `invalidResponse`.
 */
export async function parseJsonBody(body: ReadText, headers: IncomingHttpHeaders, what: Said, sliceChars: number, turn: () => Promise<void>): Promise<unknown> {
  checkJsonType(headers, what);
  try {
    return await parseInSlices(body.text, body.layout, sliceChars, turn);
  } catch (e) {
    throw new PlatformError(
      'invalidResponse',
      said("The platform's answer for {0} is not valid JSON ({1} bytes; it may be cut off). Try again.", what, formatCount(body.bytes)),
      { cause: e },
    );
  }
}

function isJsonContentType(value: string): boolean {
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function tooLarge(what: Said, maxBytes: number): PlatformError {
  const size = maxBytes >= 1024 * 1024 ? said('{0} MiB', formatCount(Math.round(maxBytes / (1024 * 1024)))) : said('{0} bytes', formatCount(maxBytes));
  return new PlatformError(
    'invalidResponse',
    said("The platform's answer for {0} is larger than {1}, so it was not read. Narrow the request with filters.", what, size),
  );
}
