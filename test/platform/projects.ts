/** Project endpoints (spec 4.4–4.6): list, read one, and merge tags; the other changes are in project-changes.ts. */
import { integer, QueryError } from './query-params';
import { error, json, type PlatformResponse } from './respond';
import { serviceProject, type AnswerShape } from './service-shape';
import type { PlatformData, StoredProject } from './types';

/**
 * Wire form of a project; `repository_id` is internal, `managed_scan_config` only when asked. An
 * empty `primary_branch` means the default branch is primary (a change to "None" stores it): the
 * service leaves the field out, as it does every empty value, and the spec's shape sends null.
 */
export function projectJson(p: StoredProject, withScanConfig: boolean, shape: AnswerShape = 'spec'): Record<string, unknown> {
  if (shape === 'service') {
    const service = serviceProject(p, withScanConfig);
    if (p.primary_branch === '') delete service.primary_branch;
    return service;
  }
  const out: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    tags: [...p.tags],
    created_at: p.created_at,
    default_branch: p.default_branch,
    primary_branch: p.primary_branch === '' ? null : p.primary_branch,
    latest_scan_at: p.latest_scan_at,
    url: p.url,
  };
  if (withScanConfig) {
    const c = p.managed_scan_config;
    out.managed_scan_config = { diff_scan: { enabled: c.diff_scan.enabled }, full_scan: { enabled: c.full_scan.enabled } };
  }
  return out;
}

export function listProjects(
  data: PlatformData,
  params: URLSearchParams,
  answers: { shape: AnswerShape; maxPageSize: number | undefined; projectsPageLimit?: number },
): PlatformResponse {
  try {
    const page = integer(params, 'page', 0, 0, 2 ** 32 - 1);
    const asked = integer(params, 'page_size', 100, 1, answers.projectsPageLimit ?? 10_000);
    const pageSize = answers.maxPageSize === undefined ? asked : Math.min(asked, answers.maxPageSize);
    const slice = data.projects.slice(page * pageSize, (page + 1) * pageSize);
    return json(200, { projects: slice.map((p) => projectJson(p, false, answers.shape)) });
  } catch (e) {
    if (e instanceof QueryError) return error(400, e.message);
    throw e;
  }
}

export function getProject(data: PlatformData, name: string, shape: AnswerShape): PlatformResponse {
  const project = data.projects.find((p) => p.name === name);
  return project ? json(200, { project: projectJson(project, true, shape) }) : error(404, `project ${name} not found`);
}

/** Both body forms of the spec and the real service's `{"tags": [...]}`; undefined when invalid. */
function readTags(rawBody: string | undefined, slug: string, name: string): string[] | string {
  let body: unknown;
  try {
    body = JSON.parse(rawBody ?? '');
  } catch {
    return 'body must be JSON: {"tags": [...]} or a JSON array of strings';
  }
  let tags: unknown = body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const obj = body as Record<string, unknown>;
    if (obj.deploymentSlug !== undefined && obj.deploymentSlug !== slug) return 'deploymentSlug does not match the path';
    if (obj.projectName !== undefined && obj.projectName !== name) return 'projectName does not match the path';
    tags = obj.tags;
  }
  if (!Array.isArray(tags) || !tags.every((t): t is string => typeof t === 'string' && t.trim() !== '')) {
    return 'tags must be an array of non-empty strings';
  }
  return tags;
}

/** Adds the tags (the real service merges, it never replaces) and answers with the project. */
export function addProjectTags(data: PlatformData, name: string, rawBody: string | undefined, shape: AnswerShape): PlatformResponse {
  const project = data.projects.find((p) => p.name === name);
  if (!project) return error(404, `project ${name} not found`);
  const tags = readTags(rawBody, data.deployment.slug, name);
  if (typeof tags === 'string') return error(400, tags);
  for (const tag of tags) if (!project.tags.includes(tag)) project.tags.push(tag);
  return json(200, { project: projectJson(project, true, shape) });
}
