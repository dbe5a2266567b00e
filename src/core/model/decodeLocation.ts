import { isObject, readString } from './decodeRead';
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
  if (!isObject(raw)) {
    return undefined;
  }
  const filePath = readString(raw.filePath) ?? readString(raw.file_path) ?? readString(raw.path);
  const line = first(raw.line, raw.start_line);
  if (!filePath || !isPositiveInteger(line)) {
    return undefined;
  }
  const endLine = first(raw.endLine, raw.end_line);
  if (endLine !== undefined && !isPositiveInteger(endLine)) {
    return undefined;
  }
  const column = positiveOrUndefined(first(raw.column, raw.start_col));
  const endColumn = positiveOrUndefined(first3(raw.endColumn, raw.end_column, raw.end_col));
  if (endLine !== undefined && endLine < line) {
    return undefined;
  }
  const sameLine = endLine === undefined || endLine === line;
  if (sameLine && column !== undefined && endColumn !== undefined && endColumn < column) {
    return undefined;
  }
  return { filePath: interner.intern(filePath), line, column, endLine, endColumn };
}

/**
 * The first value that is present (not undefined or null), so either spelling may be used.
 * Fixed arities rather than a rest parameter: this runs several times per finding.
 */
function first(a: unknown, b: unknown): unknown {
  return a !== undefined && a !== null ? a : b !== undefined && b !== null ? b : undefined;
}

function first3(a: unknown, b: unknown, c: unknown): unknown {
  return a !== undefined && a !== null ? a : first(b, c);
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function positiveOrUndefined(value: unknown): number | undefined {
  return isPositiveInteger(value) ? value : undefined;
}
