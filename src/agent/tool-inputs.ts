/**
 * What the agent's tools accept, checked before anything else: each problem is answered as one
 * sentence the agent can act on (the schema in package.json says the same, but a caller may not
 * honour it). Pure, tested in Node.
 */
import { parseFindingUrl } from '../core/model/links';
import type { IssueType, TriageReason, TriageState } from '../core/model/types';
import { TRIAGE_REASONS, TRIAGE_STATES, triageProblem } from '../core/services/triage-service';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'];
const STATUSES = ['open', 'reviewing', 'fixing', 'ignored', 'fixed', 'provisionally_ignored', 'all'];
const ISSUE_TYPES = ['sast', 'sca', 'secrets', 'ai_sast'];

export interface FindingsInput {
  readonly project?: string; readonly ref?: string; readonly issueTypes?: readonly string[]; readonly severities?: readonly string[];
  readonly status?: string; readonly path?: string; readonly limit?: number;
}

/** The input's problem in one sentence, or undefined. */
export function findingsInputProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return 'The input must be an object (every field is optional).';
  const i = input as Record<string, unknown>;
  const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (i.project !== undefined && typeof i.project !== 'string') return 'project must be a project name (text).';
  if (i.ref !== undefined && typeof i.ref !== 'string') return 'ref must be a branch or ref name (text).';
  if (i.issueTypes !== undefined && (!stringList(i.issueTypes) || i.issueTypes.some((t) => !ISSUE_TYPES.includes(t)))) return `issueTypes takes ${ISSUE_TYPES.join(', ')}.`;
  if (i.severities !== undefined && (!stringList(i.severities) || i.severities.some((s) => !SEVERITIES.includes(s)))) return `severities takes ${SEVERITIES.join(', ')}.`;
  if (i.status !== undefined && (typeof i.status !== 'string' || !STATUSES.includes(i.status))) return `status takes ${STATUSES.join(', ')}.`;
  if (i.path !== undefined && typeof i.path !== 'string') return 'path must be a file or folder of the workspace (text).';
  if (i.limit !== undefined && (typeof i.limit !== 'number' || !Number.isInteger(i.limit) || i.limit < 1 || i.limit > 500)) return 'limit must be a whole number from 1 to 500.';
  return undefined;
}

export interface FindingInput { readonly id?: number | string; readonly url?: string }

/** `{ issueType?, id }` from an id or a platform link (…/findings/<id>, …/supply-chain/<id>, …/secrets/<id>). */
export function findingRefOf(input: unknown): { issueType?: IssueType; id: number } | string {
  if (typeof input !== 'object' || input === null) return 'Give id (a finding id) or url (its platform link).';
  const { id, url } = input as Record<string, unknown>;
  if (typeof url === 'string') {
    return parseFindingUrl(url) ?? 'That url is not a finding\'s platform link (…/findings/<id>, …/supply-chain/<id> or …/secrets/<id>).';
  }
  const n = typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return 'Give id (a finding id) or url (its platform link).';
  return { id: n };
}

export interface TriageToolInput {
  readonly findingIds?: readonly (number | string)[]; readonly issueType?: string; readonly state?: string; readonly reason?: string; readonly note?: string;
}

/** The triage tool's input as the service takes it, or what is wrong with it. */
export function triageInputOf(input: unknown): { issueType: IssueType; ids: number[]; state?: TriageState; reason?: TriageReason; note?: string } | string {
  if (typeof input !== 'object' || input === null) return 'Give findingIds, issueType and a state or a note.';
  const i = input as Record<string, unknown>;
  if (i.issueType !== 'sast' && i.issueType !== 'sca' && i.issueType !== 'secrets') return 'issueType must be "sast", "sca" or "secrets" (AI code findings are "sast").';
  if (!Array.isArray(i.findingIds)) return 'findingIds must be a list of finding ids.';
  const ids = (i.findingIds as unknown[]).map((id): unknown => (typeof id === 'string' && /^\d{1,15}$/.test(id) ? Number(id) : id));
  if (!ids.every((id): id is number => typeof id === 'number' && Number.isSafeInteger(id) && id >= 0)) return 'findingIds must be whole numbers.';
  if (i.state !== undefined && (typeof i.state !== 'string' || !TRIAGE_STATES.includes(i.state as TriageState))) return `state takes ${TRIAGE_STATES.join(', ')}.`;
  if (i.reason !== undefined && (typeof i.reason !== 'string' || !TRIAGE_REASONS.includes(i.reason))) return `reason takes ${TRIAGE_REASONS.join(', ')} (only with state "ignored").`;
  if (i.note !== undefined && typeof i.note !== 'string') return 'note must be text.';
  const issueType: IssueType = i.issueType;
  const reason: TriageReason | undefined = typeof i.reason === 'string' ? i.reason : undefined;
  const note: string | undefined = typeof i.note === 'string' ? i.note : undefined;
  const request = { issueType, ids, state: i.state as TriageState | undefined, reason, note };
  return triageProblem(ids, request) ?? request;
}

