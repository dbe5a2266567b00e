/**
 * `projects/{projectName}` and what hangs under it: read the project (GET), add tags (PUT
 * `…/tags`), remove tags (DELETE `…/tags?tags=a`), change the project (PATCH) and turn managed
 * scans on or off (PATCH `…/managed-scan`), as docs/platform-api.md ("Changes to settings") lists them. A project's
 * name may hold slashes and may itself end in `tags` or `managed-scan`: GET always reads the
 * project named by the whole path, and only the writes take the last segment as the action.
 */
import { decode, DEPLOYMENT_NOT_FOUND, jsonObject, methodNotAllowed, refusedWrite, unknownField, type ApiRequest, type ApiState } from './api-state';
import { addProjectTags, getProject, projectJson } from './projects';
import { error, json, type PlatformResponse } from './respond';
import type { AnswerShape } from './service-shape';
import type { PlatformData, StoredProject } from './types';

type Action = 'read' | 'addTags' | 'removeTags' | 'change' | 'managedScans';

/** What a request does and which raw segments name the project; undefined for a method the path does not take. */
function actionOf(method: string, segments: readonly string[]): { action: Action; name: readonly string[] } | undefined {
  const last = segments.length >= 2 ? segments[segments.length - 1] : undefined;
  const owner = segments.slice(0, -1);
  if (method === 'GET') return { action: 'read', name: segments };
  if (method === 'PUT' && last === 'tags') return { action: 'addTags', name: owner };
  if (method === 'DELETE' && last === 'tags') return { action: 'removeTags', name: owner };
  if (method === 'PATCH') return last === 'managed-scan' ? { action: 'managedScans', name: owner } : { action: 'change', name: segments };
  return undefined;
}

/** `segments`: the raw path segments after `projects/`. */
export function projectRoute(req: ApiRequest, state: ApiState, segments: readonly string[], bySlug: boolean): PlatformResponse {
  const target = actionOf(req.method, segments);
  if (!target) return methodNotAllowed(segments.length >= 2 && segments[segments.length - 1] === 'tags' ? 'GET, PUT, DELETE, PATCH' : 'GET, PATCH');
  if (!bySlug) return error(404, DEPLOYMENT_NOT_FOUND);
  const refused = target.action === 'read' ? undefined : refusedWrite(state);
  if (refused) return refused;
  const rawName = target.name.join('/');
  if (/%2f/i.test(rawName)) {
    // The real service redirects an encoded slash to the literal-slash path.
    const location = req.rawPath.replace(/%2f/gi, '/') + (req.rawQuery ? `?${req.rawQuery}` : '');
    return { status: 307, headers: { location, 'content-type': 'application/json' }, body: JSON.stringify({ error: 'use literal slashes in project names' }) };
  }
  const parts = rawName.split('/');
  if (parts.some((s) => s === '')) return error(404, 'project not found');
  const name = parts.map(decode).join('/');
  const { data, answers } = state;
  switch (target.action) {
    case 'read':
      return getProject(data, name, answers.shape);
    case 'addTags':
      return addProjectTags(data, name, req.body, answers.shape);
    case 'removeTags':
      return removeProjectTags(data, name, new URLSearchParams(req.rawQuery), answers.shape);
    case 'change':
      return changeProject(data, name, req.body, answers.shape);
    case 'managedScans':
      return setManagedScans(data, name, req.body, answers.shape);
  }
}

const answer = (project: StoredProject, shape: AnswerShape): PlatformResponse => json(200, { project: projectJson(project, true, shape) });

/** Removes the tags named by `tags` (repeated) from this project only; tags it lacks are ignored. */
function removeProjectTags(data: PlatformData, name: string, params: URLSearchParams, shape: AnswerShape): PlatformResponse {
  const project = data.projects.find((p) => p.name === name);
  if (!project) return error(404, `project ${name} not found`);
  const tags = params.getAll('tags');
  if (tags.length === 0) return error(400, 'name the tags to remove as query parameters: ?tags=a&tags=b');
  if (tags.some((t) => t.trim() === '')) return error(400, 'tags must be non-empty');
  const removed = new Set(tags);
  // In place: whoever holds the stored project sees the change.
  for (let i = project.tags.length - 1; i >= 0; i--) if (removed.has(project.tags[i])) project.tags.splice(i, 1);
  return answer(project, shape);
}

const CHANGE_FIELDS = ['tags', 'primary_branch', 'managed_scan_config'] as const;
const BRANCH_PREFIX = 'refs/heads/';

