/**
 * SBOM export jobs (spec 4.3 plus the status endpoint the real service has): a POST starts a
 * job, status polls answer IN_PROGRESS a set number of times, then COMPLETED with a download
 * link to this server, which serves a CycloneDX document built from the project's dependencies.
 */
import { randomUUID } from 'node:crypto';
import type { WireSbomExportRequest } from '../../src/core/api/wire';
import { error, json, type PlatformResponse } from './respond';
import type { PlatformData, StoredProject } from './types';
import { inventoryOf } from './dependencies';

const COMPONENT_TYPES = [
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
].map((t) => `SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_${t}`);
const OUTPUT_FORMATS = ['SBOM_OUTPUT_FORMAT_JSON', 'SBOM_OUTPUT_FORMAT_CYCLONEDX'];
/** The CycloneDX versions the real service offers. */
const SPEC_VERSIONS = ['1.4', '1.5', '1.6', '1.7'];

interface SbomJob {
  token: string;
  project: StoredProject;
  ref: string;
  specVersion: string;
  componentType: string;
  supplier: WireSbomExportRequest['metadataSupplier'];
  polls: number;
  outputFormat: string;
  /** Set when the job will end FAILED (a ref the project was never scanned on). */
  failure?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined | Error {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : new Error(`${key} must be a string`);
}

/** CycloneDX spells component types in lowercase with hyphens (`machine-learning-model`). */
function cycloneDxType(componentType: string): string {
  return componentType.replace('SBOM_METADATA_COMPONENT_TYPE_CYCLONE_DX_V15_', '').toLowerCase().replace(/_/g, '-');
}

function purl(ecosystem: string, name: string, version: string): string {
  if (ecosystem === 'maven') {
    const [group, artifact] = name.split(':');
    return `pkg:maven/${group ?? ''}/${artifact ?? name}@${version}`;
  }
  const type = ecosystem === 'gomod' ? 'golang' : ecosystem;
  return `pkg:${type}/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${version}`;
}

export class SbomJobs {
  private readonly jobs = new Map<string, SbomJob>();

  constructor(private readonly pollsUntilDone: number) {}

  create(data: PlatformData, rawBody: string | undefined): PlatformResponse {
    let body: unknown;
    try {
      body = JSON.parse(rawBody ?? '');
    } catch {
      return error(400, 'body must be a JSON object');
    }
    if (!isRecord(body)) return error(400, 'body must be a JSON object');
    const deploymentId = body.deploymentId;
    const idText = typeof deploymentId === 'string' || typeof deploymentId === 'number' ? String(deploymentId) : undefined;
    if (deploymentId !== undefined && idText !== String(data.deployment.id)) return error(400, 'deploymentId does not match the path');
    const repositoryId = body.repositoryId;
    const repoText = typeof repositoryId === 'number' || typeof repositoryId === 'string' ? String(repositoryId) : '';
    const project = /^\d+$/.test(repoText) ? data.projects.find((p) => p.repository_id === Number(repoText)) : undefined;
    if (!project) return error(400, `unknown repositoryId ${JSON.stringify(repositoryId ?? null)}`);
    const componentType = optionalString(body, 'metadataComponentType') ?? COMPONENT_TYPES[0];
    if (componentType instanceof Error || !COMPONENT_TYPES.includes(componentType)) return error(400, 'invalid metadataComponentType');
    const outputFormat = optionalString(body, 'sbomOutputFormat');
    if (outputFormat instanceof Error || (outputFormat !== undefined && !OUTPUT_FORMATS.includes(outputFormat))) return error(400, 'invalid sbomOutputFormat');
    const ref = optionalString(body, 'ref') ?? project.primary_branch;
    if (ref instanceof Error) return error(400, ref.message);
    const formatVersion = body.formatVersion ?? {};
    if (!isRecord(formatVersion)) return error(400, 'formatVersion must be an object');
    const format = optionalString(formatVersion, 'format');
    if (format instanceof Error || (format !== undefined && format !== 'SBOM_FORMAT_CYCLONEDX'))
      return error(400, 'formatVersion.format must be SBOM_FORMAT_CYCLONEDX');
    const specVersion = optionalString(formatVersion, 'version') ?? '1.5';
    if (specVersion instanceof Error || !SPEC_VERSIONS.includes(specVersion))
      return error(400, `formatVersion.version must be one of ${SPEC_VERSIONS.join(', ')}`);
    const supplier = body.metadataSupplier;
    if (supplier !== undefined && !isRecord(supplier)) return error(400, 'metadataSupplier must be an object');

    const scanned =
      ref === project.primary_branch ||
      ref === project.default_branch ||
      data.sca.some((f) => f.ref === ref && f.repository?.name === project.name) ||
      data.sast.some((f) => f.ref === ref && f.repository?.name === project.name);
    const job: SbomJob = {
      token: randomUUID(),
      project,
      ref,
      specVersion,
      componentType,
      supplier: supplier,
      polls: 0,
      outputFormat: outputFormat ?? OUTPUT_FORMATS[0],
      ...(scanned ? {} : { failure: `no scan of ${project.name} on ref ${ref}` }),
    };
    this.jobs.set(job.token, job);
    return json(200, { taskToken: job.token });
  }

