/**
 * Fix pull requests made by the local platform (`POST …/issues/{issueId}/autofix`). An accepted
 * request answers `{ success: true }` at once; the pull request opens a few seconds later
 * (`delayMs`) and then shows on the finding: in `click_to_fix_prs` of the findings list (code
 * findings) and in the v2 story (`clickToFixPrUrl`, `clickToFixPrId`, and the requested and
 * opened events of its history). Refusals answer `{ errors: [{ errorType, message }] }` (no
 * `success`: protobuf JSON leaves out `false`) with status 200, or another a test chooses.
 */
import { error, json, type PlatformResponse } from './respond';
import type { PlatformData } from './types';
import type { WireSastFinding, WireScaFinding } from './wire';

export const AUTOFIX_ERROR_TYPES = [
  'AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND',
  'AUTOFIX_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE',
  'AUTOFIX_ERROR_TYPE_AUTOFIX_NOT_ENABLED',
  'AUTOFIX_ERROR_TYPE_INVALID_REPOSITORY',
  'AUTOFIX_ERROR_TYPE_NO_WRITE_ACCESS',
  'AUTOFIX_ERROR_TYPE_SCM_CONFIG_NOT_FOUND',
  'AUTOFIX_ERROR_TYPE_SCM_TOKEN_FAILED',
  'AUTOFIX_ERROR_TYPE_CODE_ACCESS_NOT_GRANTED',
  'AUTOFIX_ERROR_TYPE_CREDITS_EXHAUSTED',
  'AUTOFIX_ERROR_TYPE_IN_FLIGHT_FIX_PENDING',
  'AUTOFIX_ERROR_TYPE_NO_RECOMMENDED_UPGRADE',
  'AUTOFIX_ERROR_TYPE_INVALID_ISSUE_STATE',
] as const;
export type AutofixErrorType = (typeof AUTOFIX_ERROR_TYPES)[number];

/**
 * What the next requests answer: `accept` (the default: the platform decides, refusing what it
 * would refuse of itself: an unknown finding, a secret, a fixed or ignored finding, a dependency
 * without an upgrade, a second request while one is pending), or always one error type, in a 200
 * or with the status given.
 */
export type AutofixOutcomeSetting = 'accept' | AutofixErrorType | { errorType: string; status: number };

/** A request the platform took, and the pull request it opened for it. */
export interface AutofixJob {
  requestedAt: string;
  pullRequest?: { url: string; number: number; openedAt: string };
}

/** Pull request numbers the platform's fixes get (above those of the generated data). */
const FIRST_PR_NUMBER = 7001;

export class AutofixDesk {
  private readonly jobs = new Map<number, AutofixJob>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextPr = FIRST_PR_NUMBER;
  outcome: AutofixOutcomeSetting = 'accept';

  constructor(public delayMs: number) {}

  /** The latest request for a finding, by its id. */
  job(issueId: number): AutofixJob | undefined {
    return this.jobs.get(issueId);
  }

  request(data: PlatformData, issueId: number, body: string | undefined): PlatformResponse {
    if (body !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return error(400, 'the body is not JSON');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return error(400, 'the body must be a JSON object');
    }
    const forced = this.outcome;
    if (forced !== 'accept') return typeof forced === 'string' ? refuse(forced) : refuse(forced.errorType, forced.status);
    const finding = [...data.sast, ...data.ai_sast, ...data.sca].find((f) => f.id === issueId);
    if (!finding) {
      return refuse(data.secrets.some((s) => s.id === String(issueId)) ? 'AUTOFIX_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE' : 'AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND');
    }
    const pending = this.jobs.get(issueId);
    if (pending && !pending.pullRequest) return refuse('AUTOFIX_ERROR_TYPE_IN_FLIGHT_FIX_PENDING');
    if (finding.status === 'fixed' || finding.status === 'ignored') return refuse('AUTOFIX_ERROR_TYPE_INVALID_ISSUE_STATE');
    if ('vulnerability_identifier' in finding && (finding.fix_recommendations?.length ?? 0) === 0) return refuse('AUTOFIX_ERROR_TYPE_NO_RECOMMENDED_UPGRADE');
    const job: AutofixJob = { requestedAt: new Date().toISOString() };
    this.jobs.set(issueId, job);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.open(finding, job);
    }, this.delayMs);
    this.timers.add(timer);
    return json(200, { success: true });
  }

  /** Stops the pull requests still to open (the server is closing). */
  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private open(finding: WireSastFinding | WireScaFinding, job: AutofixJob): void {
    const number = this.nextPr++;
    const repo = finding.repository?.url ?? 'https://github.com/acme/unknown';
    const openedAt = new Date().toISOString();
    job.pullRequest = { url: `${repo}${repo.includes('gitlab') ? '/-/merge_requests/' : '/pull/'}${number}`, number, openedAt };
    // Code findings list their fix pull requests; supply-chain findings carry no such list.
    if (!('vulnerability_identifier' in finding)) {
      const sast = finding as WireSastFinding;
      (sast.click_to_fix_prs ??= []).push({ created_at: openedAt, url: job.pullRequest.url });
    }
  }
}

const MESSAGES: Record<string, string> = {
  AUTOFIX_ERROR_TYPE_ISSUE_NOT_FOUND: 'issue not found',
  AUTOFIX_ERROR_TYPE_UNSUPPORTED_ISSUE_TYPE: 'autofix is not supported for this issue type',
  AUTOFIX_ERROR_TYPE_AUTOFIX_NOT_ENABLED: 'autofix is not enabled for this deployment',
  AUTOFIX_ERROR_TYPE_IN_FLIGHT_FIX_PENDING: 'a fix for this issue is already in progress',
  AUTOFIX_ERROR_TYPE_INVALID_ISSUE_STATE: 'the issue is not open',
  AUTOFIX_ERROR_TYPE_NO_RECOMMENDED_UPGRADE: 'no recommended upgrade for this dependency',
};

function refuse(errorType: string, status = 200): PlatformResponse {
  return json(status, {
    errors: [{ errorType, message: MESSAGES[errorType] ?? errorType.replace('AUTOFIX_ERROR_TYPE_', '').toLowerCase().replace(/_/g, ' ') }],
  });
}
