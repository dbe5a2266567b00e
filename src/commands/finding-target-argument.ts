/**
 * The argument of the story commands (Show Trace, Open a Fix Pull Request, Fix with Agent):
 * `{ findingId, issueType }` from automation, checked strictly (a wrong one is refused, naming the
 * field, and nothing is sent), or whatever a menu, a quick fix or a hover passes, read as an item
 * and never refused. Pure, tested in Node.
 */
import type { IssueType } from '../core/model/types';
import { id, invalid, noSuchOption, object, oneOf, schema, valid, type Schema } from '../host/schema';
import { itemOf, type CommandItem } from './command-item';

/** A finding named by automation: its id and kind. */
export interface FindingTarget {
  readonly findingId: number;
  readonly issueType: IssueType;
}

export function isFindingTarget(value: CommandItem | FindingTarget | undefined): value is FindingTarget {
  return value !== undefined && 'findingId' in value;
}

/** `{ findingId, issueType }` of the kinds the command takes, or an item as a menu passes it. */
export function findingTargetArgument(command: string, kinds: readonly IssueType[]): Schema<CommandItem | FindingTarget | undefined> {
  const strict = object(
    {
      findingId: id(`findingId must be the finding's id (a whole number).`),
      issueType: oneOf(kinds, `issueType takes ${kinds.map((k) => `'${k}'`).join(' or ')}.`),
    },
    `${command} takes { findingId, issueType }.`,
    noSuchOption(command),
  );
  return schema<CommandItem | FindingTarget | undefined>((value) => {
    if (value === undefined || Array.isArray(value)) return valid(undefined);
    if (typeof value !== 'object' || value === null || !('findingId' in value)) return valid(itemOf(value));
    const checked = strict.check(value);
    return checked.ok ? valid({ findingId: checked.value.findingId, issueType: checked.value.issueType }) : invalid(checked.problem);
  });
}
