/**
 * The changes the platform allows to its settings (docs/platform-api.md, "Changes to settings"):
 * a policy rule's mode, a project's tags, primary branch and managed scans, and a ticket unlinked
 * from every finding. Each is a write: a 403 is the token's role, and each refuses what it can
 * tell is wrong before sending anything. `PlatformClient` exposes them.
 */
import { decodePolicyRule } from '../model/decodePolicy';
import { decodeUnlinkEverywhereResult } from '../model/decodeActions';
import { decodeManagedScans, decodeProject, decodeProjectResponse } from '../model/decodeProject';
import { asObject } from '../model/decodeRead';
import { PlatformError } from '../model/errors';
import type { PolicyRule } from '../model/policy';
import { spellRef } from '../model/refs';
import type { ManagedScans, Project } from '../model/types';
import { encodePathSegment } from './encoding';
import { deploymentPath, projectPath, type CallOptions } from './endpoints';
import type { PlatformHttp } from './http';
import { said, type Said } from '../l10n';

/** The modes a rule can be set to (the service's enumeration). */
export const SETTABLE_RULE_MODES = ['MODE_MONITOR', 'MODE_COMMENT', 'MODE_BLOCK', 'MODE_DISABLED'] as const;
export type SettableRuleMode = (typeof SETTABLE_RULE_MODES)[number];

/** What the project's `primary_branch` takes to make the default branch primary again. */
export const DEFAULT_BRANCH_MARKER = 'None';

/** A change that is not sent: what is wrong with it, as a bad request. */
export function refuse(message: Said): never {
  throw new PlatformError('badRequest', message);
}

function checkTags(tags: readonly string[]): void {
  if (tags.length === 0 || tags.some((tag) => tag.trim() === '')) refuse(said('Give at least one tag, and no empty tags.'));
}

/**
 * Sets one rule's mode in a policy. The answer's rule when it holds a readable one, else
 * undefined (the caller keeps the mode it asked for).
 */
export async function setRuleMode(
  http: PlatformHttp,
  deploymentId: string,
  policyId: string,
  rulePath: string,
  mode: SettableRuleMode,
  options: CallOptions = {},
): Promise<PolicyRule | undefined> {
  if (rulePath.trim() === '') refuse(said('Name the rule (its path, such as {0}).', 'python.lang.security.audit.eval'));
  if (!SETTABLE_RULE_MODES.includes(mode)) refuse(said("A rule's mode is one of {0}.", SETTABLE_RULE_MODES.join(', ')));
  const body = await http.requestJson({
    method: 'PUT',
    path: `${deploymentPath(deploymentId)}/policies/${encodePathSegment(policyId, 'policy id')}`,
    body: { rulePath, policyMode: mode },
    what: said('changing the mode of {0}', rulePath),
    access: 'write',
    signal: options.signal,
  });
  const answer = asObject(body);
  return decodePolicyRule(answer?.updatedRule ?? answer?.updated_rule);
}

/** Spec 4.4: the service adds the tags to those the project has (it does not replace them). */
export async function addProjectTags(
  http: PlatformHttp,
  deploymentSlug: string,
  projectName: string,
  tags: readonly string[],
  options: CallOptions = {},
): Promise<Project> {
  checkTags(tags);
  const body = await http.requestJson({
    method: 'PUT',
    path: `${projectPath(deploymentSlug, projectName)}/tags`,
    body: { tags },
    what: said('tagging project {0}', projectName),
    access: 'write',
    signal: options.signal,
  });
  return decodeProjectResponse(body, projectName);
}

/** Removes those tags from the project only (the deployment keeps them). */
export async function removeProjectTags(
  http: PlatformHttp,
  deploymentSlug: string,
  projectName: string,
  tags: readonly string[],
  options: CallOptions = {},
): Promise<Project> {
  checkTags(tags);
  const body = await http.requestJson({
    method: 'DELETE',
    path: `${projectPath(deploymentSlug, projectName)}/tags`,
    query: tags.map((tag) => `tags=${encodeURIComponent(tag)}`).join('&'),
    what: said('removing tags from project {0}', projectName),
    access: 'write',
    signal: options.signal,
  });
  return decodeProjectResponse(body, projectName);
}

/**
 * Makes a branch the project's primary branch (what "new on this branch" compares with);
 * `undefined` makes the default branch primary again. The service takes a full branch name.
 */
export async function setPrimaryBranch(
  http: PlatformHttp,
  deploymentSlug: string,
  projectName: string,
  branch: string | undefined,
  options: CallOptions = {},
): Promise<Project> {
  const name = branch?.trim();
  if (name !== undefined && (name === '' || /\s/.test(name) || name === DEFAULT_BRANCH_MARKER)) refuse(said('"{0}" is not a branch name.', branch ?? ''));
  const body = await http.requestJson({
    method: 'PATCH',
    path: projectPath(deploymentSlug, projectName),
    body: { primary_branch: name === undefined ? DEFAULT_BRANCH_MARKER : spellRef(name, 'full') },
    what: said('setting the primary branch of {0}', projectName),
    access: 'write',
    signal: options.signal,
  });
  return decodeProjectResponse(body, projectName);
}

/**
 * Turns managed scans on or off; both settings are sent, as the service takes them. Its answer
 * is not documented: the settings it holds when it names them (a project, or the settings
 * themselves), else undefined (the caller keeps what it asked for).
 */
export async function setManagedScans(
  http: PlatformHttp,
  deploymentSlug: string,
  projectName: string,
  scans: ManagedScans,
  options: CallOptions = {},
): Promise<ManagedScans | undefined> {
  const body = await http.requestJson({
    method: 'PATCH',
    path: `${projectPath(deploymentSlug, projectName)}/managed-scan`,
    body: { diff_scan: { enabled: scans.diffScanEnabled }, full_scan: { enabled: scans.fullScanEnabled } },
    what: said('changing the managed scans of {0}', projectName),
    access: 'write',
    signal: options.signal,
  });
  const answer = asObject(body);
  const named = decodeProject(answer?.project)?.managedScanConfig ?? decodeManagedScans(answer?.managed_scan_config);
  return named ?? (answer && ('diff_scan' in answer || 'full_scan' in answer) ? decodeManagedScans(answer) : undefined);
}

/** Unlinks a ticket (by the ticket's id) from every finding it is linked to; the findings' ids. */
export async function unlinkTicketEverywhere(http: PlatformHttp, deploymentId: string, ticketId: string, options: CallOptions = {}): Promise<number[]> {
  if (!/^\d+$/.test(ticketId)) refuse(said('"{0}" is not a ticket\'s id (digits).', ticketId));
  const body = await http.requestJson({
    method: 'DELETE',
    path: `${deploymentPath(deploymentId)}/ticketing/v2/tickets/${encodePathSegment(ticketId, 'ticket id')}`,
    what: said('unlinking ticket {0}', ticketId),
    access: 'write',
    signal: options.signal,
  });
  return decodeUnlinkEverywhereResult(body);
}
