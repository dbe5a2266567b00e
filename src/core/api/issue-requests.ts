/**
 * One finding's calls by its id (docs/platform-api.md, "One finding's story and its fix"): its
 * whole story from the experimental v2 call, and a fix pull request asked of the platform.
 * `PlatformClient` exposes them. Both take the deployment's id.
 */
import { autofixNotAvailable, autofixRefusalInText, decodeAutofixAnswer, type AutofixOutcome } from '../model/autofix-outcome';
import { decodeFindingStory } from '../model/decodeFindingStory';
import { PlatformError, unavailableOf } from '../model/errors';
import type { FindingStoryAnswer } from '../model/finding-story';
import { encodePathSegment } from './encoding';
import { deploymentPath, type CallOptions } from './endpoints';
import type { PlatformHttp } from './http';
import type { WireAutofixRequest } from './wire';
import { said } from '../l10n';

export type { AutofixOutcome } from '../model/autofix-outcome';
export type { FindingStoryAnswer } from '../model/finding-story';

export interface FindingStoryCallOptions extends CallOptions {
  /** Ask for the code of each place too (default true, as the platform's own default). */
  readonly includeCode?: boolean;
}

function issueSegment(issueId: number): string {
  if (!Number.isSafeInteger(issueId) || issueId < 0) throw new PlatformError('badRequest', said("{0} is not a finding's id.", issueId));
  return encodePathSegment(String(issueId), 'finding id');
}

/**
 * The finding's story (`GET /api/agent/deployments/{id}/issues/v2/{issueId}`). A deployment or
 * token without this experimental call answers 404, 403 or 400: that is `notAvailable`, said
 * calmly, never an error. Any other failure (the network, a 5xx after retries, a 401) is thrown.
 */
export async function findingStory(
  http: PlatformHttp,
  deploymentId: string,
  issueId: number,
  options: FindingStoryCallOptions = {},
): Promise<FindingStoryAnswer> {
  const path = `/api/agent/deployments/${encodePathSegment(deploymentId, 'deployment')}/issues/v2/${issueSegment(issueId)}`;
  let body: unknown;
  try {
    body = await http.requestJson({
      method: 'GET',
      path,
      ...(options.includeCode === false ? { query: 'includeCodeSnippet=false' } : {}),
      what: said('the story of finding {0}', issueId),
      access: 'product',
      signal: options.signal,
    });
  } catch (error) {
    // The call names nothing of ours a 400 could be about but the finding: it is the call that is missing.
    const unavailable = unavailableOf(error, true);
    if (unavailable) return { kind: 'notAvailable', unavailable };
    throw error;
  }
  return { kind: 'story', story: decodeFindingStory(body) };
}

/**
 * Asks the platform to open a fix pull request for the finding (`POST …/issues/{issueId}/autofix`,
 * body `{}`). Never retried: a repeat could start a second job. A refusal the platform explains
 * (an error type, in a 200 or in an error answer) is an outcome with its sentence; a 404 that
 * explains nothing is a deployment without the call. A 403 that explains nothing is the token's
 * role, thrown as every refused write is.
 */
export async function requestAutofix(http: PlatformHttp, deploymentId: string, issueId: number, options: CallOptions = {}): Promise<AutofixOutcome> {
  let body: unknown;
  try {
    body = await http.requestJson({
      method: 'POST',
      path: `${deploymentPath(deploymentId)}/issues/${issueSegment(issueId)}/autofix`,
      body: {} satisfies WireAutofixRequest,
      what: said('asking for a fix pull request for finding {0}', issueId),
      access: 'write',
      signal: options.signal,
    });
  } catch (error) {
    if (!(error instanceof PlatformError) || error.status === undefined || error.status >= 500) throw error;
    const explained = autofixRefusalInText(error.bodySnippet, error.status);
    if (explained) return explained;
    if (error.status === 404) return autofixNotAvailable(404, error.message);
    throw error;
  }
  return decodeAutofixAnswer(body);
}