  /** `downloadOrigin`: where the finished documents are served (a second server, like object storage). */
  status(token: string, downloadOrigin: string): PlatformResponse {
    const job = this.jobs.get(token);
    if (!job) return error(404, 'export job not found');
    job.polls += 1;
    if (job.polls <= this.pollsUntilDone) return json(200, { status: 'SBOM_EXPORT_STATUS_IN_PROGRESS' });
    if (job.failure) return json(200, { status: 'SBOM_EXPORT_STATUS_FAILED', errorMessage: job.failure });
    return json(200, {
      status: 'SBOM_EXPORT_STATUS_COMPLETED',
      downloadUrl: `${downloadOrigin}/downloads/sbom/${encodeURIComponent(token)}?signature=local-test`,
    });
  }

  /** The document behind a download link, built from the data as it is now. */
  download(token: string, data: PlatformData): PlatformResponse {
    const job = this.jobs.get(token);
    if (!job || job.failure || job.polls <= this.pollsUntilDone) return error(404, 'no such export');
    const seen = new Set<string>();
    const components: Record<string, unknown>[] = [];
    const add = (ecosystem: string, name: string, version: string): void => {
      const ref = purl(ecosystem, name, version);
      if (seen.has(ref)) return;
      seen.add(ref);
      components.push({ type: 'library', 'bom-ref': ref, name, version, purl: ref });
    };
    // The same packages the repository's dependency inventory lists, and any its branch's findings add.
    for (const d of inventoryOf(data).dependencies) if (d.repositoryId === job.project.repository_id) add(d.ecosystem, d.name, d.version);
    for (const f of data.sca) {
      const dep = f.found_dependency;
      if (f.repository?.name !== job.project.name || f.ref !== job.ref || !dep?.package || !dep.version) continue;
      add(dep.ecosystem ?? 'generic', dep.package, dep.version);
    }
    const supplier = job.supplier;
    if (job.outputFormat === 'SBOM_OUTPUT_FORMAT_CYCLONEDX') return cycloneDxXml(job, components);
    return json(200, {
      bomFormat: 'CycloneDX',
      specVersion: job.specVersion,
      serialNumber: `urn:uuid:${job.token}`,
      version: 1,
      metadata: {
        timestamp: new Date().toISOString(),
        component: { type: cycloneDxType(job.componentType), 'bom-ref': job.project.name, name: job.project.name, version: job.ref },
        ...(supplier
          ? { supplier: { name: supplier.name, url: supplier.url ? [supplier.url] : [], contact: supplier.contact ? [supplier.contact] : [] } }
          : {}),
      },
      components,
    });
  }
}

const xmlText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The same document in CycloneDX XML (what `SBOM_OUTPUT_FORMAT_CYCLONEDX` asks for). */
function cycloneDxXml(job: SbomJob, components: Record<string, unknown>[]): PlatformResponse {
  const items = components.map(
    (c) =>
      `    <component type="library" bom-ref="${xmlText(String(c.purl))}"><name>${xmlText(String(c.name))}</name><version>${xmlText(String(c.version))}</version><purl>${xmlText(String(c.purl))}</purl></component>`,
  );
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<bom xmlns="http://cyclonedx.org/schema/bom/${job.specVersion}" serialNumber="urn:uuid:${job.token}" version="1">`,
    `  <metadata><component type="${cycloneDxType(job.componentType)}"><name>${xmlText(job.project.name)}</name><version>${xmlText(job.ref)}</version></component></metadata>`,
    '  <components>',
    ...items,
    '  </components>',
    '</bom>',
    '',
  ].join('\n');
  return { status: 200, headers: { 'content-type': 'application/xml' }, body };
}
