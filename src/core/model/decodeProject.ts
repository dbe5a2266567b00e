import { PlatformError } from './errors';
import { branchName } from './refs';
import { asObject, isObject, readSafeInteger, readString, readStringArray, readTimestamp } from './decodeRead';
import type { ManagedScans, Project } from './types';

/** A project, or undefined without a safe integer `id` and a `name`. */
export function decodeProject(raw: unknown): Project | undefined {
  if (!isObject(raw)) {
    return undefined;
  }
  const id = readSafeInteger(raw.id);
  const name = readString(raw.name);
  if (id === undefined || name === undefined) {
    return undefined;
  }
  return {
    id,
    name,
    tags: readStringArray(raw.tags),
    createdAt: readTimestamp(raw.created_at),
    defaultBranch: readBranch(raw.default_branch),
    primaryBranch: readBranch(raw.primary_branch),
    latestScanAt: readTimestamp(raw.latest_scan_at),
    url: readString(raw.url),
    managedScanConfig: decodeManagedScans(raw.managed_scan_config),
  };
}

/** `managed_scan_config`; the service leaves `false` out, so inside one that is present a missing flag is off. */
export function decodeManagedScans(raw: unknown): ManagedScans | undefined {
  const config = asObject(raw);
  return (
    config && {
      diffScanEnabled: asObject(config.diff_scan)?.enabled === true,
      fullScanEnabled: asObject(config.full_scan)?.enabled === true,
    }
  );
}

/** Projects name branches `refs/heads/main`; everything else here works with the short name. */
function readBranch(value: unknown): string | undefined {
  const ref = readString(value);
  return ref === undefined ? undefined : branchName(ref);
}

/** Spec 4.6: `projects` is required; malformed items are left out. */
export function decodeProjectsPage(body: unknown): { projects: Project[]; rawCount: number } {
  const items = isObject(body) ? body.projects : undefined;
  if (!Array.isArray(items)) {
    throw new PlatformError('invalidResponse', 'The platform\'s project list has no "projects" list. Try again; if it persists, check the base URL.');
  }
  const projects = items.map(decodeProject).filter((p): p is Project => p !== undefined);
  return { projects, rawCount: items.length };
}

/** Spec 4.4 and 4.5: `{ "project": {…} }`; without a usable project the answer is unusable. */
export function decodeProjectResponse(body: unknown, projectName: string): Project {
  const project = decodeProject(isObject(body) ? body.project : undefined);
  if (!project) {
    throw new PlatformError('invalidResponse', `The platform's answer for project ${projectName} holds no readable project.`);
  }
  return project;
}
