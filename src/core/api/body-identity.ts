/**
 * How a reader that kept what it made of an earlier answer has the same bytes again not parsed:
 * the body's bytes are hashed as they arrive (`responseBody.ts`), and a digest equal to the one
 * the reader names resolves the request with `SAME_BODY` instead of the parsed JSON. A findings
 * refresh that changes nothing so decodes nothing it already holds (`findings-fetcher.ts`).
 */

/** `unless`: the digest of the answer the reader kept; `seen` hears each body's digest. */
export interface BodyIdentity {
  readonly unless?: string;
  readonly seen: (digest: string) => void;
}

/** What a request with `identity.unless` resolves with when the body is byte for byte that answer. */
export const SAME_BODY: unique symbol = Symbol('the same body as last time');
