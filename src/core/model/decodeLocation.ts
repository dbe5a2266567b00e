import { asObject, readString } from './decodeRead';
import type { StringInterner } from './interner';
import type { SourceRange } from './types';

/**
 * Reads a location in any of the shapes seen: spec camelCase (`filePath`, `endLine`), the real
 * service's snake_case (`file_path`, `end_line`) and supply-chain usage
 * (`path`, `start_line`, `start_col`, `end_col`).
 *
 * A range that could put a diagnostic in the wrong place is dropped whole (the finding is kept
 * without a location): a line that is not a positive integer, or an end before the start.
 * A bad column only loses that column, since the line alone still points at the right place.
 */
export function decodeLocation(raw: unknown, interner: StringInterner): SourceRange | undefined {
  const o = asObject(raw);
  if (!o) {
    return undefined;
  }
  const filePath = readString(o.filePath) ?? readString(o.file_path) ?? readString(o.path);
  const line = first(o.line, o.start_line);
  if (!filePath || !isPositiveInteger(line)) {
    return undefined;
  }
  const endLineRaw = first(o.endLine, o.end_line);
  if (endLineRaw !== undefined && !isPositiveInteger(endLineRaw)) {
    return undefined;
  }
  const endLine = endLineRaw;
  const column = positiveOrUndefined(first(o.column, o.start_col));
  const endColumn = positiveOrUndefined(first(o.endColumn, o.end_column, o.end_col));
  if (endLine !== undefined && endLine < line) {
    return undefined;
  }
  const sameLine = endLine === undefined || endLine === line;
  if (sameLine && column !== undefined && endColumn !== undefined && endColumn < column) {
    return undefined;
  }
  return { filePath: interner.intern(filePath), line, column, endLine, endColumn };
}

/** The first value that is present (not undefined or null), so either spelling may be used. */
function first(...values: unknown[]): unknown {
  return values.find((v) => v !== undefined && v !== null);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function positiveOrUndefined(value: unknown): number | undefined {
  return isPositiveInteger(value) ? value : undefined;
}
