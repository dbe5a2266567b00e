/**
 * Where a planned diagnostic goes in today's copy, given a placer that knows how each file
 * changed since the scan (the host's drift tracker). Pure: the placer is a function.
 */
import type { PlannedDiagnostic, PlannedRange } from './diagnostic-plan';
import type { TodayPlace } from './today-place';

/** Where a scanned place of the folder is today; undefined when nothing is known yet (the scanned place is shown meanwhile). */
export type Placer = (scannedPath: string, range: PlannedRange) => TodayPlace | undefined;

export interface PlacedDiagnostic {
  readonly planned: PlannedDiagnostic;
  /** The finding's own code changed since the scan (its place is the closest match). */
  readonly changed: boolean;
}

/** The diagnostic at its place today, or undefined when its code is no longer in this copy. */
export function placeDiagnostic(planned: PlannedDiagnostic, place: Placer): PlacedDiagnostic | undefined {
  const primary = mappedOnly(place(planned.relativePath, planned.range));
  if (primary?.kind === 'deleted') return undefined;
  const { related, ...rest } = planned;
  const relatedToday = related && placeRelated(related, place);
  // Where nothing moved (most findings), the planned diagnostic itself: 50 000 copies less per drawing.
  const unmoved = !primary || (primary.kind === 'same' && primary.relativePath === planned.relativePath);
  if (unmoved && relatedToday === related) return { planned, changed: false };
  return {
    planned: {
      ...rest,
      ...(primary ? { relativePath: primary.relativePath, range: primary.range } : {}),
      ...(relatedToday ? { related: relatedToday } : {}),
    },
    changed: primary?.kind === 'changed',
  };
}

/** The other place of a supply-chain finding, moved too; dropped when its line is gone. */
function placeRelated(related: NonNullable<PlannedDiagnostic['related']>, place: Placer): PlannedDiagnostic['related'] {
  const today = mappedOnly(place(related.relativePath, related.range));
  if (!today || (today.kind === 'same' && today.relativePath === related.relativePath)) return related;
  return today.kind === 'deleted' ? undefined : { ...related, relativePath: today.relativePath, range: today.range };
}

/** A place that is only the scanned one tells nothing new: the planned place stands. */
function mappedOnly(place: TodayPlace | undefined): TodayPlace | undefined {
  return place?.kind === 'scanned' ? undefined : place;
}
