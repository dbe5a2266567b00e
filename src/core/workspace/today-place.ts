/**
 * Where a finding is in today's checkout: the one answer Problems, the tree, the details page,
 * the hover, the agent and SARIF all read, so none of them words "moved", "changed" or "gone"
 * differently. The drift tracker gives it for a scanned place; the host adds the file's URI.
 */
import type { SourceRange } from '../model/types';
import type { PlannedRange } from './diagnostic-plan';

/**
 * `same` and `moved`: mapped from the scanned commit onto today's code, unchanged. `changed`: the
 * finding's own code changed since the scan, so this is the closest place. `scanned`: not mapped
 * (the scanned commit is unknown or not in this copy): the scanned place is all there is.
 * `deleted`: its code is not in this copy: gone since the scan, or, with `onlyAt`, not here yet,
 * because the scanned commit is on a branch this checkout's history does not include.
 */
export type TodayPlace = FoundPlace | GonePlace;

/** A finding whose code is not in this copy. */
export interface GonePlace {
  readonly kind: 'deleted';
  /** The scanned commit, when this checkout does not include it: the code is there, not here yet. */
  readonly onlyAt?: string;
}

/** A place in a file of the folder. */
export interface FoundPlace {
  readonly kind: 'same' | 'moved' | 'changed' | 'scanned';
  /** Folder-relative, `/`-separated. */
  readonly relativePath: string;
  /** 0-based, end exclusive. */
  readonly range: PlannedRange;
  /** The commit the finding was scanned at, when known. */
  readonly commit?: string;
}

/** A place drift mapping moved onto today's code (not the scanned place taken as it is, not gone). */
export function isMappedPlace(place: TodayPlace | undefined): place is FoundPlace & { readonly kind: 'same' | 'moved' | 'changed' } {
  return place !== undefined && place.kind !== 'deleted' && place.kind !== 'scanned';
}

/** The place as the scanner writes places: 1-based; a range that runs to the end of its last line has no end column. */
export function sourceRangeOf(place: FoundPlace): SourceRange {
  const { range } = place;
  return {
    filePath: place.relativePath,
    line: range.startLine + 1,
    column: range.startCharacter + 1,
    endLine: range.endLine + 1,
    ...(range.wholeLine ? {} : { endColumn: range.endCharacter + 1 }),
  };
}
