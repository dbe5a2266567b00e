/**
 * The finding a story command (Show Trace, Open a Fix Pull Request, Fix with Agent) acts on:
 * `{ findingId, issueType }` from automation (checked by `finding-target-argument.ts`), or
 * whatever a menu, a quick fix or a hover passes, or nothing: then the finding under the cursor,
 * else the one selected in the tree.
 */
import { t } from '../core/l10n';
import type { Finding } from '../core/model/types';
import type { CommandDeps } from './command-deps';
import { itemOf, type CommandItem } from './command-item';
import { findingAtCursor } from './finding-commands';
import { isFindingTarget, type FindingTarget } from './finding-target-argument';

export { findingTargetArgument, isFindingTarget, type FindingTarget } from './finding-target-argument';

export type TargetDeps = Pick<CommandDeps, 'session' | 'findings' | 'selectedItem'>;

/**
 * The finding the command acts on; undefined when nothing names one. A finding named by id that
 * the editor has not loaded is said, as automation's caller needs to know.
 */
export function targetFinding(app: TargetDeps, target: CommandItem | FindingTarget | undefined): Finding | undefined {
  if (isFindingTarget(target)) {
    const slug = app.session.deployment?.slug;
    const found = slug ? app.findings.finding(slug, target.issueType, target.findingId) : undefined;
    if (!slug) throw new Error(t('Sign in first: the finding is read from the signed-in deployment.'));
    if (!found)
      throw new Error(
        t(
          'Finding #{0} ({1}) is not among the findings the editor has loaded: open its project in the AppSec view, or refresh.',
          target.findingId,
          target.issueType,
        ),
      );
    return found;
  }
  return target?.finding ?? findingAtCursor() ?? itemOf(app.selectedItem()).finding;
}
