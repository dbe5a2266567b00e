/**
 * What the Finding Details page is built from: the panel gathers it, `finding-details-html.ts`
 * lays out the header and `details-sections.ts` the sections below it. Pure data.
 */
import type { Finding } from '../core/model/types';
import type { FindingDetail } from '../core/model/finding-detail';
import type { TodayPlace } from '../core/workspace/today-place';
import type { FindingStory } from '../core/model/finding-story';
import type { TracePlace } from '../core/workspace/trace-places';

/** The finding's story (the platform's v2 call) as far as it is known. */
export interface DetailsStory {
  /** Being read; read; not offered by this deployment (or token); or it could not be read. */
  readonly state: 'loading' | 'read' | 'notAvailable' | 'failed';
  readonly story?: FindingStory;
  /** Its trace placed in today's code, in order. */
  readonly trace?: readonly TracePlace[];
  /** Why it is not there (the status, or the error), plain text. */
  readonly problem?: string;
}

export interface DetailsInput {
  /** The finding as the views hold it (always there), and its full detail once loaded. */
  readonly finding: Finding;
  readonly detail?: FindingDetail;
  /** Loading the detail: show what `finding` has, and say the rest is loading. */
  readonly loading?: boolean;
  /** Loading the detail failed: the reason (plain text), shown above what is known. */
  readonly error?: string;
  /** Where the finding is in today's code (after drift mapping), when it is in this workspace. */
  readonly place?: TodayPlace;
  /** The platform's page of the finding (http(s)), if known. */
  readonly platformUrl?: string;
  /** Whether the finding is new on its branch (its primary branch lacks it), with that branch's name. */
  readonly newAgainst?: string;
  /** The code at the finding's lines today (for the autofix comparison), if known. */
  readonly currentCode?: string;
  /** The finding's story: trace, elsewhere, activity, owners, what the user may do. */
  readonly story?: DetailsStory;
  /** A triage or ticket action in flight or just done, shown as a status line (plain text). */
  readonly notice?: { readonly kind: 'info' | 'error' | 'busy'; readonly text: string };
}
