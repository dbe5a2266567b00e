/**
 * The fields that name a package and its versions, as the `whereUsed` command and the agent's
 * dependencies tool take them: checked the same way wherever they are typed.
 */
import { checkPackageQuery, type PackageQuery } from '../core/services/dependency-usage';
import { optional, refine, text, type Schema } from './schema';

export const PACKAGE_QUERY_FIELDS = {
  package: text('package must be the package\'s name (text), such as "lodash".'),
  ecosystem: optional(text('ecosystem must be text, such as npm or pypi.')),
  version: optional(text('version must be one exact version (text), such as 2.14.1.')),
  lower: optional(text('lower must be a bound (text), such as ">=2.0.0".')),
  upper: optional(text('upper must be a bound (text), such as "<2.17.1".')),
};

/** The query's own rules (bounds spelt with their operator, not both a version and bounds), after the fields. */
export function checkedQuery<T extends PackageQuery>(fields: Schema<T>): Schema<T> {
  return refine(fields, (query) => checkPackageQuery(query));
}
