/**
 * SBOM exports (docs/platform-api.md, spec 4.3): what an export request takes and what its job
 * answers while it runs.
 */
import type { Open } from './types';

export type SbomOutputFormat = 'SBOM_OUTPUT_FORMAT_JSON' | 'SBOM_OUTPUT_FORMAT_CYCLONEDX';

export const SBOM_COMPONENT_TYPES = [
  'APPLICATION',
  'FRAMEWORK',
  'LIBRARY',
  'CONTAINER',
  'PLATFORM',
  'OPERATING_SYSTEM',
  'DEVICE',
  'DEVICE_DRIVER',
  'FIRMWARE',
  'FILE',
  'MACHINE_LEARNING_MODEL',
  'DATA',
] as const;
export type SbomComponentType = (typeof SBOM_COMPONENT_TYPES)[number];
export const SBOM_COMPONENT_TYPE_PREFIX = 'SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_';
/** CycloneDX versions the real service offers (docs/platform-api.md). */
export const CYCLONEDX_VERSIONS = ['1.4', '1.5', '1.6', '1.7'] as const;

export interface SbomExportRequest {
  readonly repositoryId: number;
  readonly ref: string;
  readonly outputFormat: SbomOutputFormat;
  readonly cycloneDxVersion: string;
  readonly componentType: SbomComponentType;
  readonly supplier?: {
    readonly name?: string;
    readonly url?: string;
    readonly contact?: { readonly name?: string; readonly email?: string; readonly phone?: string };
  };
}

export type SbomExportState = Open<'SBOM_EXPORT_STATUS_IN_PROGRESS' | 'SBOM_EXPORT_STATUS_COMPLETED' | 'SBOM_EXPORT_STATUS_FAILED'>;

export interface SbomExportStatus {
  readonly state: SbomExportState;
  readonly downloadUrl?: string;
  readonly errorMessage?: string;
}
