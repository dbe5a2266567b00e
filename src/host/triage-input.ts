/**
 * The one schema of a triage request, as `appsecFindings.triage` and the agent's triage tool both
 * take it: `{ findingIds, issueType, state?, reason?, note? }`. Each problem is one sentence that
 * names the field, checked before anything is sent. Pure, tested in Node.
 */
import { ISSUE_TYPES, type IssueType, type TriageReason } from '../core/model/types';
import type { TriageState } from '../core/model/triage-and-tickets';
import { TRIAGE_REASONS, TRIAGE_STATES, triageProblem } from '../core/services/triage-rules';
import { id, listOf, map, object, oneOf, optional, refine, text, type Schema } from './schema';

/** What the triage service takes: the findings of one issue type and the change. */
export interface TriageRequest {
  readonly issueType: IssueType;
  readonly ids: number[];
  readonly state?: TriageState;
  readonly reason?: TriageReason;
  readonly note?: string;
}

const FIELDS = 'findingIds, issueType, state?, reason?, note?';

export const TRIAGE_INPUT: Schema<TriageRequest> = map(
  refine(
    object(
      {
        issueType: oneOf(
          ISSUE_TYPES,
          `issueType must be ${ISSUE_TYPES.map((t) => `"${t}"`)
            .join(', ')
            .replace(/, ([^,]*)$/, ' or $1')} (AI code findings are "sast").`,
        ),
        findingIds: listOf(id('findingIds must be whole numbers (or strings of digits).'), 'findingIds must be a list of finding ids.'),
        state: optional(oneOf(TRIAGE_STATES, `state takes ${TRIAGE_STATES.join(', ')}.`)),
        reason: optional(oneOf(TRIAGE_REASONS, `reason takes ${TRIAGE_REASONS.join(', ')} (only with state "ignored").`)),
        note: optional(text('note must be text.')),
      },
      `A triage takes { ${FIELDS} }: give findingIds, issueType and a state or a note.`,
      (extra) => `${JSON.stringify(extra)} is not a triage field (${FIELDS}).`,
    ),
    (input) => triageProblem(input.findingIds, input),
  ),
  ({ issueType, findingIds, state, reason, note }) => ({ issueType, ids: findingIds, state, reason, note }),
);
