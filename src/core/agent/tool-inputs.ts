/**
 * What the agent's tools accept, checked before anything else: each problem is answered as one
 * sentence the agent can act on (the schema in package.json says the same, but a caller may not
 * honour it). The triage tool takes what `appsecFindings.triage` takes, through the same schema.
 * Pure, tested in Node.
 */
import { parseFindingUrl } from '../model/links';
import { SEVERITY_ORDER } from '../model/severity';
import { ISSUE_TYPES, type IssueType } from '../model/types';
import { id, listOf, noSuchOption, object, oneOf, optional, schema, text, valid, invalid, wholeNumber, type Infer } from '../../host/schema';
import { TRIAGE_INPUT, type TriageRequest } from '../../host/triage-input';

const STATUSES = ['open', 'reviewing', 'fixing', 'ignored', 'fixed', 'provisionally_ignored', 'all'] as const;
/** The platform's issue types, and `ai_sast` for the AI code findings alone. */
const LISTED_TYPES = [...ISSUE_TYPES, 'ai_sast'] as const;

export const FINDINGS_INPUT = object(
  {
    project: optional(text('project must be a project name (text).')),
    ref: optional(text('ref must be a branch or ref name (text).')),
    issueTypes: optional(listOf(oneOf(LISTED_TYPES, ''), `issueTypes takes ${LISTED_TYPES.join(', ')}.`, `issueTypes takes ${LISTED_TYPES.join(', ')}.`)),
    severities: optional(listOf(oneOf(SEVERITY_ORDER, ''), `severities takes ${SEVERITY_ORDER.join(', ')}.`, `severities takes ${SEVERITY_ORDER.join(', ')}.`)),
    status: optional(oneOf(STATUSES, `status takes ${STATUSES.join(', ')}.`)),
    path: optional(text('path must be a file or folder of the workspace (text).')),
    limit: optional(wholeNumber(1, 500, 'limit must be a whole number from 1 to 500.')),
  },
  'The input must be an object (every field is optional).',
  noSuchOption('The findings tool'),
);

export type FindingsInput = Infer<typeof FINDINGS_INPUT>;

/** The input's problem in one sentence, or undefined. */
export function findingsInputProblem(input: unknown): string | undefined {
  const checked = FINDINGS_INPUT.check(input);
  return checked.ok ? undefined : checked.problem;
}

export interface FindingInput {
  readonly id?: number | string;
  readonly url?: string;
}

const GIVE_ID = 'Give id (a finding id) or url (its platform link).';
const FINDING_ID = id(GIVE_ID);

/** `{ issueType?, id }` from an id or a platform link (…/findings/<id>, …/supply-chain/<id>, …/secrets/<id>). */
export const FINDING_INPUT = schema<{ issueType?: IssueType; id: number }>((input) => {
  if (typeof input !== 'object' || input === null) return invalid(GIVE_ID);
  const { id: given, url, ...extra } = input as Record<string, unknown>;
  const [unknown] = Object.keys(extra);
  if (unknown !== undefined) return invalid(noSuchOption('The finding tool')(unknown, 'id, url'));
  if (url !== undefined && typeof url !== 'string') return invalid("url must be the finding's platform link (text).");
  if (typeof url === 'string') {
    const parsed = parseFindingUrl(url);
    return parsed ? valid(parsed) : invalid("That url is not a finding's platform link (…/findings/<id>, …/supply-chain/<id> or …/secrets/<id>).");
  }
  const checked = FINDING_ID.check(given);
  return checked.ok ? valid({ id: checked.value }) : checked;
});

/** The finding the input names, or what is wrong with it. */
export function findingRefOf(input: unknown): { issueType?: IssueType; id: number } | string {
  const checked = FINDING_INPUT.check(input);
  return checked.ok ? checked.value : checked.problem;
}

export interface TriageToolInput {
  readonly findingIds?: readonly (number | string)[];
  readonly issueType?: string;
  readonly state?: string;
  readonly reason?: string;
  readonly note?: string;
}

/** The triage tool's input as the service takes it, or what is wrong with it (the triage command's schema). */
export function triageInputOf(input: unknown): TriageRequest | string {
  const checked = TRIAGE_INPUT.check(input);
  return checked.ok ? checked.value : checked.problem;
}
