import { PlatformError } from './errors';
import { isObject, readString } from './decodeRead';
import type { SbomExportStatus } from './sbom';

/** Spec 4.3 answer: the task token is the only handle on the job, so without it nothing works. */
export function decodeSbomExportCreated(body: unknown): string {
  const taskToken = isObject(body) ? readString(body.taskToken) : undefined;
  if (taskToken === undefined) {
    throw new PlatformError('invalidResponse', 'The platform accepted the SBOM export but sent no task token. Try the export again.');
  }
  return taskToken;
}

/** Used when the service leaves the state out (protobuf JSON omits a zero enum value). */
export const UNSPECIFIED_SBOM_EXPORT_STATE = 'SBOM_EXPORT_STATUS_UNSPECIFIED';

/** `GET …/sbom/export/{taskToken}` (docs/platform-api.md). An unknown state is kept as it came. */
export function decodeSbomExportStatus(body: unknown): SbomExportStatus {
  if (!isObject(body)) {
    throw new PlatformError('invalidResponse', "The platform's SBOM export status is not a JSON object. Try again.");
  }
  return {
    state: readString(body.status) ?? UNSPECIFIED_SBOM_EXPORT_STATE,
    downloadUrl: readString(body.downloadUrl),
    errorMessage: readString(body.errorMessage),
  };
}
