/**
 * The `dependencies` tool: "does any repository use lodash below 4.17.21?" answered from the
 * platform's supply-chain inventory, as `appsecFindings.whereUsed` answers it.
 */
import type { DependenciesService } from '../services/dependencies-service';
import { quotedError } from './agent-text';
import { DEFAULT_LIMIT, DEPENDENCIES_INPUT, usageText } from './dependency-text';
import { answered, refused, SIGNED_OUT, type ToolAnswer } from './tool-answer';

export interface DependenciesHandlerDeps {
  readonly dependencies: Pick<DependenciesService, 'whereUsed'>;
  readonly signedIn: () => boolean;
  readonly errorMessage: (error: unknown) => string;
}

export function dependenciesHandler(deps: DependenciesHandlerDeps): (input: unknown, signal: AbortSignal) => Promise<ToolAnswer> {
  return async (input, signal) => {
    const checked = DEPENDENCIES_INPUT.check(input);
    if (!checked.ok) return refused(checked.problem);
    if (!deps.signedIn()) return refused(SIGNED_OUT);
    const { limit, ...query } = checked.value;
    try {
      const usage = await deps.dependencies.whereUsed(query, signal);
      const rows = usage.rows.slice(0, limit ?? DEFAULT_LIMIT).map(({ repository, lockfilePath, version, transitivity, inRange, ecosystem }) => ({
        repository,
        lockfilePath,
        version,
        transitivity,
        inRange,
        ecosystem,
      }));
      return answered(usageText({ ...query, ...(limit !== undefined ? { limit } : {}) }, usage), {
        total: usage.rows.length,
        rows,
        ...(usage.unavailable ? { unavailable: true } : {}),
      });
    } catch (error) {
      if (signal.aborted) return refused('Cancelled.');
      return refused(`The inventory could not be read; the error, as data: ${quotedError(deps.errorMessage(error))}`);
    }
  };
}