interface ScanChange {
  diff_scan?: boolean;
  full_scan?: boolean;
}

/**
 * Body: any of `tags` (replaces them), `primary_branch` (`refs/heads/<name>`, stored as the short
 * name the stored projects keep; `"None"` stores '' and makes the default branch primary) and
 * `managed_scan_config`. Everything is checked before anything changes.
 */
function changeProject(data: PlatformData, name: string, rawBody: string | undefined, shape: AnswerShape): PlatformResponse {
  const project = data.projects.find((p) => p.name === name);
  if (!project) return error(404, `project ${name} not found`);
  const read = jsonObject(rawBody);
  if ('refused' in read) return read.refused;
  const body = read.body;
  const unknown = unknownField(body, CHANGE_FIELDS);
  if (unknown) return unknown;
  if (Object.keys(body).length === 0) return error(400, `the body must set at least one of ${CHANGE_FIELDS.join(', ')}`);
  let tags: string[] | undefined;
  if ('tags' in body) {
    const given = body.tags;
    if (!Array.isArray(given) || !given.every((t): t is string => typeof t === 'string' && t.trim() !== ''))
      return error(400, 'tags must be an array of non-empty strings');
    tags = [...new Set(given)];
  }
  let branch: string | undefined;
  if ('primary_branch' in body) {
    const given = body.primary_branch;
    const short = typeof given === 'string' && given.startsWith(BRANCH_PREFIX) ? given.slice(BRANCH_PREFIX.length) : '';
    if (given !== 'None' && short.trim() === '')
      return error(400, 'primary_branch must be a full branch name (refs/heads/<name>) or "None" for the default branch');
    branch = given === 'None' ? '' : short;
  }
  let scans: ScanChange | undefined;
  if ('managed_scan_config' in body) {
    const change = readScanChange(body.managed_scan_config, 'managed_scan_config');
    if (typeof change === 'string') return error(400, change);
    scans = change;
  }
  if (tags) project.tags.splice(0, project.tags.length, ...tags);
  if (branch !== undefined) project.primary_branch = branch;
  if (scans) applyScanChange(project, scans);
  return answer(project, shape);
}

/**
 * Body `{ diff_scan: { enabled }, full_scan: { enabled } }`, either part left out. The service
 * documents no answer: the service's shape answers `{}`, the spec's the project, so clients meet both.
 */
function setManagedScans(data: PlatformData, name: string, rawBody: string | undefined, shape: AnswerShape): PlatformResponse {
  const project = data.projects.find((p) => p.name === name);
  if (!project) return error(404, `project ${name} not found`);
  const read = jsonObject(rawBody);
  if ('refused' in read) return read.refused;
  const change = readScanChange(read.body, 'the body');
  if (typeof change === 'string') return error(400, change);
  applyScanChange(project, change);
  return shape === 'service' ? json(200, {}) : answer(project, shape);
}

const SCAN_PARTS = ['diff_scan', 'full_scan'] as const;

/** The asked change of managed scans, or what is wrong with it (`where` names the value in the message). */
function readScanChange(value: unknown, where: string): ScanChange | string {
  const shape = '{"diff_scan": {"enabled": true|false}, "full_scan": {"enabled": true|false}}';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${where} must be an object: ${shape}`;
  const config = value as Record<string, unknown>;
  const unknown = Object.keys(config).find((key) => !(SCAN_PARTS as readonly string[]).includes(key));
  if (unknown !== undefined) return `unknown field ${JSON.stringify(unknown)} in ${where} (allowed: ${SCAN_PARTS.join(', ')})`;
  if (!SCAN_PARTS.some((part) => part in config)) return `${where} must set diff_scan or full_scan: ${shape}`;
  const change: ScanChange = {};
  for (const part of SCAN_PARTS) {
    if (!(part in config)) continue;
    const setting = config[part];
    const keys = typeof setting === 'object' && setting !== null && !Array.isArray(setting) ? Object.keys(setting) : undefined;
    const enabled = keys?.length === 1 ? (setting as { enabled?: unknown }).enabled : undefined;
    if (typeof enabled !== 'boolean') return `${part} must be {"enabled": true} or {"enabled": false}`;
    change[part] = enabled;
  }
  return change;
}

function applyScanChange(project: StoredProject, change: ScanChange): void {
  if (change.diff_scan !== undefined) project.managed_scan_config.diff_scan.enabled = change.diff_scan;
  if (change.full_scan !== undefined) project.managed_scan_config.full_scan.enabled = change.full_scan;
}
