/**
 * What the agent's dependencies tool answers: the repositories and lockfiles that use a package,
 * in range first, bounded in items and characters like the findings list, with every name from
 * the platform quoted as data. Pure, tested in Node.
 */
import type { PackageQuery, PackageUsage } from '../services/dependency-usage';
import { unavailableText } from '../services/kind-availability';
import { noSuchOption, object, optional, wholeNumber, type Infer } from '../../host/schema';
import { checkedQuery, PACKAGE_QUERY_FIELDS } from '../../host/package-query-input';
import { MAX_LIST_CHARS, quote } from './agent-text';

export const DEPENDENCIES_INPUT = checkedQuery(
  object(
    {
      ...PACKAGE_QUERY_FIELDS,
      limit: optional(wholeNumber(1, 500, 'limit must be a whole number from 1 to 500.')),
    },
    'The input must be an object with at least "package".',
    noSuchOption('The dependencies tool'),
  ),
);
export type DependenciesInput = Infer<typeof DEPENDENCIES_INPUT>;

/** The default number of rows, as the findings tool lists 50 findings. */
export const DEFAULT_LIMIT = 50;

function rangeOf(query: PackageQuery): string | undefined {
  if (query.version !== undefined) return `= ${query.version}`;
  const bounds = [query.lower, query.upper].filter(Boolean).join(' ');
  return bounds === '' ? undefined : bounds;
}

export function usageText(query: PackageQuery & { readonly limit?: number }, usage: PackageUsage): string {
  const range = rangeOf(query);
  const head = `Repositories of the deployment that use ${quote(query.package)}${query.ecosystem ? ` (${query.ecosystem})` : ''}${range ? `, versions in ${range} marked IN RANGE` : ''}:`;
  if (usage.unavailable) return `${head}\nUnknown: the supply-chain inventory is ${unavailableText(usage.unavailable, 'english')}.`;
  if (usage.rows.length === 0) return `${head}\nNone: no repository's lockfile lists it.`;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const lines: string[] = [];
  let used = head.length;
  for (const row of usage.rows.slice(0, limit)) {
    const line = `- ${quote(row.repository)} ${quote(row.lockfilePath)} ${quote(row.version)} ${row.transitivity}${range && row.inRange ? ' · IN RANGE' : ''}`;
    if (used + line.length + 200 > MAX_LIST_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const repositories = new Set(usage.rows.map((r) => r.repositoryId)).size;
  const inRange = usage.rows.filter((r) => r.inRange).length;
  const leftOut = usage.rows.length - lines.length;
  const tail = [
    `${usage.rows.length} ${usage.rows.length === 1 ? 'use' : 'uses'} in ${repositories} ${repositories === 1 ? 'repository' : 'repositories'}${range ? `, ${inRange} in range` : ''}.`,
    ...(leftOut > 0 ? [`${leftOut} left out (in-range ones come first); raise limit to see more.`] : []),
    ...(usage.skipped > 0 ? [`${usage.skipped} entries of the platform's answer could not be read.`] : []),
  ].join(' ');
  return [head, ...lines, tail].join('\n');
}
