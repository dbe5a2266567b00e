/**
 * Wire types of what we send: the platform's JSON for a request body, spelled as the service
 * takes it (docs/platform-api.md). What the platform sends is read as `unknown` by the tolerant
 * readers of `../model/decodeRead.ts`, so it has no wire types here; the local platform server of
 * the tests keeps its own (`test/platform/wire.ts`).
 */

/** Spec 4.3 request body. */
export interface WireSbomExportRequest {
  deploymentId?: string;
  formatVersion?: { format?: string; version?: string };
  metadataComponentType?: string;
  metadataSupplier?: {
    name?: string;
    url?: string;
    contact?: { name?: string; email?: string; phone?: string };
  };
  ref?: string;
  repositoryId?: string;
  sbomOutputFormat?: string;
}

/** The body of a fix pull request's request: empty, as the reference gives it. */
export type WireAutofixRequest = Record<string, never>;
